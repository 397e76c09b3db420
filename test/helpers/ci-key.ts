import { chmod, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';

/**
 * The signing key of a CI release as a maintainer stores it in the CI secrets: a real gpg key with a
 * passphrase, exported armored (secret and public). The GNUPGHOME it was made in is gone before the
 * test runs relctl, so the environment is the only place the key exists.
 */
export interface CiKey {
  fingerprint: string;
  email: string;
  passphrase: string;
  armoredSecretKey: string;
  armoredPublicKey: string;
  /** A line from the middle of the armored secret key: what a leak of any part of it would show. */
  secretLine: string;
}

export async function createCiKey(passphrase: string): Promise<CiKey> {
  const home = await mkdtemp(path.join(os.tmpdir(), 'relctl-cikey-'));
  const email = `ci-${path.basename(home).slice(-6).toLowerCase()}@example.invalid`;
  const gpg = async (args: string[]): Promise<string> =>
    String((await execa('gpg', ['--batch', '--no-tty', '--pinentry-mode', 'loopback', '--passphrase-fd', '0', ...args], { env: { GNUPGHOME: home }, input: passphrase })).stdout);
  try {
    await gpg(['--quick-gen-key', `relctl CI <${email}>`, 'ed25519', 'sign', 'never']);
    const fpr = (await gpg(['--list-secret-keys', '--with-colons'])).split('\n').find((l) => l.startsWith('fpr:'))?.split(':')[9];
    if (fpr === undefined) throw new Error('gpg made no key');
    const armoredSecretKey = await gpg(['--armor', '--export-secret-keys', fpr]);
    const armoredPublicKey = await gpg(['--armor', '--export', fpr]);
    const body = armoredSecretKey.split('\n').filter((l) => /^[A-Za-z0-9+/=]{40,}$/.test(l));
    return { fingerprint: fpr.toUpperCase(), email, passphrase, armoredSecretKey, armoredPublicKey, secretLine: body[Math.floor(body.length / 2)]! };
  } finally {
    await execa('gpgconf', ['--kill', 'gpg-agent'], { env: { GNUPGHOME: home }, reject: false });
    await rm(home, { recursive: true, force: true });
  }
}

/** What the recording `gpg` saw: its argv and the environment it ran with, one entry per call. */
export interface GpgCall {
  argv: string;
  env: string;
  gnupgHome: string;
}

/**
 * A `gpg` first on PATH that records each call (argv, environment) and execs the real one: the
 * children relctl starts and those the build starts (maven-gpg-plugin finds gpg on PATH) alike.
 */
export async function gpgRecorder(dir: string): Promise<{ bin: string; calls(): Promise<GpgCall[]> }> {
  const bin = path.join(dir, 'gpg-bin');
  const log = path.join(dir, 'gpg-calls');
  await mkdir(log, { recursive: true });
  await mkdir(bin, { recursive: true });
  const real = String((await execa('bash', ['-c', 'command -v gpg'])).stdout).trim();
  await writeFile(path.join(bin, 'gpg'), `#!/bin/sh\nf="${log}/$$-$(date +%s%N)"\n{ printf '%s\\n' "$*"; env; } > "$f"\nexec ${real} "$@"\n`);
  await chmod(path.join(bin, 'gpg'), 0o755);
  return {
    bin,
    async calls() {
      const files = await readdir(log);
      return Promise.all(
        files.map(async (f) => {
          const text = await readFile(path.join(log, f), 'utf8');
          const [argv = '', ...env] = text.split('\n');
          return { argv, env: env.join('\n'), gnupgHome: env.find((l) => l.startsWith('GNUPGHOME='))?.slice('GNUPGHOME='.length) ?? '' };
        }),
      );
    },
  };
}

/** Leftover throwaway GNUPGHOMEs in a temp folder. */
export async function gnupgLeftovers(tmp: string): Promise<string[]> {
  return (await readdir(tmp)).filter((n) => n.startsWith('relctl-gnupg'));
}
