import { describe, expect, it } from 'vitest';
import { buildFacts, completeMetadata, pom } from '../../test/fixtures/maven/facts-builder.js';
import { mavenPublishingPluginsConflict } from './maven-publishing-plugins-conflict.js';
import { mavenDistributionUrl } from './maven-distribution-url.js';
import { mavenMissingDistribution } from './maven-missing-distribution.js';

const project = (build: string): string => pom(`  <groupId>org.ex</groupId><artifactId>demo</artifactId><version>1.0.0-SNAPSHOT</version>
${completeMetadata}
${build}`);
const nexus = (config = '<nexusUrl>https://ossrh-staging-api.central.sonatype.com/</nexusUrl><serverId>central</serverId>'): string =>
  `<plugin><groupId>org.sonatype.plugins</groupId><artifactId>nexus-staging-maven-plugin</artifactId><version>1.7.0</version><extensions>true</extensions><configuration>${config}</configuration></plugin>`;
const portal = '<plugin><groupId>org.sonatype.central</groupId><artifactId>central-publishing-maven-plugin</artifactId><version>0.8.0</version><extensions>true</extensions></plugin>';
const profile = (id: string, plugin: string): string => `<profile><id>${id}</id><build><plugins>${plugin}</plugins></build></profile>`;

describe('publishing-plugins-conflict', () => {
  it('fires when nexus-staging and central-publishing both take over deploy in one build, at the nexus-staging plugin', () => {
    const facts = buildFacts({ files: { 'pom.xml': project(`  <build><plugins>\n${nexus()}\n${portal}</plugins></build>`) } });
    const findings = mavenPublishingPluginsConflict.run(facts);
    expect(findings).toMatchObject([{ code: 'publishing-plugins-conflict', severity: 'error', file: 'pom.xml' }]);
    expect(findings[0]!.message).toContain('both take over deploy');
  });

  it('fires for one in the build and one in a profile; two profiles are alternatives', () => {
    const mixed = buildFacts({ files: { 'pom.xml': project(`  <build><plugins>${nexus()}</plugins></build>\n  <profiles>${profile('central', portal)}</profiles>`) } });
    expect(mavenPublishingPluginsConflict.run(mixed)).toHaveLength(1);
    const alternatives = buildFacts({ files: { 'pom.xml': project(`  <profiles>${profile('ossrh', nexus())}${profile('central', portal)}</profiles>`) } });
    expect(mavenPublishingPluginsConflict.run(alternatives)).toEqual([]);
  });
});

describe('nexus-staging route: the plugin replaces deploy', () => {
  it('a release repository it ignores is neither distribution-url nor missing-distribution; its <nexusUrl> is judged instead', () => {
    const elsewhere = '  <distributionManagement><repository><id>x</id><url>https://nexus.example.com/deploy/</url></repository></distributionManagement>';
    const ok = buildFacts({ files: { 'pom.xml': project(`${elsewhere}\n  <build><plugins>${nexus()}</plugins></build>`) } });
    expect(mavenDistributionUrl.run(ok)).toEqual([]);
    expect(mavenMissingDistribution.run(buildFacts({ files: { 'pom.xml': project(`  <build><plugins>${nexus()}</plugins></build>`) } }))).toEqual([]);
    const wrongHost = buildFacts({ files: { 'pom.xml': project(`  <build><plugins>${nexus('<nexusUrl>https://central.sonatype.com/</nexusUrl>')}</plugins></build>`) } });
    expect(mavenDistributionUrl.run(wrongHost)).toMatchObject([{ code: 'distribution-url', message: expect.stringContaining("nexus-staging-maven-plugin's <nexusUrl> https://central.sonatype.com/") }]);
    const none = buildFacts({ files: { 'pom.xml': project(`  <build><plugins>${nexus('<serverId>central</serverId>')}</plugins></build>`) } });
    expect(mavenDistributionUrl.run(none)).toMatchObject([{ code: 'distribution-url', message: expect.stringContaining('has no <nexusUrl>') }]);
  });
});
