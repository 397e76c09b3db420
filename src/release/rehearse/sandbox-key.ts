import { childEnv } from '../../io/child-env.js';
import { rm } from 'node:fs/promises';
import { EnvironmentError, StepFailedError } from '../../core/errors.js';
import { onInterrupt } from '../../io/interrupt.js';
import { makeOwnedTempDir } from '../../io/owned-temp.js';
import type { HttpClient } from '../../io/http.js';

/**
 * Signing keys for a rehearsal. `--sign` makes a throwaway key in its own GNUPGHOME; either way
 * the public key is uploaded to the SANDBOX's primary key server and its address confirmed
 * through the mailed link, as a maintainer would do once on the real one.
 */
export interface ThrowawayKey {
  gnupgHome: string;
  fingerprint: string;
  email: string;
  armored: string;
  dispose(): Promise<void>;
}

export async function createThrowawayKey(signal?: AbortSignal): Promise<ThrowawayKey> {
  // Short path: gpg-agent's socket path is limited to about 100 characters.
  // execa is ESM-only: loaded here, not imported at the top (the bundled CLI is CommonJS).
  const { execa } = await import('execa');
  const gnupgHome = await makeOwnedTempDir('relctl-gpg-');
  const env = childEnv(process.env, { GNUPGHOME: gnupgHome });
  const email = 'rehearsal@relctl.invalid';
  const gpg = async (args: string[]): Promise<string> => {
    const r = await execa('gpg', ['--batch', '--no-tty', ...args], { env, reject: false, input: '', ...(signal === undefined ? {} : { cancelSignal: signal }) });
    if (r.exitCode !== 0) {
      throw new EnvironmentError(`gpg failed while making the rehearsal key: ${String(r.stderr).trim()}`, {
        kind: 'gpg',
        fix: 'Install gpg 2.1 or later (it must support ed25519), then rehearse again.',
      });
    }
    return String(r.stdout);
  };
  // gpg starts an agent for this home that outlives gpg itself: stop it before the folder goes.
  const dispose = async (): Promise<void> => {
    await execa('gpgconf', ['--homedir', gnupgHome, '--kill', 'gpg-agent'], { env, reject: false });
    await rm(gnupgHome, { recursive: true, force: true });
  };
  const unregister = onInterrupt(dispose);
  try {
    await gpg(['--passphrase', '', '--quick-gen-key', `relctl rehearsal <${email}>`, 'ed25519', 'sign', '1d']);
    const fpr = (await gpg(['--list-secret-keys', '--with-colons'])).split('\n').find((l) => l.startsWith('fpr:'))?.split(':')[9];
    if (fpr === undefined) throw new EnvironmentError('gpg made no key for the rehearsal.', { fix: 'Check that gpg works: gpg --version.' });
    const armored = await gpg(['--armor', '--export', fpr]);
    return { gnupgHome, fingerprint: fpr.toUpperCase(), email, armored, dispose };
  } catch (error) {
    await dispose();
    throw error;
  } finally {
    // From here on the caller owns the key (and disposes it, on an interrupt too).
    unregister();
  }
}

/** Upload, request verification, follow the mailed link: the key is published and confirmed. */
export async function publishOnSandbox(
  http: HttpClient,
  urls: { keyserverUrl: string; controlUrl: string },
  armored: string,
  emails: readonly string[],
): Promise<void> {
  const json = { 'content-type': 'application/json' };
  const up = await http.request({ method: 'POST', url: `${urls.keyserverUrl}/vks/v1/upload`, headers: json, body: JSON.stringify({ keytext: armored }) });
  const token = (up.json() as { token?: string } | undefined)?.token;
  if (up.status !== 200 || token === undefined) {
    throw new StepFailedError(`The sandbox key server refused the key (HTTP ${up.status}): ${up.text().slice(0, 200)}`, {
      kind: 'rehearse-key',
      fix: 'Check the key with gpg --list-keys; a key without a user id cannot be confirmed.',
    });
  }
  if (emails.length === 0) return;
  await http.request({ method: 'POST', url: `${urls.keyserverUrl}/vks/v1/request-verify`, headers: json, body: JSON.stringify({ token, addresses: emails }) });
  const mails = ((await http.request({ method: 'GET', url: `${urls.controlUrl}/mail` })).json() ?? []) as { to: string; link: string }[];
  for (const address of emails) {
    const mail = mails.filter((m) => m.to === address).pop();
    if (mail !== undefined) await http.request({ method: 'GET', url: mail.link });
  }
}
