import type { Finding } from '../core/findings.js';
import type { Check } from './types.js';
import { gradle, isGradle } from './gradle-support.js';

/** Username/password property names the common Gradle publishing setups read. */
export const credentialPairs: readonly (readonly [string, string])[] = [
  ['ossrhUsername', 'ossrhPassword'],
  ['sonatypeUsername', 'sonatypePassword'],
  ['mavenCentralUsername', 'mavenCentralPassword'],
  // JReleaser reads its Maven Central deployer's token from these variables.
  ['JRELEASER_MAVENCENTRAL_USERNAME', 'JRELEASER_MAVENCENTRAL_PASSWORD'],
];

/** The vanniktech plugin's in-memory signing properties (usually ORG_GRADLE_PROJECT_* in CI). */
export const inMemoryKeys = ['signingInMemoryKey', 'signingInMemoryKeyPassword'] as const;

/**
 * The signing keys still to add: none when any way of signing is complete (a keyring file, the
 * vanniktech in-memory properties, or the names a script's `useInMemoryPgpKeys(...)` reads).
 */
function missingSigningKeys(have: ReadonlySet<string>, inMemory?: { missing: readonly string[] }): string[] {
  const file = signingKeys.filter((k) => !have.has(k));
  const memory = inMemoryKeys.filter((k) => !have.has(k));
  if (file.length === 0 || memory.length === 0 || inMemory?.missing.length === 0) return [];
  if (inMemory !== undefined) return [...inMemory.missing];
  if (memory.length < inMemoryKeys.length) return memory; // started the in-memory way
  return file;
}
export const signingKeys = ['signing.keyId', 'signing.password', 'signing.secretKeyRingFile'] as const;

/**
 * The keys to add: the missing half of a started pair, else the first pair; then each signing
 * key. No credential keys are needed when the token comes from RELCTL_TOKEN_* (DESIGN §2):
 * relctl then passes it to Gradle as ORG_GRADLE_PROJECT_* variables.
 */
export function missingGradleKeys(keys: readonly string[], tokenFromEnv = false, inMemory?: { missing: readonly string[] }): string[] {
  const have = new Set(keys);
  const missing: string[] = [];
  if (!tokenFromEnv && !credentialPairs.some(([u, p]) => have.has(u) && have.has(p))) {
    const started = credentialPairs.find(([u, p]) => have.has(u) || have.has(p));
    missing.push(...(started ?? credentialPairs[0]!).filter((k) => !have.has(k)));
  }
  missing.push(...missingSigningKeys(have, inMemory));
  return missing;
}

export const gradlePropertiesMissing: Check = {
  id: 'gradle-properties-missing',
  codes: ['gradle-properties-missing'],
  title: "the user's Gradle properties hold the staging token and the signing settings",
  appliesTo: isGradle,
  run(facts) {
    const { user, publishing } = gradle(facts);
    // useGpgCmd(): gpg's agent and key sign, no signing properties are read.
    const inMemory = publishing.gpgCmd !== undefined ? { missing: [] } : publishing.inMemorySigning;
    const missing = missingGradleKeys(user.keys, user.tokenFromEnv, inMemory);
    if (missing.length === 0) return [];
    const state =
      user.state === 'missing'
        ? `${user.display} does not exist`
        : user.state === 'unreadable'
          ? `${user.display} cannot be read (${user.error ?? 'error'})`
          : `${user.display} lacks ${missing.join(', ')}`;
    const pairs = credentialPairs.map(([u, p]) => `${u}/${p}`).join(', ');
    return [
      {
        code: 'gradle-properties-missing',
        severity: 'error',
        message: `${state}: the release build needs ${missing.join(', ')} to upload and sign.`,
        fix: `Add ${missing.map((k) => `${k}=...`).join(', ')} to ${user.display} (the token from the portal's "Generate User Token"; any of ${pairs} is accepted), or pass them as ORG_GRADLE_PROJECT_<name> variables in CI.`,
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
    const have = new Set(user.keys);
    if (inMemoryKeys.every((k) => have.has(k)) || publishing.inMemorySigning?.missing.length === 0 || publishing.gpgCmd !== undefined) return [];
    const finding: Finding = {
      code: 'signing-keyring-missing',
      severity: 'error',
      message: `signing.secretKeyRingFile in ${user.display} names ${ring.value}, but ${ring.resolved} is not a file; the signing plugin cannot sign the release.`,
      fix: `Export the secret keyring there (gpg --export-secret-keys <key id> > ${ring.resolved}) or correct signing.secretKeyRingFile.`,
    };
    return [finding];
  },
};
