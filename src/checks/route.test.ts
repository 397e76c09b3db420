import { describe, expect, it } from 'vitest';
import { buildFacts, completeMetadata, pom, stagingDistribution } from '../../test/fixtures/maven/facts-builder.js';
import type { GradleFacts, GradlePublishingFacts } from '../build-tools/gradle/facts.js';
import type { ProjectFacts } from './facts.js';
import { detectRoute } from './route.js';

const project = (extra: string): string => pom(`  <groupId>org.ex</groupId><artifactId>demo</artifactId><version>1.0.0-SNAPSHOT</version>
${completeMetadata}
${extra}`);

const plugin = (g: string, a: string, config: string, extensions = ''): string =>
  `  <build><plugins><plugin><groupId>${g}</groupId><artifactId>${a}</artifactId>${extensions}<configuration>${config}</configuration></plugin></plugins></build>`;

describe('publishing route (Maven)', () => {
  it('portal-plugin for central-publishing-maven-plugin, with its server id (default central)', () => {
    const route = detectRoute(buildFacts({ files: { 'pom.xml': project(plugin('org.sonatype.central', 'central-publishing-maven-plugin', '', '<extensions>true</extensions>')) } }));
    expect(route.kind).toBe('portal-plugin');
    expect(route.portalServers?.map((s) => s.id)).toEqual(['central']);
    expect(route.evidence[0]).toMatchObject({ file: 'pom.xml' });
  });

  it('the Central Portal plugin counts where <plugins> uses it, with the server id its pluginManagement entry sets; managed alone it is not used', () => {
    const managed = `<pluginManagement><plugins><plugin><groupId>org.sonatype.central</groupId><artifactId>central-publishing-maven-plugin</artifactId><extensions>true</extensions><configuration><publishingServerId>portal</publishingServerId></configuration></plugin></plugins></pluginManagement>`;
    const onlyManaged = detectRoute(buildFacts({ files: { 'pom.xml': project(`${stagingDistribution}\n  <build>${managed}</build>`) } }));
    expect(onlyManaged.kind).toBe('staging-api');
    const used = `  <build>${managed}</build>\n  <profiles><profile><id>release</id><build><plugins><plugin><groupId>org.sonatype.central</groupId><artifactId>central-publishing-maven-plugin</artifactId></plugin></plugins></build></profile></profiles>`;
    const route = detectRoute(buildFacts({ files: { 'pom.xml': project(used) } }));
    expect(route.kind).toBe('portal-plugin');
    expect(route.portalServers?.map((x) => x.id)).toEqual(['portal']);
  });

  it('legacy-ossrh for a nexus-staging <nexusUrl> on a retired host, even beside a staging API distribution', () => {
    const facts = buildFacts({ files: { 'pom.xml': project(`${stagingDistribution}\n${plugin('org.sonatype.plugins', 'nexus-staging-maven-plugin', '<nexusUrl>https://s01.oss.sonatype.org/</nexusUrl>')}`) } });
    const route = detectRoute(facts);
    expect(route.kind).toBe('legacy-ossrh');
    expect(route.evidence[0]!.why).toContain('<nexusUrl>');
  });

  const nexus = (config: string, extra = '<extensions>true</extensions>'): string => plugin('org.sonatype.plugins', 'nexus-staging-maven-plugin', config, extra);
  const stagingHost = '<nexusUrl>https://ossrh-staging-api.central.sonatype.com/</nexusUrl><serverId>central</serverId>';

  it('nexus-staging for nexus-staging-maven-plugin with extensions on the staging API host, its settings in the evidence', () => {
    const legacyDm = '  <distributionManagement><repository><id>ossrh</id><url>https://oss.sonatype.org/service/local/staging/deploy/maven2/</url></repository></distributionManagement>';
    const route = detectRoute(buildFacts({ files: { 'pom.xml': project(`${legacyDm}\n${nexus(`${stagingHost}<autoReleaseAfterClose>true</autoReleaseAfterClose>`)}`) } }));
    // The release repository is not what the plugin deploys to: it does not decide the route.
    expect(route.kind).toBe('nexus-staging');
    expect(route.evidence).toHaveLength(1);
    expect(route.evidence[0]!.why).toContain('autoReleaseAfterClose true, stagingProgressTimeoutMinutes 5 (default)');
    expect(route.nexusClients).toEqual([expect.objectContaining({ tool: 'nexus-staging-maven-plugin', serverId: 'central', autoReleaseAfterClose: 'true', nexusUrl: 'https://ossrh-staging-api.central.sonatype.com/' })]);
  });

  it('nexus-staging when an execution binds the deploy goal; a plugin that does not deploy leaves the route to distributionManagement', () => {
    const bound = `  <build><plugins><plugin><groupId>org.sonatype.plugins</groupId><artifactId>nexus-staging-maven-plugin</artifactId><executions><execution><id>d</id><phase>deploy</phase><goals><goal>deploy</goal></goals></execution></executions><configuration>${stagingHost}</configuration></plugin></plugins></build>`;
    expect(detectRoute(buildFacts({ files: { 'pom.xml': project(bound) } })).kind).toBe('nexus-staging');
    const closeOnly = bound.replace('<goal>deploy</goal>', '<goal>rc-list</goal>');
    expect(detectRoute(buildFacts({ files: { 'pom.xml': project(`${stagingDistribution}\n${closeOnly}`) } })).kind).toBe('staging-api');
    expect(detectRoute(buildFacts({ files: { 'pom.xml': project(`${stagingDistribution}\n${nexus(stagingHost, '')}`) } })).kind).toBe('staging-api');
  });

  it("nexus-staging for JReleaser's nexus2 deployer in the Maven plugin's configuration; a retired url is legacy-ossrh", () => {
    const jr = (url: string): string => plugin('org.jreleaser', 'jreleaser-maven-plugin', `<jreleaser><deploy><maven><nexus2><central><active>ALWAYS</active><url>${url}</url></central></nexus2></maven></deploy></jreleaser>`);
    const route = detectRoute(buildFacts({ files: { 'pom.xml': project(jr('https://ossrh-staging-api.central.sonatype.com/service/local')) } }));
    expect(route.kind).toBe('nexus-staging');
    expect(route.nexusClients?.[0]).toMatchObject({ tool: 'jreleaser-nexus2', nexusUrl: 'https://ossrh-staging-api.central.sonatype.com/service/local' });
    expect(detectRoute(buildFacts({ files: { 'pom.xml': project(jr('https://s01.oss.sonatype.org/service/local')) } })).kind).toBe('legacy-ossrh');
  });

  it('staging-api for the deploy URL; other for a foundation repository; unknown for nothing', () => {
    expect(detectRoute(buildFacts({ files: { 'pom.xml': project(stagingDistribution) } })).kind).toBe('staging-api');
    const apache = '  <distributionManagement><repository><id>apache.releases.https</id><url>https://repository.apache.org/service/local/staging/deploy/maven2</url></repository></distributionManagement>';
    expect(detectRoute(buildFacts({ files: { 'pom.xml': project(apache) } })).kind).toBe('other');
    const typo = '  <distributionManagement><repository><id>central</id><url>https://nexus.example.com/deploy/</url></repository></distributionManagement>';
    expect(detectRoute(buildFacts({ files: { 'pom.xml': project(typo) } })).kind).toBe('unknown');
  });
});

function gradleFacts(version: string | undefined, publishing: GradlePublishingFacts): ProjectFacts {
  const gradle: GradleFacts = {
    rootProjectName: 'lib',
    projects: [
      {
        path: ':',
        dir: '.',
        dirExists: true,
        buildFile: 'build.gradle',
        plugins: [{ id: 'com.vanniktech.maven.publish', file: 'build.gradle', line: 3, scope: 'self', ...(version === undefined ? {} : { version }) }],
        repositories: [],
        hasWebapp: false,
      },
    ],
    user: { file: '/h/.gradle/gradle.properties', display: '~/.gradle/gradle.properties', state: 'ok', keys: [], tokenFromEnv: false },
    stagingApiUrl: 'https://ossrh-staging-api.central.sonatype.com',
    publishing,
  };
  return { root: '/p', buildTool: 'gradle', gatherFindings: [], gradle };
}

describe('publishing route (vanniktech, by the plugin changelog)', () => {
  const call = { centralHost: { host: '', file: 'build.gradle', line: 7 } };
  it.each([
    ['0.25.3', call, 'legacy-ossrh'],
    ['0.32.0', call, 'legacy-ossrh'],
    ['0.33.0', call, 'portal-plugin'],
    ['0.34.0', {}, 'portal-plugin'],
    [undefined, call, 'portal-plugin'],
    ['0.28.0', { centralHost: { host: 'CENTRAL_PORTAL', file: 'build.gradle', line: 7 } }, 'portal-plugin'],
    ['0.30.0', { sonatypeHost: { value: 'CENTRAL_PORTAL', file: 'gradle.properties', line: 2 } }, 'portal-plugin'],
    ['0.33.0', { sonatypeHost: { value: 'S01', file: 'gradle.properties', line: 2 } }, 'legacy-ossrh'],
    ['0.33.0', { mavenCentralPublishing: { file: 'gradle.properties', line: 3 } }, 'portal-plugin'],
    // Only 0.33.0 reads mavenCentralPublishing; without a host or a call 0.21+ adds no Central target.
    ['0.32.0', { mavenCentralPublishing: { file: 'gradle.properties', line: 3 } }, 'unknown'],
    ['0.30.0', {}, 'unknown'],
    ['0.25.3', { sonatypeHost: { value: '', file: 'gradle.properties', line: 2 } }, 'unknown'],
    ['0.18.0', {}, 'legacy-ossrh'],
  ] as const)('version %s with %j: %s', (version, publishing, kind) => {
    const route = detectRoute(gradleFacts(version, publishing as GradlePublishingFacts));
    expect(route.kind).toBe(kind);
    if (kind === 'legacy-ossrh') expect(route.legacyPluginHosts).toHaveLength(1);
  });
});

describe('publishing route (Gradle Nexus 2 staging clients)', () => {
  const withJReleaser = (url: string | undefined): ProjectFacts => {
    const facts = gradleFacts('0.34.0', {});
    facts.gradle!.projects[0]!.plugins = [{ id: 'org.jreleaser', file: 'build.gradle', line: 3, scope: 'self' }];
    facts.jreleaserNexus2File = { file: 'jreleaser.yml', line: 4, ...(url === undefined ? {} : { url }) };
    return facts;
  };

  it("nexus-staging for JReleaser's nexus2 deployer in jreleaser.yml aimed at the staging API; legacy-ossrh at a retired host", () => {
    const route = detectRoute(withJReleaser('https://ossrh-staging-api.central.sonatype.com/service/local'));
    expect(route).toMatchObject({ kind: 'nexus-staging', evidence: [{ file: 'jreleaser.yml', line: 4 }], nexusClients: [{ tool: 'jreleaser-nexus2' }] });
    expect(detectRoute(withJReleaser('https://s01.oss.sonatype.org/service/local')).kind).toBe('legacy-ossrh');
  });

  it('nexus-staging for gradle-nexus nexusPublishing aimed at the staging API; a plain maven-publish repository there stays staging-api', () => {
    const facts = gradleFacts('0.34.0', {});
    facts.gradle!.projects[0]!.plugins = [];
    const repo = { url: 'https://ossrh-staging-api.central.sonatype.com/service/local/', kind: 'release' as const, file: 'build.gradle', line: 9 };
    facts.gradle!.projects[0]!.repositories = [{ ...repo, nexus: true }];
    expect(detectRoute(facts)).toMatchObject({ kind: 'nexus-staging', nexusClients: [{ tool: 'gradle-nexus' }] });
    facts.gradle!.projects[0]!.repositories = [{ ...repo, url: `${repo.url}staging/deploy/maven2/` }];
    expect(detectRoute(facts).kind).toBe('staging-api');
  });
});
