/**
 * Preflight on Gradle builds written in the Groovy DSL, shaped like real projects (uPortal and its
 * portlets, uPortal-start, Apereo CAS, caffeine, the gradle-mvn-push script and its many copies,
 * company Nexus setups): script plugins, ext and ternary URLs, functions returning the URL, URLs in
 * GStrings and properties, war plugins from intermediate projects, versions in `subprojects {}` or
 * `version.txt`. For each: the route, the exact codes an expert expects, the false alarms that must
 * not appear, and the pull-request recipe.
 */
import { afterAll, describe, it } from 'vitest';
import { expectJudgement, expectPullRequestPasses, realWorldWorkspace, type RealWorldCase } from '../helpers/real-world.js';

const signingVariables = {
  ORG_GRADLE_PROJECT_sonatypeUsername: 'u',
  ORG_GRADLE_PROJECT_sonatypePassword: 'p',
  ORG_GRADLE_PROJECT_signingKey: 'armored',
  ORG_GRADLE_PROJECT_signingKeyId: '0ABCDEF1',
};

const cases: RealWorldCase[] = [
  // uPortal 5: `ext { x = hasProperty('ossrhUrl') ? getProperty('ossrhUrl') : "<oss>" }`, uploadArchives/mavenDeployer.
  { name: 'gradle-uportal-ext-ternary', route: 'legacy-ossrh', codes: ['legacy-staging-host'], absent: ['packaging-mismatch', 'distribution-url', 'not-snapshot'], healthy: false },
  // NotificationPortlet: the retired host written inline in subprojects {}, war applied by the webapp itself.
  { name: 'gradle-portlet-uploadarchives', route: 'legacy-ossrh', codes: ['legacy-staging-host'], absent: ['packaging-mismatch', 'distribution-url'], healthy: false },
  // CAS-style: ext { deployUser = System.getProperty(...) } in the root, read by an applied script: the user's
  // gradle.properties needs systemProp.<x> (the home has the other names only).
  { name: 'gradle-cas-system-property', route: 'staging-api', codes: ['gradle-properties-missing'], absent: ['legacy-staging-host', 'distribution-url'], healthy: true },
  // uPortal-start: overlays/build.gradle applies the war overlay plugin to its children; nothing is published.
  { name: 'gradle-overlays-waroverlay', route: 'unknown', codes: [], absent: ['packaging-mismatch', 'not-snapshot'], healthy: true },
  // gradle-mvn-push: `def getReleaseRepositoryUrl() { return hasProperty('X') ? X : "<oss>" }`, X set in gradle.properties.
  { name: 'gradle-mvn-push-script', route: 'staging-api', codes: ['snapshots-need-enabling'], absent: ['legacy-staging-host', 'distribution-url'], healthy: true },
  { name: 'gradle-mvn-push-default', route: 'legacy-ossrh', codes: ['legacy-staging-host'], absent: ['distribution-url'], healthy: false },
  // caffeine: apply from: "${rootDir}/gradle/publish.gradle" per module, version in subprojects {}.
  { name: 'gradle-publish-script-signing', route: 'nexus-staging', codes: ['snapshots-need-enabling'], absent: ['not-snapshot', 'distribution-url'], healthy: true },
  {
    name: 'gradle-publish-script-signing, the in-memory keys read through def variables, all set',
    fixture: 'gradle-publish-script-signing',
    home: 'empty',
    env: { ...signingVariables, ORG_GRADLE_PROJECT_signingPassword: 's' },
    route: 'nexus-staging',
    codes: ['snapshots-need-enabling'],
    absent: ['gradle-properties-missing'],
    healthy: true,
  },
  {
    name: 'gradle-publish-script-signing, the in-memory key password missing',
    fixture: 'gradle-publish-script-signing',
    home: 'empty',
    env: signingVariables,
    route: 'nexus-staging',
    codes: ['gradle-properties-missing', 'snapshots-need-enabling'],
    absent: ['signing-keyring-missing'],
    healthy: true,
  },
  // A company Nexus chosen by `version.endsWith('SNAPSHOT') ? snapshotsRepoUrl : releasesRepoUrl`.
  // The build reads nexusUser/nexusPass (or NEXUS_USER/NEXUS_PASS) for its own Nexus, and the full HOME has neither.
  { name: 'gradle-company-nexus-ternary', route: 'other', codes: ['gradle-properties-missing'], absent: ['distribution-url', 'missing-pom-metadata'], healthy: true },
  // nexusUrl.set(uri(...)) on s01, version = file('version.txt').text.trim(): its tag v0.7.0 exists.
  { name: 'gradle-nexus-s01-version-file', tags: ['v0.7.0'], route: 'legacy-ossrh', codes: ['legacy-staging-host', 'orphan-tag'], absent: ['distribution-url', 'not-snapshot'], healthy: false },
  // Apereo CAS: url "${sonatypeRepositoryUrl}" from gradle.properties inside afterEvaluate/if; war through an applied script.
  { name: 'gradle-cas-gstring-property', route: 'legacy-ossrh', codes: ['legacy-staging-host'], absent: ['packaging-mismatch', 'not-snapshot', 'distribution-url'], healthy: false },
  // io.codearte.nexus-staging: the upload moved to the staging service, closeAndRelease left on the plugin's default host.
  { name: 'gradle-nexus-staging-half-migrated', route: 'legacy-ossrh', codes: ['legacy-staging-host'], absent: ['distribution-url'], healthy: false },
  { name: 'gradle-nexus-staging-server-url', route: 'nexus-staging', codes: [], absent: ['legacy-staging-host', 'distribution-url'], healthy: true },
  // Hibernate ORM 4.x: modules' scripts named after them (settings loop), the publishing script applied by
  // each module, version = rootProject.hibernateTargetVersion from ext {} ('.Final-SNAPSHOT'); tag 4.3.12.Final exists.
  { name: 'gradle-named-build-files', tags: ['4.3.12.Final'], route: 'legacy-ossrh', codes: ['legacy-staging-host', 'orphan-tag'], absent: ['not-snapshot', 'distribution-url'], healthy: false },
  // Repository URLs set once with ext {} in the root, read by the publishing script every module applies.
  { name: 'gradle-root-ext-publish-script', route: 'staging-api', codes: [], absent: ['packaging-mismatch', 'distribution-url'], healthy: true },
  // 2020-era pair: de.marcphilipp.nexus-publish 0.3 (nexusPublishing { serverUrl }) and io.codearte.nexus-staging, on s01.
  { name: 'gradle-marcphilipp-nexus-staging', route: 'legacy-ossrh', codes: ['legacy-staging-host'], absent: ['distribution-url', 'not-snapshot'], healthy: false },
  // A company's own S3 bucket as the Maven repository.
  { name: 'gradle-s3-repository', route: 'other', codes: [], absent: ['distribution-url'], healthy: true },
  // javers: project.version = scmVersion.version (axion-release, from git tags) in subprojects {}: not judged.
  { name: 'gradle-axion-scm-version', route: 'legacy-ossrh', codes: ['legacy-staging-host'], absent: ['not-snapshot', 'distribution-url'], healthy: false },
  // version = "${projectVersion}" from gradle.properties (the release plugin's versionProperties); tag v2.1.0 exists.
  { name: 'gradle-version-property-name', tags: ['v2.1.0'], route: 'nexus-staging', codes: ['orphan-tag'], absent: ['not-snapshot', 'distribution-url'], healthy: true },
];

const work = await realWorldWorkspace();
afterAll(() => work.dispose());

describe('relctl preflight on Groovy-DSL Gradle builds shaped like real projects', () => {
  it.each(cases.map((c) => [c.name, c] as const))('%s: route, expected codes, no false alarms', (_name, c) => expectJudgement(work.dir, c));

  it.each(cases.filter((c) => c.healthy).map((c) => [c.name, c] as const))('%s: the pull-request recipe exits 0 without any secrets', (_name, c) =>
    expectPullRequestPasses(work.dir, c),
  );
});
