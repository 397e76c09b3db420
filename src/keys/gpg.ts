import { spawn, spawnSync } from 'node:child_process';
import { childEnv } from '../io/child-env.js';
import { EnvironmentError } from '../core/errors.js';

/**
 * The gpg adapter: listing secret keys (--with-colons, the machine format), exporting an armored
 * public key (keys/hkp.ts sends it), importing a secret key and unlocking it once (the release in
 * CI, keys/env-key.ts), through node:child_process. gpg never gets a secret in argv or in its
 * environment: its argv holds only key ids and file names; a key or a passphrase goes on stdin.
 */
export interface GpgKey {
  fingerprint: string;
  keyId: string;
  /** User ids as gpg shows them ("Name <mail>"). */
  uids: string[];
  emails: string[];
  /** Unix seconds; undefined = never expires. */
  expires?: number;
  /** Fingerprints of the subkeys (a Gradle signing.keyId may name one). */
  subkeys: string[];
  /** The primary key's public-key algorithm number, size and curve (colon fields 4, 3 and 17). */
  algorithm?: number;
  bits?: number;
  curve?: string;
}

export interface GpgOptions {
  env: NodeJS.ProcessEnv;
  /** The gpg binary (default "gpg" on PATH). */
  binary?: string;
}

/** Parses `gpg --list-(secret-)keys --with-colons`. Pure. */
export function parseColons(text: string): GpgKey[] {
  const keys: GpgKey[] = [];
  let current: GpgKey | undefined;
  let expectFprFor: 'primary' | 'sub' | undefined;
  for (const line of text.split(/\r?\n/)) {
    const f = line.split(':');
    const type = f[0];
    if (type === 'sec' || type === 'pub') {
      const expires = f[6] !== undefined && /^\d+$/.test(f[6]) ? Number(f[6]) : undefined;
      current = { fingerprint: '', keyId: (f[4] ?? '').toUpperCase(), uids: [], emails: [], subkeys: [], ...(expires === undefined ? {} : { expires }) };
      if (f[3] !== undefined && /^\d+$/.test(f[3])) current.algorithm = Number(f[3]);
      if (f[2] !== undefined && /^\d+$/.test(f[2])) current.bits = Number(f[2]);
      if (f[16] !== undefined && f[16] !== '') current.curve = f[16];
      keys.push(current);
      expectFprFor = 'primary';
    } else if (type === 'ssb' || type === 'sub') {
      expectFprFor = 'sub';
    } else if (type === 'fpr' && current !== undefined) {
      const fpr = (f[9] ?? '').toUpperCase();
      if (expectFprFor === 'primary') current.fingerprint = fpr;
      else if (expectFprFor === 'sub') current.subkeys.push(fpr);
      expectFprFor = undefined;
    } else if (type === 'uid' && current !== undefined) {
      const uid = unescapeColons(f[9] ?? '');
      current.uids.push(uid);
      const mail = /<([^>]+)>/.exec(uid)?.[1] ?? (/^[^\s@]+@[^\s@]+$/.test(uid) ? uid : undefined);
      if (mail !== undefined) current.emails.push(mail);
    }
  }
  return keys.filter((k) => k.fingerprint !== '');
}

function unescapeColons(s: string): string {
  return s.replace(/\\x([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/**
 * gpg through node:child_process rather than execa: preflight lists the secret keys on every run,
 * and importing execa (an ES module, compiled without a cache on node 20) cost it about 40 ms.
 */
function run(options: GpgOptions, args: string[], input = ''): Promise<{ stdout: string; stderr: string; exitCode: number }> {
  return collect(options.binary ?? 'gpg', ['--batch', '--no-tty', ...args], options, input, 120_000);
}

function collect(command: string, args: string[], options: GpgOptions, input: string, timeout: number): Promise<{ stdout: string; stderr: string; exitCode: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: childEnv(options.env), stdio: ['pipe', 'pipe', 'pipe'], timeout });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => err.push(d));
    child.on('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'ENOENT'
          ? new EnvironmentError(`${command} is not installed (or not on PATH).`, { kind: 'tool-missing', fix: 'Install GnuPG 2 (e.g. apt-get install gnupg) and run again.' })
          : new EnvironmentError(`${command} could not be run: ${error.message}`, { kind: 'tool-missing', fix: 'Install GnuPG 2 and run again.' }),
      ),
    );
    child.on('close', (code) => resolve({ stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), exitCode: code ?? 1 }));
    // gpg may exit before reading its input (a key it does not have): that is its answer, not ours.
    child.stdin.on('error', () => undefined);
    child.stdin.end(input);
  });
}

export async function listSecretKeys(options: GpgOptions): Promise<GpgKey[]> {
  const r = await run(options, ['--with-colons', '--fixed-list-mode', '--list-secret-keys']);
  return r.exitCode === 0 ? parseColons(r.stdout) : [];
}

/** Public keys matching an id (long/short key id, fingerprint or e-mail). */
export async function listPublicKeys(options: GpgOptions, id: string): Promise<GpgKey[]> {
  const r = await run(options, ['--with-colons', '--fixed-list-mode', '--list-keys', id]);
  return r.exitCode === 0 ? parseColons(r.stdout) : [];
}

export async function exportPublicKey(options: GpgOptions, fingerprint: string): Promise<string | undefined> {
  const r = await run(options, ['--armor', '--export', fingerprint]);
  return r.exitCode === 0 && r.stdout.includes('BEGIN PGP PUBLIC KEY BLOCK') ? r.stdout : undefined;
}

/** `gpg --import` of an armored (secret) key handed over on stdin. Returns gpg's messages. */
export async function importKey(options: GpgOptions, armored: string): Promise<{ ok: boolean; messages: string }> {
  const r = await run(options, ['--import'], armored);
  return { ok: r.exitCode === 0, messages: r.stderr.trim() };
}

/**
 * One detached signature of `file` with `fingerprint`, the passphrase (if any) on stdin through
 * gpg's loopback pinentry: it proves the passphrase unlocks the key, and leaves it in the agent's
 * cache for the build's own gpg calls. Returns gpg's messages when it fails.
 */
export async function unlockBySigning(options: GpgOptions, fingerprint: string, file: string, passphrase: string | undefined): Promise<{ ok: boolean; messages: string }> {
  const unlock = passphrase === undefined ? [] : ['--pinentry-mode', 'loopback', '--passphrase-fd', '0'];
  const r = await run(options, [...unlock, '--local-user', fingerprint, '--armor', '--detach-sign', '--output', '-', file], passphrase === undefined ? '' : `${passphrase}\n`);
  return { ok: r.exitCode === 0 && r.stdout.includes('BEGIN PGP SIGNATURE'), messages: r.stderr.trim() };
}

/**
 * Stops the gpg-agent serving `gnupgHome` (it outlives gpg and would keep its sockets there).
 * `sync` for the process's `exit` event; never throws: a missing gpgconf means no agent to stop.
 */
export async function stopAgent(options: GpgOptions, gnupgHome: string): Promise<void> {
  await collect('gpgconf', ['--homedir', gnupgHome, '--kill', 'gpg-agent'], options, '', 10_000).catch(() => undefined);
}

export function stopAgentSync(options: GpgOptions, gnupgHome: string): void {
  spawnSync('gpgconf', ['--homedir', gnupgHome, '--kill', 'gpg-agent'], { env: childEnv(options.env), stdio: 'ignore', timeout: 5000 });
}
