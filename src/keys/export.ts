import { readFile } from 'node:fs/promises';
import { EnvironmentError, UsageError } from '../core/errors.js';
import type { ResolvedSigningKey } from './fingerprint.js';
import { exportPublicKey } from './gpg.js';

/** The retired SKS pool: unreachable since 2021 (reference/portal-api.md §D). */
export function refusedKeyserver(url: string): string | undefined {
  let host: string;
  try {
    host = new URL(url.includes('://') ? url : `hkp://${url}`).hostname.toLowerCase();
  } catch {
    return `${url} is not a key-server URL.`;
  }
  if (host === 'sks-keyservers.net' || host.endsWith('.sks-keyservers.net')) {
    return `${host} is the retired SKS key-server pool (shut down in 2021); keys sent there reach nobody.`;
  }
  return undefined;
}

export interface ExportInput {
  env: NodeJS.ProcessEnv;
  fingerprint?: string;
  /** A keyring or key file (binary or armored, secret or public) read with openpgp. */
  keyring?: string;
  resolve?: () => Promise<ResolvedSigningKey>;
}

/** The armored public key: from gpg, or from a keyring file via openpgp. */
export async function exportArmored(input: ExportInput): Promise<{ fingerprint: string; armored: string }> {
  if (input.keyring !== undefined) {
    const bytes = await readFile(input.keyring).catch(() => {
      throw new UsageError(`Cannot read the keyring ${input.keyring}.`, { fix: 'Pass an existing key file with --keyring.' });
    });
    const openpgp = await import('openpgp');
    const text = bytes.toString('utf8');
    const keys = text.includes('-----BEGIN PGP')
      ? await openpgp.readKeys({ armoredKeys: text })
      : await openpgp.readKeys({ binaryKeys: new Uint8Array(bytes) });
    const want = input.fingerprint?.toUpperCase();
    const key = want === undefined ? keys[0] : keys.find((k) => k.getFingerprint().toUpperCase() === want);
    if (key === undefined) {
      throw new UsageError(`No ${want === undefined ? '' : `key ${want} `}in ${input.keyring}.`, { fix: 'Check the file and --fingerprint.' });
    }
    return { fingerprint: key.getFingerprint().toUpperCase(), armored: key.toPublic().armor() };
  }
  const key = await input.resolve!();
  const armored = await exportPublicKey({ env: input.env }, key.fingerprint);
  if (armored === undefined) {
    throw new EnvironmentError(`gpg has no public key ${key.fingerprint} to export.`, {
      kind: 'key-unknown',
      fix: 'Import the key into gpg (or pass the keyring file with --keyring).',
    });
  }
  return { fingerprint: key.fingerprint, armored };
}
