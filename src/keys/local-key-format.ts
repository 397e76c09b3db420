import { stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gpgKeyFormat } from '../core/key-format.js';
import type { CommandContext } from '../io/command-context.js';
import { resolveSigningKey, signingKeyInput } from './fingerprint.js';
import type { KeyCheckFacts, SigningKeyFacts } from './online-types.js';

/** gpg's home has a keyring at all (else there is no key at hand, and gpg is not even started). */
async function hasKeyring(env: NodeJS.ProcessEnv): Promise<boolean> {
  const home = env.GNUPGHOME !== undefined && env.GNUPGHOME !== '' ? env.GNUPGHOME : path.join(env.HOME ?? os.homedir(), '.gnupg');
  for (const name of ['pubring.kbx', 'pubring.gpg', 'public-keys.d']) if ((await stat(path.join(home, name)).catch(() => undefined)) !== undefined) return true;
  return false;
}

/**
 * The signing key's format from the local gpg keyring (offline preflight): the key the release
 * signs with (configured fingerprint, Gradle signing.keyId, else gpg's default secret key).
 * Undefined when there is no keyring or no key: nothing to state, and no finding either way.
 */
export async function localSigningKey(ctx: CommandContext): Promise<SigningKeyFacts | undefined> {
  if (!(await hasKeyring(ctx.env))) return undefined;
  const key = await resolveSigningKey(signingKeyInput(ctx)).catch(() => undefined);
  const local = key?.local;
  if (key === undefined || local === undefined) return undefined;
  const format = gpgKeyFormat(local.fingerprint, local.algorithm, local.bits, local.curve);
  return format === undefined ? undefined : { fingerprint: key.fingerprint, format, from: 'the local keyring' };
}

/** The same facts from the online key lookups: the key as the key server serves it. */
export function servedSigningKey(keys: KeyCheckFacts | undefined): SigningKeyFacts | undefined {
  const format = keys?.served?.format;
  if (keys?.fingerprint === undefined || format === undefined) return undefined;
  const from = keys.served!.from === 'local' ? 'the local keyring' : `${hostOf(keys.served!.from === 'primary' ? keys.primaryUrl : keys.secondaryUrl)} (as served)`;
  return { fingerprint: keys.fingerprint, format, from };
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
