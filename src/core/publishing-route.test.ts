import { describe, expect, it } from 'vitest';
import { deploymentIdFromPluginLog, publishingRoute } from './publishing-route.js';

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
});
