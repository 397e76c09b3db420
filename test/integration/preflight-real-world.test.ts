/**
 * Preflight on descriptors shaped like real projects (test/fixtures/real-world): for each, the
 * publishing route, the exact set of finding codes an expert expects, and codes that must NOT
 * appear (false alarms that made every real project exit 1). Healthy projects also pass the
 * pull-request recipe (`--offline --skip credentials signing`) with no secrets at all.
 */
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { cloneFixture, corpus, expectJudgement, expectPullRequestPasses, gitIsolation, realWorldWorkspace, type PreflightDoc, type RealWorldCase } from '../helpers/real-world.js';

const fullHome = path.join(corpus, 'home');
type Case = RealWorldCase;

const centralOnly = ['distribution-url', 'missing-distribution', 'missing-developers', 'missing-pom-metadata', 'packaging-mismatch'];

const cases: Case[] = [
  { name: 'aggregator-devserver', route: 'staging-api', codes: [], absent: ['packaging-mismatch', 'not-snapshot'], healthy: true },
  { name: 'announcements-portlet', route: 'unknown', codes: ['parent-unresolved'], absent: [...centralOnly, 'unresolved-property', 'server-id-mismatch'], healthy: true },
  { name: 'foundation-component', route: 'other', codes: ['server-id-mismatch'], absent: [...centralOnly, 'legacy-staging-id', 'developers-incomplete'], healthy: true },
  { name: 'portal-plugin-lib', route: 'portal-plugin', codes: [], absent: ['missing-distribution', 'distribution-url', 'server-id-mismatch'], healthy: true },
  { name: 'portal-plugin-noserver', route: 'portal-plugin', codes: ['server-id-mismatch'], absent: ['missing-distribution', 'distribution-url'], healthy: true },
  { name: 'maven-release-profile', route: 'staging-api', codes: [], absent: ['missing-distribution', 'server-id-mismatch'], healthy: true },
  { name: 'maven-jreleaser', route: 'portal-plugin', codes: [], absent: ['missing-distribution', 'server-id-mismatch'], healthy: true },
  { name: 'maven-ci-friendly', route: 'portal-plugin', codes: [], absent: ['not-snapshot', 'missing-distribution'], healthy: true },
  { name: 'nexus-staging-api', route: 'nexus-staging', codes: [], absent: ['distribution-url', 'legacy-staging-host', 'unresolved-property'], healthy: true },
  { name: 'nexus-staging-leftover', route: 'legacy-ossrh', codes: ['legacy-staging-host'], absent: ['distribution-url'], healthy: false },
  { name: 'unresolved-url', route: 'staging-api', codes: ['unresolved-property'], absent: ['missing-pom-metadata', 'distribution-url'], healthy: false },
  { name: 'v-tagged', tags: ['v2.9.0', 'v3.0.0'], route: 'staging-api', codes: ['orphan-tag'], absent: ['not-snapshot'], healthy: true },
  { name: 'release-tag-format', tags: ['release-2.0.0'], route: 'staging-api', codes: ['orphan-tag'], absent: [], healthy: true },
  { name: 'gradle-subprojects-war', route: 'nexus-staging', codes: ['snapshots-need-enabling'], absent: ['packaging-mismatch', 'distribution-url', 'legacy-staging-host'], healthy: true },
  {
    name: 'gradle-subprojects-war signing with gpg, the token from CI variables',
    fixture: 'gradle-subprojects-war',
    home: 'empty',
    env: { ORG_GRADLE_PROJECT_sonatypeUsername: 'u', ORG_GRADLE_PROJECT_sonatypePassword: 'p' },
    route: 'nexus-staging',
    codes: ['snapshots-need-enabling'],
    absent: ['gradle-properties-missing', 'signing-keyring-missing'],
    healthy: true,
  },
  { name: 'gradle-buildsrc-war', route: 'staging-api', codes: [], absent: ['packaging-mismatch', 'not-snapshot', 'distribution-url'], healthy: true },
  {
    name: 'gradle-build-logic',
    home: 'empty',
    env: {
      ORG_GRADLE_PROJECT_mavenCentralUsername: 'rw-user',
      ORG_GRADLE_PROJECT_mavenCentralPassword: 'rw-pass',
      ORG_GRADLE_PROJECT_signingInMemoryKey: 'armored-key',
      ORG_GRADLE_PROJECT_signingInMemoryKeyPassword: 'key-pass',
    },
    route: 'portal-plugin',
    codes: [],
    absent: ['gradle-properties-missing', 'not-snapshot', 'packaging-mismatch', 'distribution-url'],
    healthy: true,
  },
  { name: 'gradle-vanniktech-old', route: 'legacy-ossrh', codes: ['legacy-staging-host'], absent: ['distribution-url', 'not-snapshot'], healthy: false },
  { name: 'gradle-vanniktech-base-s01', route: 'legacy-ossrh', codes: ['legacy-staging-host'], absent: ['distribution-url', 'not-snapshot'], healthy: false },
  { name: 'gradle-nested-build-logic', route: 'staging-api', codes: [], absent: ['packaging-mismatch', 'distribution-url'], healthy: true },
  { name: 'gradle-vanniktech-portal', route: 'portal-plugin', codes: [], absent: ['packaging-mismatch', 'distribution-url', 'legacy-staging-host'], healthy: true },
  { name: 'gradle-nmcp', route: 'portal-plugin', codes: [], absent: ['distribution-url', 'not-snapshot'], healthy: true },
  {
    name: 'gradle-in-memory-signing',
    home: 'empty',
    env: { ORG_GRADLE_PROJECT_ossrhUsername: 'u', ORG_GRADLE_PROJECT_ossrhPassword: 'p', ORG_GRADLE_PROJECT_signingKey: 'k', SIGNING_PASSWORD: 's' },
    route: 'staging-api',
    codes: [],
    absent: ['gradle-properties-missing', 'signing-keyring-missing'],
    healthy: true,
  },
  {
    name: 'gradle-in-memory-signing without its password variable',
    fixture: 'gradle-in-memory-signing',
    home: 'empty',
    env: { ORG_GRADLE_PROJECT_ossrhUsername: 'u', ORG_GRADLE_PROJECT_ossrhPassword: 'p', ORG_GRADLE_PROJECT_signingKey: 'k' },
    route: 'staging-api',
    codes: ['gradle-properties-missing'],
    absent: ['signing-keyring-missing'],
    healthy: true,
  },
  // Its uploadArchives authenticates with repoUser/repoPassword, which the home does not set.
  { name: 'gradle-pom-metadata-urls', route: 'unknown', codes: ['gradle-properties-missing'], absent: ['distribution-url', 'legacy-staging-host'], healthy: true },
];

const workspace = await realWorldWorkspace();
const work = workspace.dir;
afterAll(() => workspace.dispose());

describe('relctl preflight on real-world shapes', () => {
  it.each(cases.map((c) => [c.name, c] as const))('%s: route, expected codes, no false alarms', async (_name, c) => {
    await expectJudgement(work, c);
  });

  // No settings, no Gradle properties, no keys: only the dependency cache CI restores (parents).
  it.each(cases.filter((c) => c.healthy).map((c) => [c.name, c] as const))('%s: the pull-request recipe exits 0 without any secrets', async (_name, c) => {
    await expectPullRequestPasses(work, c);
  });
});

describe('finding groups on the command line', () => {
  it('--only keeps just the named groups; an unknown group or both flags is a usage error (exit 2)', async () => {
    const c = cases.find((x) => x.name === 'foundation-component')!;
    const dir = await cloneFixture(work, c.fixture ?? c.name, `${c.name}-groups`, c.tags);
    const only = await runCli(['preflight', '--offline', '--json', '--only', 'descriptors', '--cwd', dir], { home: fullHome, env: gitIsolation(work) });
    expect((JSON.parse(only.stdout) as PreflightDoc).findings.map((f) => f.code)).toEqual([]);
    expect(only.exitCode).toBe(0);
    const bad = await runCli(['preflight', '--offline', '--skip', 'descriptors', 'secrets', '--cwd', dir], { home: fullHome, env: gitIsolation(work) });
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('"secrets"');
    const both = await runCli(['preflight', '--offline', '--skip', 'signing', '--only', 'descriptors', '--cwd', dir], { home: fullHome, env: gitIsolation(work) });
    expect(both.exitCode).toBe(2);
  });
});
