/**
 * The release-job recipe (`relctl preflight --offline --json`, nothing skipped) on the ways
 * maintainers really hand credentials and signing keys to Maven and Gradle: settings kept in the
 * repository and named by `-s`, `${env.X}` servers, encrypted passwords, nexus-staging's own
 * serverId, Gradle builds that read their token and keys under names of their own (environment
 * variables, bare Groovy properties, local variables), vanniktech's and JReleaser's names, keys
 * in the project's gradle.properties. For each setup: the credentials and signing codes an expert
 * expects, and that no secret value of the setup reaches the output.
 */
import { cp, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { codesOf } from '../../src/core/finding-groups.js';
import { runCli } from '../helpers/cli.js';
import { git, gitEnv } from '../helpers/temp.js';

const corpus = path.resolve(import.meta.dirname, '../fixtures/real-world');
const homes = path.join(corpus, 'creds-homes');
const emptyHome = path.join(corpus, 'empty-home');
const watched = new Set([...codesOf('credentials'), ...codesOf('signing')]);

interface Setup {
  name: string;
  fixture: string;
  /** A folder under creds-homes/, else the empty home. */
  home?: string;
  env?: Record<string, string>;
  /** Files removed from the clone (a keyring the release job would decrypt, for example). */
  remove?: string[];
  /** Exactly these credentials/signing codes. */
  codes: string[];
  /** Words the findings' messages must contain (the names to set, the file to fix). */
  says?: string[];
}

const setups: Setup[] = [
  // Maven
  {
    name: 'settings committed in .mvn and named by -s in .mvn/maven.config, token in the job environment',
    fixture: 'maven-settings-in-repo',
    env: { CENTRAL_TOKEN_USERNAME: 'cfg-canary-user', CENTRAL_TOKEN_PASSWORD: 'cfg-canary-secret' },
    codes: [],
  },
  {
    name: 'settings named by -s in .mvn/maven.config, the job forgot the token variables',
    fixture: 'maven-settings-in-repo',
    codes: ['server-id-mismatch'],
    says: ['ci-settings.xml', 'CENTRAL_TOKEN_USERNAME', 'CENTRAL_TOKEN_PASSWORD'],
  },
  {
    name: 'settings named by --settings= in MAVEN_ARGS',
    fixture: 'portal-plugin-lib',
    env: { MAVEN_ARGS: `-B --settings=${path.join(homes, 'encrypted', '.m2', 'settings.xml')}`, MAVEN_OPTS: `-Dsettings.security=${path.join(homes, 'encrypted', '.m2', 'settings-security.xml')}` },
    codes: [],
  },
  {
    name: 'the release workflow runs mvn --settings with a settings file of the project, token in the job environment',
    fixture: 'maven-ci-settings-file',
    env: { MAVEN_CENTRAL_USER: 'wf-canary-user', MAVEN_CENTRAL_TOKEN: 'wf-canary-secret' },
    codes: [],
  },
  {
    name: "the release workflow's settings file takes the token from variables that are not set",
    fixture: 'maven-ci-settings-file',
    codes: ['server-id-mismatch'],
    says: ['maven-settings.xml', '.github/workflows/release.yml', 'MAVEN_CENTRAL_USER'],
  },
  { name: 'setup-java settings with ${env.X} values, variables set', fixture: 'portal-plugin-lib', home: 'setup-java', env: { MAVEN_USERNAME: 'sj-canary-user', MAVEN_CENTRAL_TOKEN: 'sj-canary-secret' }, codes: [] },
  {
    name: 'setup-java settings whose variables are set but empty (a secret not defined for the job)',
    fixture: 'portal-plugin-lib',
    home: 'setup-java',
    env: { MAVEN_USERNAME: 'sj-canary-user', MAVEN_CENTRAL_TOKEN: '' },
    codes: ['server-id-mismatch'],
    says: ['MAVEN_CENTRAL_TOKEN'],
  },
  { name: 'setup-java settings with ${env.X} values, variables not set', fixture: 'portal-plugin-lib', home: 'setup-java', codes: ['server-id-mismatch'], says: ['MAVEN_USERNAME', 'MAVEN_CENTRAL_TOKEN'] },
  { name: 'nexus-staging-maven-plugin authenticates with its own serverId', fixture: 'maven-nexus-serverid', home: 'nexus-token', codes: [] },
  {
    name: 'nexus-staging-maven-plugin serverId has no <server>, only the distribution id has one',
    fixture: 'maven-nexus-serverid',
    home: 'distribution-id-only',
    codes: ['server-id-mismatch'],
    says: ['sonatype-central-token', 'serverId'],
  },
  { name: 'encrypted password with the master password in settings-security.xml', fixture: 'portal-plugin-lib', home: 'encrypted', codes: [] },
  { name: 'encrypted password without settings-security.xml', fixture: 'portal-plugin-lib', home: 'encrypted-no-master', codes: ['server-id-mismatch'], says: ['encrypted', 'settings-security.xml'] },
  // Gradle
  {
    name: 'gradle-nexus token and in-memory key from environment variables of its own names',
    fixture: 'gradle-nexus-env-token',
    env: { CENTRAL_TOKEN_USER: 'gn-canary-user', CENTRAL_TOKEN_SECRET: 'gn-canary-secret', ORG_GRADLE_PROJECT_signingKey: 'gn-canary-key', GPG_PASSPHRASE: 'gn-canary-pass', GITHUB_TOKEN: '' },
    codes: [],
  },
  {
    name: 'gradle-nexus token variable missing (the GitHub Packages credentials are not the release upload)',
    fixture: 'gradle-nexus-env-token',
    env: { CENTRAL_TOKEN_USER: 'gn-canary-user', ORG_GRADLE_PROJECT_signingKey: 'gn-canary-key', ORG_GRADLE_PROJECT_signingPassword: 'gn-canary-pass' },
    codes: ['gradle-properties-missing'],
    says: ['CENTRAL_TOKEN_SECRET', 'environment'],
  },
  {
    name: 'Groovy build reading bare project properties and a local variable',
    fixture: 'gradle-groovy-bare-props',
    env: { CENTRAL_USER: 'gb-canary-user', ORG_GRADLE_PROJECT_centralPassword: 'gb-canary-secret', ORG_GRADLE_PROJECT_signingKey: 'gb-canary-key', ORG_GRADLE_PROJECT_signingPassword: 'gb-canary-pass' },
    codes: [],
  },
  {
    name: 'Groovy build without the signing password it passes to useInMemoryPgpKeys',
    fixture: 'gradle-groovy-bare-props',
    env: { CENTRAL_USER: 'gb-canary-user', ORG_GRADLE_PROJECT_centralPassword: 'gb-canary-secret', ORG_GRADLE_PROJECT_signingKey: 'gb-canary-key' },
    codes: ['gradle-properties-missing'],
    says: ['signingPassword'],
  },
  {
    name: 'JReleaser deploys and signs with its own variables',
    fixture: 'gradle-jreleaser-signs',
    env: {
      JRELEASER_MAVENCENTRAL_USERNAME: 'jr-canary-user',
      JRELEASER_MAVENCENTRAL_PASSWORD: 'jr-canary-secret',
      JRELEASER_GPG_PUBLIC_KEY: 'jr-canary-public',
      JRELEASER_GPG_SECRET_KEY: 'jr-canary-key',
      JRELEASER_GPG_PASSPHRASE: 'jr-canary-pass',
    },
    codes: [],
  },
  {
    name: 'JReleaser per-deployer token, signing passphrase missing',
    fixture: 'gradle-jreleaser-signs',
    env: { JRELEASER_MAVENCENTRAL_SONATYPE_USERNAME: 'jr-canary-user', JRELEASER_MAVENCENTRAL_SONATYPE_PASSWORD: 'jr-canary-secret', JRELEASER_GPG_PUBLIC_KEY: 'jr-canary-public', JRELEASER_GPG_SECRET_KEY: 'jr-canary-key' },
    codes: ['gradle-properties-missing'],
    says: ['JRELEASER_GPG_PASSPHRASE'],
  },
  {
    name: "key id and keyring path in the project's gradle.properties, secrets from CI (empty placeholders ignored)",
    fixture: 'gradle-project-keyring',
    env: { ORG_GRADLE_PROJECT_ossrhUsername: 'pk-canary-user', ORG_GRADLE_PROJECT_ossrhPassword: 'pk-canary-secret', 'ORG_GRADLE_PROJECT_signing.password': 'pk-canary-pass' },
    codes: [],
  },
  {
    name: "the project's gradle.properties only has empty token placeholders",
    fixture: 'gradle-project-keyring',
    env: { 'ORG_GRADLE_PROJECT_signing.password': 'pk-canary-pass' },
    codes: ['gradle-properties-missing'],
    says: ['ossrhUsername', 'ossrhPassword'],
  },
  {
    name: "the keyring named in the project's gradle.properties is not there",
    fixture: 'gradle-project-keyring',
    env: { ORG_GRADLE_PROJECT_ossrhUsername: 'pk-canary-user', ORG_GRADLE_PROJECT_ossrhPassword: 'pk-canary-secret', 'ORG_GRADLE_PROJECT_signing.password': 'pk-canary-pass' },
    remove: ['ci/release-keyring.gpg'],
    codes: ['signing-keyring-missing'],
    says: ['ci/release-keyring.gpg', 'gradle.properties'],
  },
  {
    name: 'vanniktech with an in-memory key that has no password',
    fixture: 'gradle-vanniktech-portal',
    env: { ORG_GRADLE_PROJECT_mavenCentralUsername: 'vn-canary-user', ORG_GRADLE_PROJECT_mavenCentralPassword: 'vn-canary-secret', ORG_GRADLE_PROJECT_signingInMemoryKey: 'vn-canary-key' },
    codes: [],
  },
  {
    name: 'vanniktech with the token under ossrh names it does not read',
    fixture: 'gradle-vanniktech-portal',
    home: 'gradle-ossrh',
    env: { ORG_GRADLE_PROJECT_signingInMemoryKey: 'vn-canary-key', ORG_GRADLE_PROJECT_signingInMemoryKeyPassword: 'vn-canary-pass' },
    codes: ['gradle-properties-missing'],
    says: ['mavenCentralUsername', 'mavenCentralPassword'],
  },
  {
    name: 'gradle-nexus sonatype {} without credentials reads sonatypeUsername/Password, the user has only ossrh names',
    fixture: 'gradle-subprojects-war',
    home: 'gradle-ossrh',
    codes: ['gradle-properties-missing'],
    says: ['sonatypeUsername', 'sonatypePassword'],
  },
  {
    name: 'nmcp reads mavenCentralUsername/Password, the user has only ossrh names',
    fixture: 'gradle-nmcp',
    home: 'gradle-ossrh',
    env: { ORG_GRADLE_PROJECT_signingInMemoryKey: 'nm-canary-key' },
    codes: ['gradle-properties-missing'],
    says: ['mavenCentralUsername'],
  },
];

const work = await mkdtemp(path.join(os.tmpdir(), 'relctl-real-creds-'));
afterAll(() => rm(work, { recursive: true, force: true }));

async function clone(s: Setup, index: number): Promise<string> {
  const dir = path.join(work, `${index}-${s.fixture}`);
  await cp(path.join(corpus, s.fixture), dir, { recursive: true });
  await git(dir, work, 'init', '-q', '-b', 'main');
  await git(dir, work, 'add', '-A');
  await git(dir, work, 'commit', '-q', '-m', 'initial');
  // Removed after the commit (a file the release job would create itself).
  for (const f of s.remove ?? []) await rm(path.join(dir, f));
  return dir;
}

/** The secret values written in each home's settings.xml / gradle.properties. */
const homeSecrets: Record<string, string[]> = {
  'nexus-token': ['nexus-canary-user', 'nexus-canary-secret'],
  'distribution-id-only': ['dist-canary-user', 'dist-canary-secret'],
  encrypted: ['enc-canary-user', 'jSMOWnoPFgsHVpMvz5VrIt5kRbzGpI8u'],
  'encrypted-no-master': ['enc-canary-user', 'jSMOWnoPFgsHVpMvz5VrIt5kRbzGpI8u'],
  'gradle-ossrh': ['gr-canary-user', 'gr-canary-secret'],
};

/** Values of the setup that are secrets: every variable's value (not the Maven options) and the home's. */
function canaries(s: Setup): string[] {
  const fromEnv = Object.entries(s.env ?? {}).filter(([k, v]) => v !== '' && !/^MAVEN_(ARGS|OPTS)$/.test(k)).map(([, v]) => v);
  const viaArgs = s.env?.MAVEN_ARGS === undefined ? [] : homeSecrets.encrypted!;
  return [...fromEnv, ...viaArgs, ...(s.home === undefined ? [] : (homeSecrets[s.home] ?? []))];
}

describe('relctl preflight (release-job recipe) on real credential and signing setups', () => {
  it.each(setups.map((s, i) => [s.name, s, i] as const))('%s', async (_name, s, index) => {
    const dir = await clone(s, index);
    const { HOME: _home, ...gitIsolation } = gitEnv(work);
    const r = await runCli(['preflight', '--offline', '--json', '--cwd', dir], { home: s.home === undefined ? emptyHome : path.join(homes, s.home), env: { ...gitIsolation, ...s.env } });
    const doc = JSON.parse(r.stdout) as { findings: { code: string; message: string; fix?: string }[] };
    const ours = doc.findings.filter((f) => watched.has(f.code));
    expect([...new Set(ours.map((f) => f.code))].sort(), r.stdout).toEqual([...s.codes].sort());
    const text = ours.map((f) => f.message).join('\n');
    for (const word of s.says ?? []) expect(text).toContain(word);
    for (const secret of canaries(s)) {
      expect(r.stdout).not.toContain(secret);
      expect(r.stderr).not.toContain(secret);
    }
  });
});
