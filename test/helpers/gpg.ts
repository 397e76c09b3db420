import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';

/**
 * A throwaway ed25519 signing key in its own GNUPGHOME (no passphrase, so no pinentry).
 * Dispose it (or call cleanup) to kill the agent and remove the folder; a leaked agent keeps
 * running after the test process is gone.
 */
export interface TestKey extends AsyncDisposable {
  gnupgHome: string;
  /** 40 hex characters, uppercase. */
  fingerprint: string;
  /** The long key id (last 16 hex characters of the fingerprint), uppercase. */
  keyId: string;
  email: string;
  armoredPublicKey: string;
  /** Writes `<file>.asc`, a detached armored signature, and returns its path. */
  sign(file: string): Promise<string>;
  /** Runs gpg with this key's GNUPGHOME. */
  gpg(args: string[], input?: string): Promise<string>;
  /** Env to give a child process (Maven's antrun signing) so it signs with this key. */
  env: Record<string, string>;
  cleanup(): Promise<void>;
}

export async function createTestKey(options: { name?: string; email?: string } = {}): Promise<TestKey> {
  // GNUPGHOME paths must stay short: the agent socket path is limited to ~100 characters.
  const gnupgHome = await mkdtemp(path.join(os.tmpdir(), 'relctl-gpg-'));
  const email = options.email ?? `release-${path.basename(gnupgHome).slice(-6).toLowerCase()}@example.invalid`;
  const name = options.name ?? 'relctl test';
  const env = { GNUPGHOME: gnupgHome };
  const gpg = async (args: string[], input?: string): Promise<string> => {
    const r = await execa('gpg', ['--batch', '--no-tty', ...args], { env, input: input ?? '' });
    return String(r.stdout);
  };
  await gpg(['--passphrase', '', '--quick-gen-key', `${name} <${email}>`, 'ed25519', 'sign', 'never']);
  const listing = await gpg(['--list-secret-keys', '--with-colons']);
  const fpr = listing.split('\n').find((l) => l.startsWith('fpr:'))?.split(':')[9];
  if (fpr === undefined) throw new Error(`gpg made no key:\n${listing}`);
  const fingerprint = fpr.toUpperCase();
  const armoredPublicKey = await gpg(['--armor', '--export', fingerprint]);
  let cleaned = false;
  const cleanup = async (): Promise<void> => {
    if (cleaned) return;
    cleaned = true;
    await execa('gpgconf', ['--kill', 'gpg-agent'], { env, reject: false });
    await rm(gnupgHome, { recursive: true, force: true });
  };
  return {
    gnupgHome,
    fingerprint,
    keyId: fingerprint.slice(-16),
    email,
    armoredPublicKey,
    env,
    gpg,
    async sign(file: string): Promise<string> {
      const out = `${file}.asc`;
      await gpg(['--yes', '--armor', '--detach-sign', '--local-user', fingerprint, '-o', out, file]);
      return out;
    },
    cleanup,
    [Symbol.asyncDispose]: cleanup,
  };
}
