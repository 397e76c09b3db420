/**
 * Preflight on Maven descriptors shaped like real open-source projects (read with the search
 * tool, rewritten in our own words under test/fixtures/real-world/mvn-*): for each, the route,
 * the exact finding codes an expert expects offline, the codes that must NOT appear (false
 * alarms), and whether the pull-request recipe (`--offline --skip credentials signing`, empty
 * HOME, no parent in any local repository) exits 0.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { cloneFixture, corpus, emptyHome, gitIsolation, preflightJson } from '../helpers/real-world.js';

const homes = { full: path.join(corpus, 'home'), maven: path.join(corpus, 'maven-home') };

interface Case {
  fixture: string;
  /** What the shape is modelled on. */
  like: string;
  home?: keyof typeof homes;
  tags?: string[];
  route: string;
  codes: string[];
  absent: string[];
  healthy: boolean;
}

// Past an unresolved parent the values it passes on are unknown: these must stay quiet.
const inherited = ['missing-developers', 'missing-distribution', 'missing-pom-metadata', 'unresolved-property'];

const cases: Case[] = [
  { fixture: 'mvn-jackson-bundle', like: 'jackson-databind (bundle, parent chain outside, a snapshot <repositories> entry on the retired host)', route: 'unknown', codes: ['legacy-staging-host', 'parent-unresolved'], absent: [...inherited, 'packaging-mismatch', 'not-snapshot', 'published-repositories'], healthy: true },
  { fixture: 'mvn-jsoup-legacy', like: 'jsoup (standalone, retired host, legacy ids)', route: 'legacy-ossrh', codes: ['developers-incomplete', 'legacy-staging-host', 'legacy-staging-id', 'plugin-version-missing', 'server-id-mismatch'], absent: ['distribution-url', 'missing-developers', 'not-snapshot'], healthy: false },
  { fixture: 'mvn-junit4-bundle', like: 'junit4 (bundle, X.Y-SNAPSHOT, r@{project.version} tags, own repository ids)', tags: ['r4.12', 'r4.13'], route: 'legacy-ossrh', codes: ['developers-incomplete', 'legacy-staging-host', 'orphan-tag', 'server-id-mismatch'], absent: ['not-snapshot', 'legacy-staging-id', 'distribution-url', 'packaging-mismatch', 'unresolved-property'], healthy: false },
  { fixture: 'mvn-zxing-profile-modules', like: 'zxing (aggregator, modules in profiles, tag format in pluginManagement)', route: 'legacy-ossrh', codes: ['developers-incomplete', 'legacy-staging-host', 'legacy-staging-id', 'plugin-version-missing', 'server-id-mismatch'], absent: ['module-missing', 'packaging-mismatch', 'missing-pom-metadata', 'missing-developers', 'unresolved-property', 'duplicate-declaration'], healthy: false },
  { fixture: 'mvn-property-distribution', like: 'hibernate-validator (distribution from properties, nested module paths, BOM, nexusUrl in pluginManagement)', route: 'legacy-ossrh', codes: ['developers-incomplete', 'legacy-staging-host', 'legacy-staging-id', 'plugin-version-missing', 'server-id-mismatch'], absent: ['unresolved-property', 'distribution-url', 'missing-pom-metadata', 'module-missing', 'packaging-mismatch'], healthy: false },
  { fixture: 'mvn-portlet-jasig-parent', like: 'uPortal NewsReaderPortlet (war, jasig-parent not on disk)', route: 'unknown', codes: ['developers-incomplete', 'parent-unresolved'], absent: [...inherited, 'packaging-mismatch', 'legacy-staging-host', 'published-repositories', 'metadata-from-foreign-parent'], healthy: true },
  { fixture: 'mvn-guava-bom', like: 'guava (aggregator with HEAD-jre-SNAPSHOT, a BOM on oss-parent with an empty relativePath)', route: 'legacy-ossrh', codes: ['legacy-staging-host', 'legacy-staging-id', 'parent-unresolved', 'server-id-mismatch'], absent: ['not-snapshot', 'missing-pom-metadata', 'missing-developers', 'packaging-mismatch'], healthy: false },
  { fixture: 'mvn-env-repository-url', like: 'an slf4j fork (release repository URL from ${env.MAVEN_REPO_URL}, X.Y.Z-N-SNAPSHOT)', route: 'unknown', codes: ['developers-incomplete', 'plugin-version-missing', 'server-id-mismatch'], absent: ['not-snapshot', 'distribution-url', 'unresolved-property', 'missing-distribution'], healthy: true },
  { fixture: 'mvn-commons-site-only', like: 'commons-lang3 (commons-parent not on disk, distributionManagement with only a <site>)', route: 'unknown', codes: ['developers-incomplete', 'parent-unresolved'], absent: [...inherited, 'legacy-staging-host'], healthy: true },
  { fixture: 'mvn-jboss-bundle', like: 'netty 3 (jboss-parent not on disk, bundle, .Final-SNAPSHOT)', route: 'unknown', codes: ['parent-unresolved'], absent: [...inherited, 'not-snapshot', 'packaging-mismatch'], healthy: true },
  { fixture: 'mvn-portal-managed-revision', like: 'central-publishing configured in pluginManagement, switched on bare in a release profile; ${revision}; an examples module with skipPublishing', home: 'maven', route: 'portal-plugin', codes: [], absent: ['server-id-mismatch', 'missing-distribution', 'missing-pom-metadata', 'not-snapshot'], healthy: true },
  { fixture: 'mvn-sibling-parent', like: 'an aggregator that is not deployed, the parent in a sibling folder (relativePath ../parent)', route: 'staging-api', codes: [], absent: ['missing-developers', 'missing-distribution', 'missing-pom-metadata', 'packaging-mismatch'], healthy: true },
  { fixture: 'mvn-jenkins-hpi', like: 'a Jenkins plugin (hpi with help pages in src/main/webapp, ${revision}${changelist}, plugin parent with an empty relativePath)', route: 'unknown', codes: ['developers-incomplete', 'parent-unresolved'], absent: [...inherited, 'packaging-mismatch', 'not-snapshot', 'published-repositories'], healthy: true },
  { fixture: 'mvn-nexus-staging-no-dm', like: 'dflib (nexus-staging-maven-plugin deploys with its own serverId; distributionManagement holds only snapshots; a benchmark module skipped with skipNexusStagingDeployMojo)', home: 'maven', route: 'nexus-staging', codes: ['snapshots-need-enabling'], absent: ['missing-distribution', 'distribution-url', 'server-id-mismatch', 'missing-pom-metadata'], healthy: true },
  { fixture: 'mvn-portlet-multimodule', like: 'uPortal NotificationPortlet (aggregator on jasig-parent 35, api jar and webapp war modules, tag format in pluginManagement)', route: 'unknown', codes: ['parent-unresolved'], absent: [...inherited, 'packaging-mismatch', 'developers-incomplete'], healthy: true },
  { fixture: 'mvn-default-profile', like: 'modules and a site property in a profile active by default (one module a web app packaged as jar)', route: 'staging-api', codes: ['packaging-mismatch'], absent: ['unresolved-property', 'module-missing'], healthy: false },
  { fixture: 'mvn-latin1-pom', like: 'an ISO-8859-1 POM (older projects: encoding declared, names in Latin-1)', route: 'staging-api', codes: ['developers-incomplete'], absent: ['xml-malformed'], healthy: true },
  { fixture: 'mvn-parent-not-deployed', like: 'a parent-and-aggregator that skips its own deploy (<inherited>false</inherited>): its modules are still checked', route: 'staging-api', codes: ['missing-pom-metadata', 'plugin-version-missing'], absent: ['missing-distribution', 'missing-developers'], healthy: false },
  { fixture: 'mvn-gson-internal-modules', like: 'gson (Central Portal plugin in pluginManagement, skipPublishing bound to a property chain internal modules switch on, applied in the release profile)', route: 'portal-plugin', codes: ['snapshots-need-enabling'], absent: ['missing-pom-metadata', 'missing-distribution', 'server-id-mismatch'], healthy: true },
  { fixture: 'mvn-portal-plugin-no-extensions', like: 'central-publishing-maven-plugin added without <extensions>true</extensions> (maven-deploy-plugin still deploys), s01 distributionManagement left in place', route: 'legacy-ossrh', codes: ['legacy-staging-host', 'legacy-staging-id', 'server-id-mismatch'], absent: ['missing-distribution'], healthy: false },
  { fixture: 'mvn-boot-war', like: 'a war on the Spring Boot parent (not in the clone) with no src/main/webapp, published with the Central Portal plugin', route: 'portal-plugin', codes: ['parent-unresolved'], absent: ['packaging-mismatch', 'missing-distribution'], healthy: true },
];

const work = await mkdtemp(path.join(os.tmpdir(), 'relctl-real-world-maven-'));
afterAll(() => rm(work, { recursive: true, force: true }));
const env = gitIsolation(work);

describe('relctl preflight on real Maven shapes', () => {
  it.each(cases.map((c) => [c.fixture, c] as const))('%s: route, expected codes, no false alarms', async (_name, c) => {
    const dir = await cloneFixture(work, c.fixture, `${c.fixture}-check`, c.tags);
    const { r, doc, codes } = await preflightJson(dir, homes[c.home ?? 'full'], env);
    expect(doc.route.kind, r.stdout).toBe(c.route);
    expect(codes, `${c.like}\n${r.stdout}`).toEqual([...c.codes].sort());
    for (const code of c.absent) expect(codes).not.toContain(code);
    expect(r.exitCode, r.stderr).toBe(doc.findings.some((f) => f.severity === 'error') ? 1 : 0);
  });

  it.each(cases.map((c) => [c.fixture, c] as const))('%s: the pull-request recipe exits 0 exactly when the project is healthy', async (_name, c) => {
    const dir = await cloneFixture(work, c.fixture, `${c.fixture}-pr`, c.tags);
    const r = await runCli(['preflight', '--offline', '--skip', 'credentials', 'signing', '--cwd', dir], { home: emptyHome, env });
    expect(r.exitCode, r.stdout + r.stderr).toBe(c.healthy ? 0 : 1);
    expect(r.stdout.split('\n')[0]).toMatch(new RegExp(`^route: ${c.route}`));
  });

  it('names the nexus-staging route with the plugin as evidence and what it is told (text and --json)', async () => {
    const dir = await cloneFixture(work, 'mvn-nexus-staging-no-dm', 'nexus-route');
    const { doc } = await preflightJson(dir, homes.full, env);
    expect(doc.route.evidence).toEqual([{ file: 'pom.xml', line: 47, why: expect.stringContaining('autoReleaseAfterClose false, stagingProgressTimeoutMinutes 5 (default)') }]);
    expect((doc.route as unknown as { nexusStaging: unknown[] }).nexusStaging).toEqual([
      { tool: 'nexus-staging-maven-plugin', file: 'pom.xml', line: 47, nexusUrl: 'https://ossrh-staging-api.central.sonatype.com/', serverId: 'frames-releases', autoReleaseAfterClose: 'false', stagingProgressTimeoutMinutes: '5' },
    ]);
    const text = await runCli(['preflight', '--offline', '--cwd', dir], { home: homes.full, env });
    expect(text.stdout.split('\n')[0]).toContain('route: nexus-staging, a Nexus 2 staging client');
    expect(text.stdout.split('\n')[0]).toContain('pom.xml:47: nexus-staging-maven-plugin stages and closes through <nexusUrl> https://ossrh-staging-api.central.sonatype.com/');
  });

  it("checks nexus-staging-maven-plugin's <serverId>, not the release repository id, when the plugin deploys", async () => {
    const dir = await cloneFixture(work, 'mvn-nexus-staging-no-dm', 'nexus-no-server');
    const { doc } = await preflightJson(dir, homes.full, env);
    // The snapshot repository (the portal's) is checked too: its <server> is missing from this home as well (issue 42 item 5).
    expect(doc.findings.map((f) => [f.code, f.file, f.line])).toEqual([['server-id-mismatch', 'pom.xml', 34], ['snapshots-need-enabling', 'pom.xml', 35], ['server-id-mismatch', 'pom.xml', 46]]);
    expect(doc.findings[0]!.message).toContain('snapshot repository id "frames-snapshots"');
    expect(doc.findings[2]!.message).toContain('"frames-releases"');
  });

  it('names the POM whose parent is missing by its interpolated version (${revision}${changelist})', async () => {
    const dir = await cloneFixture(work, 'mvn-jenkins-hpi', 'jenkins-message');
    const { doc } = await preflightJson(dir, homes.full, env);
    const f = doc.findings.find((x) => x.code === 'parent-unresolved');
    expect(f?.message).toContain('of io.jenkins.plugins:example-notifier:1.42-SNAPSHOT is neither');
  });

  it('reads an ISO-8859-1 POM in its declared encoding (names come out right)', async () => {
    const dir = await cloneFixture(work, 'mvn-latin1-pom', 'latin1-names');
    const { doc } = await preflightJson(dir, homes.full, env);
    expect(doc.findings.map((f) => f.message)).toEqual([expect.stringContaining('Mikael Ståldal')]);
  });

  it("names the portal plugin's server id from pluginManagement, where it is written, when settings lack it", async () => {
    const dir = await cloneFixture(work, 'mvn-portal-managed-revision', 'portal-managed-no-server');
    const { doc } = await preflightJson(dir, homes.full, env);
    const f = doc.findings.filter((x) => x.code === 'server-id-mismatch');
    expect(f).toHaveLength(1);
    expect(f[0]!.message).toContain('"central-portal"');
    expect([f[0]!.file, f[0]!.line]).toEqual(['pom.xml', 42]);
  });
  it('points a retired snapshot repository at the Central snapshots repository, not the release staging URL, and says to change the URL where it is written', async () => {
    const dir = await cloneFixture(work, 'mvn-jsoup-legacy', 'jsoup-snapshot-fix');
    const { doc } = await preflightJson(dir, homes.full, env);
    const fixes = doc.findings.filter((f) => f.code === 'legacy-staging-host').map((f) => [f.line, f.fix]);
    expect(fixes).toEqual([
      [45, 'Set the snapshot repository <url> in pom.xml to https://central.sonatype.com/repository/maven-snapshots/.'],
      [50, 'Set the release repository <url> in pom.xml to https://ossrh-staging-api.central.sonatype.com/service/local/staging/deploy/maven2/.'],
    ]);
  });
  it('a released two-number version (2.7) is told to move to the next snapshot or to 2.7-SNAPSHOT, not to an X.Y.Z template', async () => {
    const dir = await cloneFixture(work, 'mvn-two-part-release', 'two-part-release');
    const { doc } = await preflightJson(dir, homes.full, env);
    const f = doc.findings.find((x) => x.code === 'not-snapshot');
    expect(f?.fix).toContain('If 2.7 is already released, set the version to the next snapshot');
    expect(f?.fix).toContain('2.7-SNAPSHOT');
  });
  it('a released two-number version whose tag (r2.7, its tagNameFormat) exists is told its next snapshot, 2.8-SNAPSHOT', async () => {
    const dir = await cloneFixture(work, 'mvn-two-part-release', 'two-part-release-tagged', ['r2.7']);
    const { doc } = await preflightJson(dir, homes.full, env);
    const f = doc.findings.find((x) => x.code === 'not-snapshot');
    expect(f?.fix).toBe('2.7 is tagged r2.7, so it was released: set the version to 2.8-SNAPSHOT in the top-level pom.xml <version>.');
  });
  it("fills a distribution URL from a property of settings.xml's active profile (no unresolved-property, the route follows the URL)", async () => {
    const dir = await cloneFixture(work, 'mvn-settings-profile-url', 'settings-profile-url');
    const home = path.join(work, 'settings-profile-home');
    await mkdir(path.join(home, '.m2'), { recursive: true });
    await writeFile(path.join(home, '.m2', 'settings.xml'), `<settings>
  <servers><server><id>central</id><username>u</username><password>p</password></server></servers>
  <profiles><profile><id>release-target</id><properties>
    <release.deploy.url>https://ossrh-staging-api.central.sonatype.com/service/local/staging/deploy/maven2/</release.deploy.url>
  </properties></profile></profiles>
  <activeProfiles><activeProfile>release-target</activeProfile></activeProfiles>
</settings>`);
    const { doc } = await preflightJson(dir, home, env);
    expect(doc.route.kind).toBe('staging-api');
    expect(doc.findings.filter((f) => f.severity === 'error')).toEqual([]);
  });
});
