import { describe, expect, it } from 'vitest';
import { deploymentIdFromPluginLog, deploymentNameMatches, publishingRoute, stagingRepositoryIdFromContext, stagingRepositoryIdsFromPluginLog } from './publishing-route.js';

describe('publishing route', () => {
  it('is the portal plugin when a POM declares central-publishing-maven-plugin, not in a comment', () => {
    const plugin = '<plugin><groupId>org.sonatype.central</groupId><artifactId>central-publishing-maven-plugin</artifactId></plugin>';
    expect(publishingRoute([`<project>${plugin}</project>`])).toBe('portal-plugin');
    expect(publishingRoute(['<project/>', `<project><!-- ${plugin} --></project>`])).toBe('staging-api');
    expect(publishingRoute([])).toBe('staging-api');
  });

  it("reads the deployment id from the plugin's upload line (0.12.0's wording), the last one wins", () => {
    const log = [
      '[INFO] Going to upload /p/target/central-publishing/central-bundle.zip',
      '[INFO] Uploaded bundle successfully, deployment name: Deployment, deploymentId: 69282dea-a09c-4597-9e63-34c775b0d03b. Deployment will require manual publishing',
    ].join('\n');
    expect(deploymentIdFromPluginLog(log)).toBe('69282dea-a09c-4597-9e63-34c775b0d03b');
    expect(deploymentIdFromPluginLog('[INFO] [INFO] Uploaded bundle successfully, deployment name: a, b, deploymentId: 11111111-2222-3333-4444-555555555555. x')).toBe(
      '11111111-2222-3333-4444-555555555555',
    );
    expect(deploymentIdFromPluginLog('[INFO] Skipping the upload of the bundle at user\'s request (skipUpload).')).toBeUndefined();
  });

  it('is nexus-staging when nexus-staging-maven-plugin takes over deploy (extensions, possibly from pluginManagement, or its deploy goal bound)', () => {
    const nexus = (inner: string): string => `<plugin><groupId>org.sonatype.plugins</groupId><artifactId>nexus-staging-maven-plugin</artifactId>${inner}</plugin>`;
    expect(publishingRoute([`<project><build><plugins>${nexus('<extensions>true</extensions>')}</plugins></build></project>`])).toBe('nexus-staging');
    const managed = `<project><build><pluginManagement><plugins>${nexus('<extensions>true</extensions>')}</plugins></pluginManagement><plugins>${nexus('')}</plugins></build></project>`;
    expect(publishingRoute([managed])).toBe('nexus-staging');
    expect(publishingRoute([`<project><build><plugins>${nexus('<executions><execution><goals><goal>deploy</goal></goals></execution></executions>')}</plugins></build></project>`])).toBe('nexus-staging');
    // Only managed, or applied without extensions or its deploy goal: maven-deploy-plugin still deploys.
    expect(publishingRoute([`<project><build><pluginManagement><plugins>${nexus('<extensions>true</extensions>')}</plugins></pluginManagement></build></project>`])).toBe('staging-api');
    expect(publishingRoute([`<project><build><plugins>${nexus('<extensions>false</extensions>')}</plugins></build></project>`])).toBe('staging-api');
  });

  it("reads the staging repository the plugin created, from its log and from its context file; matches the portal's deployment name", () => {
    const log = '[INFO]  * Created staging repository with ID "org.example--ce37e26d-5ae1-4757-b497-06423fee613d".\n[INFO]  * Closing staging repository with ID "org.example--ce37e26d-5ae1-4757-b497-06423fee613d".';
    expect(stagingRepositoryIdsFromPluginLog(log)).toEqual(['org.example--ce37e26d-5ae1-4757-b497-06423fee613d']);
    expect(stagingRepositoryIdsFromPluginLog('[INFO] Performing local staging')).toEqual([]);
    expect(stagingRepositoryIdFromContext('#Nexus staging context\nstagingRepository.id=org.example--1\nstagingProfile.id=org.example\n')).toBe('org.example--1');
    expect(deploymentNameMatches('org.example--1 (via OSSRH API Proxy)', 'org.example--1')).toBe(true);
    expect(deploymentNameMatches('org.example--10 (via OSSRH API Proxy)', 'org.example--1')).toBe(false);
  });
});
