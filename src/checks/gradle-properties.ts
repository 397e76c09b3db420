import type { Finding, SkippedCheck } from '../core/findings.js';
import type { Check } from './types.js';
import type { GradleFacts } from '../build-tools/gradle/facts.js';
import type { ProjectFacts } from './facts.js';
import { gradle, isGradle, projectsWithoutBuildFile } from './gradle-support.js';
import { urlTarget } from './publishing-hosts.js';
import { routeKind } from './route.js';

/** Username/password property names the common Gradle publishing setups read. */
export const credentialPairs: readonly (readonly [string, string])[] = [
  ['ossrhUsername', 'ossrhPassword'],
  ['sonatypeUsername', 'sonatypePassword'],
  ['mavenCentralUsername', 'mavenCentralPassword'],
  // JReleaser reads its Maven Central deployer's token from these variables.
  ['JRELEASER_MAVENCENTRAL_USERNAME', 'JRELEASER_MAVENCENTRAL_PASSWORD'],
];

export const signingKeys = ['signing.keyId', 'signing.password', 'signing.secretKeyRingFile'] as const;

/** A property or variable the release build reads and nothing sets. */
export interface Needed {
  name: string;
  env: boolean;
  /** A signing key (not a credential). */
  signing?: boolean;
}

const vanniktechIds = new Set(['com.vanniktech.maven.publish', 'com.vanniktech.maven.publish.base']);
// JReleaser's own signing (MEMORY mode) reads these; its deployer token may also be per deployer.
const jreleaserGpg = ['JRELEASER_GPG_PUBLIC_KEY', 'JRELEASER_GPG_SECRET_KEY', 'JRELEASER_GPG_PASSPHRASE'] as const;

function applies(g: GradleFacts, test: (id: string) => boolean): boolean {
  return g.projects.some((p) => p.plugins.some((x) => test(x.id)));
}

/** The missing half of a started pair, else the first pair (none when a pair is complete). */
function pairMissing(have: ReadonlySet<string>, pairs: readonly (readonly [string, string])[]): Needed[] {
  if (pairs.some(([u, p]) => have.has(u) && have.has(p))) return [];
  const started = pairs.find(([u, p]) => have.has(u) || have.has(p));
  return (started ?? pairs[0]!).filter((k) => !have.has(k)).map((name) => ({ name, env: false }));
}

/** vanniktech reads these (the older versions' names after the first). */
const vanniktechPairs = [
  ['mavenCentralUsername', 'mavenCentralPassword'],
  ['mavenCentralRepositoryUsername', 'mavenCentralRepositoryPassword'],
  ['SONATYPE_NEXUS_USERNAME', 'SONATYPE_NEXUS_PASSWORD'],
] as const;

/**
 * The credentials still to set, by how this build uploads: the names its own scripts read
 * (`credentials {}`, gradle-nexus, nmcp, JReleaser DSL), else the properties of the plugin that
 * uploads (vanniktech: mavenCentralUsername/Password; JReleaser: JRELEASER_MAVENCENTRAL_*),
 * else any of the usual pairs. Credentials for a non-Central repository count only on `other`.
 */
function credentialsNeeded(facts: ProjectFacts, have: ReadonlySet<string>): Needed[] {
  const g = gradle(facts);
  if (g.user.tokenFromEnv) return [];
  const route = routeKind(facts);
  const vanniktech = applies(g, (id) => vanniktechIds.has(id));
  const jreleaser = g.publishing.jreleaserMavenCentral !== undefined || facts.jreleaserFile !== undefined;
  const sources = (g.publishing.scriptCredentials ?? []).filter((c) => {
    if (route === 'portal-plugin') return c.kind === 'nmcp' || c.kind === 'jreleaser';
    if (c.kind === 'nmcp' || c.kind === 'jreleaser') return false;
    if (route === 'other' || c.url === undefined) return true;
    const target = urlTarget(c.url, g.stagingApiUrl);
    return target !== 'other' && target !== 'local';
  });
  if (sources.length > 0) {
    const out: Needed[] = [];
    for (const r of sources.flatMap((c) => c.missing)) if (!out.some((x) => x.name === r.name)) out.push({ name: r.name, env: r.env });
    return out;
  }
  if (vanniktech) return pairMissing(have, vanniktechPairs);
  // gradle-nexus without username/password in its block reads `<repository name>Username`/`Password`.
  const nexusNames = [...new Set(g.projects.flatMap((p) => p.repositories.flatMap((r) => (r.nexus === true && r.nexusRepository !== undefined ? [r.nexusRepository] : []))))];
  if (route !== 'portal-plugin' && nexusNames.length > 0) return pairMissing(have, nexusNames.map((n) => [`${n}Username`, `${n}Password`] as const));
  if (route === 'portal-plugin' && jreleaser) {
    if (g.user.jreleaserConfig !== undefined) return [];
    const keys = [...have];
    const user = keys.some((k) => /^JRELEASER_MAVENCENTRAL_(\w+_)?USERNAME$/.test(k));
    const pass = keys.some((k) => /^JRELEASER_MAVENCENTRAL_(\w+_)?PASSWORD$/.test(k));
    return [...(user ? [] : ['JRELEASER_MAVENCENTRAL_USERNAME']), ...(pass ? [] : ['JRELEASER_MAVENCENTRAL_PASSWORD'])].map((name) => ({ name, env: true }));
  }
  return pairMissing(have, credentialPairs);
}

/**
 * The signing keys still to set: none when any complete way to sign is there: `useGpgCmd()`,
 * the script's `useInMemoryPgpKeys(...)` names, the keyring properties, the vanniktech in-memory
 * key (its password is optional: a key may have none), or JReleaser's own signing variables when
 * JReleaser signs (no Gradle signing plugin applied).
 */
function signingNeeded(facts: ProjectFacts, have: ReadonlySet<string>): Needed[] {
  const g = gradle(facts);
  const { publishing, user } = g;
  if (publishing.gpgCmd !== undefined) return [];
  const inMemory = publishing.inMemorySigning;
  if (inMemory !== undefined && inMemory.missing.length === 0) return [];
  const file = signingKeys.filter((k) => !have.has(k));
  if (file.length === 0 || have.has('signingInMemoryKey')) return [];
  const jreleaserSigns =
    (publishing.jreleaserMavenCentral !== undefined || facts.jreleaserFile !== undefined) && !applies(g, (id) => id === 'signing' || vanniktechIds.has(id));
  if (jreleaserSigns && (user.jreleaserConfig !== undefined || jreleaserGpg.every((k) => have.has(k)))) return [];
  if (inMemory !== undefined) return inMemory.missing.map((name) => ({ name, env: inMemory.refs.find((r) => r.name === name)?.env === true }));
  if (have.has('signingInMemoryKeyPassword') || have.has('signingInMemoryKeyId')) return [{ name: 'signingInMemoryKey', env: false }];
  if (jreleaserSigns) return jreleaserGpg.filter((k) => !have.has(k)).map((name) => ({ name, env: true }));
  return file.map((name) => ({ name, env: false }));
}

// Plugins that upload or sign (applied anywhere, a convention plugin included).
const uploading = /^(maven-publish|ivy-publish|signing)$|vanniktech|nexus|nmcp|jreleaser|central|publish/;

/**
 * Nothing in the build uploads: no publishing route and no plugin that publishes or signs (the old
 * `maven` plugin alone only installs into the local repository; a deploy would have given a route).
 * uPortal-start (it deploys overlays into Tomcat) needs no token and no key.
 */
function uploadsNothing(facts: ProjectFacts): boolean {
  const g = gradle(facts);
  if (routeKind(facts) !== 'unknown' || Object.keys(g.publishing).some((k) => k !== 'projectKeys')) return false;
  return g.projects.every((p) => p.repositories.length === 0 && !p.plugins.some((x) => uploading.test(x.id)));
}

/** Everything the release build reads and nothing sets: credentials first, then signing keys. */
export function gradleKeysNeeded(facts: ProjectFacts): Needed[] {
  if (uploadsNothing(facts)) return [];
  const { user, publishing } = gradle(facts);
  // Gradle reads the user's file, ORG_GRADLE_PROJECT_* variables and the project's own gradle.properties.
  const have = new Set([...user.keys, ...(publishing.projectKeys ?? [])]);
  return [...credentialsNeeded(facts, have), ...signingNeeded(facts, have).map((n) => ({ ...n, signing: true }))];
}

/**
 * Nothing visibly uploads or signs, but some project's script was not found: whether the release
 * build needs a token and a key is unknown, so the check says it did not run rather than pass.
 */
function signingUnknown(facts: ProjectFacts): SkippedCheck[] {
  const missing = projectsWithoutBuildFile(facts);
  if (missing.length === 0 || !uploadsNothing(facts)) return [];
  const names = missing.slice(0, 3).map((p) => p.path).join(', ') + (missing.length > 3 ? ` and ${missing.length - 3} more` : '');
  return [{ check: 'gradle-properties-missing', why: `no plugin that uploads or signs is visible, and the build files of ${names} were not found, so whether the build signs cannot be judged` }];
}

export const gradlePropertiesMissing: Check = {
  id: 'gradle-properties-missing',
  codes: ['gradle-properties-missing'],
  title: "the user's Gradle properties hold the staging token and the signing settings",
  appliesTo: isGradle,
  skipped: signingUnknown,
  run(facts) {
    const { user, publishing } = gradle(facts);
    const missing = gradleKeysNeeded(facts);
    if (missing.length === 0) return [];
    const props = missing.filter((m) => !m.env).map((m) => m.name);
    const vars = missing.filter((m) => m.env).map((m) => m.name);
    const parts: string[] = [];
    if (props.length > 0) {
      parts.push(
        user.state === 'missing'
          ? `${user.display} does not exist`
          : user.state === 'unreadable'
            ? `${user.display} cannot be read (${user.error ?? 'error'})`
            : `${user.display} lacks ${props.join(', ')}`,
      );
    }
    if (vars.length > 0) parts.push(`the environment variable${vars.length === 1 ? '' : 's'} ${vars.join(', ')} ${vars.length === 1 ? 'is' : 'are'} not set`);
    const pairs = credentialPairs.map(([u, p]) => `${u}/${p}`).join(', ');
    const fixes: string[] = [];
    const token = missing.some((m) => !m.env && m.signing !== true);
    // On the `other` route the build uploads to its own repository: its credentials, not the portal token.
    const secret = facts.route?.kind === 'other' ? 'the credentials of the repository the build publishes to' : 'the token from the portal\'s "Generate User Token"';
    const about = token ? ` (${secret}; the build reads these names${publishing.scriptCredentials === undefined ? `, any of ${pairs} is accepted` : ''})` : '';
    if (props.length > 0) fixes.push(`Add ${props.map((k) => `${k}=...`).join(', ')} to ${user.display}${about}, or pass them as ORG_GRADLE_PROJECT_<name> variables in CI${props.some((k) => k.startsWith('systemProp.')) ? ' (a systemProp.<x> one as -D<x>=... in GRADLE_OPTS: the build reads a JVM system property)' : ''}`);
    if (vars.length > 0) fixes.push(`set ${vars.join(', ')} in the release job's environment (CI secrets), as the build script reads them`);
    return [
      {
        code: 'gradle-properties-missing',
        severity: 'error',
        message: `${parts.join('; ')}: the release build needs ${missing.map((m) => m.name).join(', ')} to ${missing.every((m) => m.signing === true) ? 'sign' : missing.some((m) => m.signing === true) ? 'upload and sign' : 'upload'}.`,
        fix: `${fixes.join('; ')}.`.replace(/^./, (c) => c.toUpperCase()),
      },
    ];
  },
};

export const gradleSigningKeyringMissing: Check = {
  id: 'gradle-signing-keyring-missing',
  codes: ['signing-keyring-missing'],
  title: 'the keyring named by signing.secretKeyRingFile exists',
  appliesTo: isGradle,
  run(facts) {
    const { user, publishing } = gradle(facts);
    const ring = user.keyRing;
    if (ring === undefined || ring.exists) return [];
    // Keys held in memory (properties or variables) sign without the keyring file.
    const have = new Set([...user.keys, ...(publishing.projectKeys ?? [])]);
    if (have.has('signingInMemoryKey') || publishing.inMemorySigning?.missing.length === 0 || publishing.gpgCmd !== undefined) return [];
    const finding: Finding = {
      code: 'signing-keyring-missing',
      severity: 'error',
      message: `signing.secretKeyRingFile in ${ring.source ?? user.display} names ${ring.value}, but ${ring.resolved} is not a file; the signing plugin cannot sign the release.`,
      fix: `Export the secret keyring there (gpg --export-secret-keys <key id> > ${ring.resolved}) or correct signing.secretKeyRingFile.`,
    };
    return [finding];
  },
};
