/**
 * Preflight on Gradle builds written in the Kotlin DSL, shaped like real projects (okhttp, moshi,
 * mockk, kotest, detekt, ktor, junit, cashapp libraries): conventions in buildSrc and included
 * builds, plugins by catalog alias or `apply false` in the root, versions in conventions and
 * properties, publishing hosts chosen by DSL, property or plugin default. For each: the route, the
 * exact codes an expert expects, the false alarms that must not appear, and the pull-request recipe.
 */
import { afterAll, describe, it } from 'vitest';
import { expectJudgement, expectPullRequestPasses, realWorldWorkspace, type RealWorldCase } from '../helpers/real-world.js';

// gradle-properties-missing where a build reads its own names (NEW_MAVEN_CENTRAL_USERNAME, OSS_USER,
// centralUser...): the full HOME holds only the usual ones, so the release-job recipe must say so.
const cases: RealWorldCase[] = [
  { name: 'kts-okhttp-build-logic', route: 'portal-plugin', codes: [], absent: ['not-snapshot', 'distribution-url', 'legacy-staging-host'], healthy: true },
  { name: 'kts-moshi-apply-false-s01', route: 'legacy-ossrh', codes: ['legacy-staging-host'], absent: ['distribution-url', 'not-snapshot'], healthy: false },
  { name: 'kts-moshi-default-host', route: 'legacy-ossrh', codes: ['legacy-staging-host'], absent: ['distribution-url', 'not-snapshot'], healthy: false },
  { name: 'kts-mockk-provider-url', route: 'legacy-ossrh', codes: ['legacy-staging-host'], absent: ['distribution-url', 'not-snapshot'], healthy: false },
  { name: 'kts-kotest-nmcp', route: 'portal-plugin', codes: ['gradle-properties-missing'], absent: ['not-snapshot', 'distribution-url'], healthy: true },
  { name: 'kts-detekt-nexus-create', route: 'legacy-ossrh', codes: ['legacy-staging-host'], absent: ['distribution-url', 'not-snapshot'], healthy: false },
  { name: 'kts-nexus-staging-api', route: 'nexus-staging', codes: ['snapshots-need-enabling'], absent: ['distribution-url', 'legacy-staging-host'], healthy: true },
  { name: 'kts-version-from-property', route: 'staging-api', codes: ['not-snapshot', 'snapshots-need-enabling'], absent: ['distribution-url'], healthy: false },
  { name: 'kts-ktor-env-repository', route: 'unknown', codes: [], absent: ['distribution-url', 'legacy-staging-host'], healthy: true },
  { name: 'kts-jreleaser-convention', route: 'portal-plugin', codes: [], absent: ['distribution-url', 'not-snapshot'], healthy: true },
  { name: 'kts-vanniktech-subprojects-host', route: 'portal-plugin', codes: [], absent: ['legacy-staging-host', 'not-snapshot'], healthy: true },
  { name: 'kts-vanniktech-github-packages', route: 'other', codes: ['gradle-properties-missing'], absent: ['legacy-staging-host', 'distribution-url'], healthy: true },
  { name: 'kts-arrow-external-conventions', route: 'unknown', codes: [], absent: ['not-snapshot', 'legacy-staging-host', 'distribution-url'], healthy: true },
  { name: 'kts-nexus-s01', route: 'legacy-ossrh', codes: ['legacy-staging-host'], absent: ['not-snapshot', 'distribution-url'], healthy: false },
  { name: 'kts-vanniktech-properties-catalog-version', route: 'portal-plugin', codes: [], absent: ['not-snapshot', 'legacy-staging-host'], healthy: true },
  { name: 'kts-wire-plugin-class', route: 'portal-plugin', codes: [], absent: ['distribution-url', 'not-snapshot'], healthy: true },
  { name: 'kts-s01-template-url', route: 'legacy-ossrh', codes: ['gradle-properties-missing', 'legacy-staging-host'], absent: ['distribution-url', 'not-snapshot'], healthy: false },
  { name: 'kts-delegated-version', route: 'staging-api', codes: ['gradle-properties-missing', 'not-snapshot'], absent: ['distribution-url'], healthy: false },
  { name: 'kts-exposed-allprojects', route: 'portal-plugin', codes: [], absent: ['legacy-staging-host', 'not-snapshot'], healthy: true },
  { name: 'kts-codearte-half-migrated', route: 'legacy-ossrh', codes: ['gradle-properties-missing', 'legacy-staging-host'], absent: ['distribution-url', 'not-snapshot'], healthy: false },
  { name: 'kts-vanniktech-coordinates-version', route: 'portal-plugin', codes: [], absent: ['not-snapshot', 'legacy-staging-host'], healthy: true },
  { name: 'kts-jreleaser-nexus2-s01', route: 'legacy-ossrh', codes: ['legacy-staging-host'], absent: ['distribution-url', 'not-snapshot'], healthy: false },
  { name: 'kts-nmcp-settings-plugin', route: 'portal-plugin', codes: [], absent: ['distribution-url', 'missing-distribution'], healthy: true },
  { name: 'kts-subprojects-apply-war', route: 'staging-api', codes: [], absent: ['packaging-mismatch', 'distribution-url'], healthy: true },
  { name: 'kts-release-plugin-tag', tags: ['config-loader-release-2.3.0', 'config-loader-release-2.4.0'], route: 'staging-api', codes: ['orphan-tag'], absent: ['not-snapshot'], healthy: true },
  { name: 'kts-webapp-sample-unpublished', route: 'staging-api', codes: ['gradle-properties-missing'], absent: ['packaging-mismatch', 'distribution-url'], healthy: true },
];

const work = await realWorldWorkspace();
afterAll(() => work.dispose());

describe('relctl preflight on Kotlin-DSL Gradle builds shaped like real projects', () => {
  it.each(cases.map((c) => [c.name, c] as const))('%s: route, expected codes, no false alarms', (_name, c) => expectJudgement(work.dir, c));

  it.each(cases.filter((c) => c.healthy).map((c) => [c.name, c] as const))('%s: the pull-request recipe exits 0 without any secrets', (_name, c) =>
    expectPullRequestPasses(work.dir, c),
  );
});
