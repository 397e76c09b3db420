import { chmod, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { UsageError } from '../core/errors.js';
import { markSecretRead } from '../io/child-env.js';
import { createCredentialDir, type CredentialDir } from '../io/credential-dir.js';
import { keyIdMatches } from './fingerprint.js';
import { importKey, listSecretKeys, stopAgent, stopAgentSync, unlockBySigning, type GpgKey, type GpgOptions } from './gpg.js';

/**
 * The signing key of an unattended release (DESIGN §12): an armored secret key and its passphrase
 * in the environment, imported into a throwaway GNUPGHOME that every gpg of the release uses
 * (relctl's own, the build's maven-gpg-plugin or Gradle signing) and that is removed on every exit
 * path. Neither the key nor the passphrase is written to a file or passed in argv: both reach gpg
 * on stdin; the agent keeps the unlocked key for the build.
 */
export interface EnvSigningKey {
  armored: string;
  passphrase?: string;
  /** The variables they came from, for messages (never their values). */
  keyVariable: string;
  passphraseVariable?: string;
}

export const keyVariables = ['RELCTL_GPG_PRIVATE_KEY', 'GPG_PRIVATE_KEY'] as const;
export const passphraseVariables = ['RELCTL_GPG_PASSPHRASE', 'GPG_PASSPHRASE'] as const;

/**
 * How long the throwaway GNUPGHOME's gpg-agent keeps the unlocked key: the key is unlocked once
 * before the build, and maven-gpg-plugin before 3.2 signs through the agent at the end of
 * release:perform, so the cache must outlast a long build; but no longer: after a SIGKILL the
 * folder and its agent stay until the next relctl run removes them (io/owned-temp.ts), and for
 * at most this long the agent would sign with that key without its passphrase.
 */
export const agentCacheSeconds = 7200;

/** The prefix of the throwaway GNUPGHOME under the OS temp folder. */
export const gnupgHomePrefix = 'relctl-gnupg-';

const beginSecret = '-----BEGIN PGP PRIVATE KEY BLOCK-----';

function firstSet(env: NodeJS.ProcessEnv, names: readonly string[]): { name: string; value: string } | undefined {
  for (const name of names) {
    const value = env[name];
    if (value !== undefined && value.trim() !== '') return { name, value };
  }
  return undefined;
}

/**
 * The key and passphrase the environment holds, or undefined when no key variable is set (the
 * release then signs with the user's own gpg setup). GPG_PRIVATE_KEY / GPG_PASSPHRASE become
 * relctl's secrets once read: no child inherits them any more.
 */
export function signingKeyFromEnv(env: NodeJS.ProcessEnv): EnvSigningKey | undefined {
  const key = firstSet(env, keyVariables);
  if (key === undefined) return undefined;
  const pass = firstSet(env, passphraseVariables);
  markSecretRead(key.name);
  if (pass !== undefined) markSecretRead(pass.name);
  // A secret pasted with its line breaks escaped (one line, literal \n) is still the same key.
  const armored = !key.value.includes('\n') && key.value.includes('\\n') ? key.value.replaceAll('\\n', '\n') : key.value;
  if (!armored.includes(beginSecret)) {
    const isPublic = armored.includes('-----BEGIN PGP PUBLIC KEY BLOCK-----');
    throw new UsageError(`${key.name} does not hold an armored secret key${isPublic ? ' (it holds a public key)' : ''}.`, {
      kind: 'signing-key-env',
      fix: `Set ${key.name} to the output of \`gpg --armor --export-secret-keys <fingerprint>\` (the whole block, ${beginSecret} included).`,
    });
  }
  return { armored, keyVariable: key.name, ...(pass === undefined ? {} : { passphrase: pass.value, passphraseVariable: pass.name }) };
}

export interface EnvKeyring {
  /** The throwaway GNUPGHOME (mode 0700, under the OS temp folder). */
  gnupgHome: string;
  /** The key the release signs with: the configured one, else the first imported secret key. */
  fingerprint: string;
  /** Removes the GNUPGHOME (its agent stopped first); also runs on interrupts and at exit. */
  dispose(): Promise<void>;
}

/**
 * Imports the key into a throwaway GNUPGHOME and unlocks it once. gpg.conf makes loopback the
 * pinentry (no dialog can open in CI) and names the key as the default (a build that passes no key
 * name signs with it); gpg-agent.conf allows loopback and keeps the unlocked key for a long build
 * (agentCacheSeconds), no longer.
 */
export async function openEnvKeyring(key: EnvSigningKey, env: NodeJS.ProcessEnv, configured?: string): Promise<EnvKeyring> {
  const base: GpgOptions = { env };
  const dir: CredentialDir = await createCredentialDir(gnupgHomePrefix, {
    async: (home) => stopAgent(base, home),
    sync: (home) => stopAgentSync(base, home),
  });
  try {
    const gpg: GpgOptions = { env: { ...env, GNUPGHOME: dir.path } };
    await chmod(dir.path, 0o700);
    await writeFile(path.join(dir.path, 'gpg-agent.conf'), `allow-loopback-pinentry\ndefault-cache-ttl ${agentCacheSeconds}\nmax-cache-ttl ${agentCacheSeconds}\n`, { mode: 0o600 });
    const imported = await importKey(gpg, key.armored);
    const secret = imported.ok ? await listSecretKeys(gpg) : [];
    if (secret.length === 0) {
      throw new UsageError(`gpg could not import the secret key in ${key.keyVariable}.${imported.messages === '' ? '' : `\n${imported.messages}`}`, {
        kind: 'signing-key-env',
        fix: `Set ${key.keyVariable} to the output of \`gpg --armor --export-secret-keys <fingerprint>\`.`,
      });
    }
    const chosen = chooseKey(secret, key, configured);
    await writeFile(path.join(dir.path, 'gpg.conf'), `pinentry-mode loopback\ndefault-key ${chosen}\n`, { mode: 0o600 });
    const probe = path.join(dir.path, 'unlock-probe.txt');
    await writeFile(probe, 'relctl: unlocking the signing key for the release\n');
    const unlocked = await unlockBySigning(gpg, chosen, probe, key.passphrase);
    if (!unlocked.ok) throw unlockError(key, chosen, unlocked.messages);
    return { gnupgHome: dir.path, fingerprint: chosen, dispose: () => dir.remove() };
  } catch (error) {
    await dir.remove();
    throw error;
  }
}

/** The configured key (primary or subkey of an imported key), else the first imported key. */
function chooseKey(secret: readonly GpgKey[], key: EnvSigningKey, configured: string | undefined): string {
  if (configured === undefined) return secret[0]!.fingerprint;
  const hit = secret.find((k) => keyIdMatches(configured, k.fingerprint, k.subkeys));
  if (hit === undefined) {
    throw new UsageError(`The configured signing key ${configured} is not the key in ${key.keyVariable} (${secret.map((k) => k.fingerprint).join(', ')}).`, {
      kind: 'signing-key-env',
      fix: `Put the secret key of ${configured} in ${key.keyVariable}, or drop the configured fingerprint to sign with the key it holds.`,
    });
  }
  return hit.fingerprint;
}

function unlockError(key: EnvSigningKey, fingerprint: string, messages: string): UsageError {
  const bad = /bad passphrase/i.test(messages);
  const missing = key.passphrase === undefined;
  const cause = bad
    ? `The passphrase in ${key.passphraseVariable ?? 'the environment'} does not unlock the key ${fingerprint}.`
    : missing
      ? `The key ${fingerprint} in ${key.keyVariable} is protected by a passphrase and none is set.`
      : `gpg could not sign with the key ${fingerprint} from ${key.keyVariable}.`;
  return new UsageError(`${cause}${messages === '' ? '' : `\n${messages}`}`, {
    kind: 'signing-key-env',
    fix: missing ? `Set RELCTL_GPG_PASSPHRASE (or GPG_PASSPHRASE) to the key's passphrase.` : `Set ${key.passphraseVariable ?? 'RELCTL_GPG_PASSPHRASE'} to the passphrase of that key.`,
  });
}
