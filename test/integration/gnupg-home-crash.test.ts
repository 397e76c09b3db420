import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { repoRoot, runCli } from '../helpers/cli.js';
import { demoInTemp } from './release-fixture.js';
import { createCiKey } from '../helpers/ci-key.js';
import { tempDir } from '../helpers/temp.js';

/**
 * The last exit path of the temporary GNUPGHOME (DESIGN §2): an error nobody caught. A node process
 * imports the key as `release` does (the built dist/ modules), then dies of an uncaught exception
 * with the folder and its gpg-agent alive; the `exit` clean-up must stop the agent and remove the
 * folder. (Success, failure and signals: test/integration/release-ci.test.ts.)
 */
describe('the temporary GNUPGHOME on an uncaught error', () => {
  it('is removed, its gpg-agent stopped, when the process dies of an uncaught exception', async () => {
    await using t = await tempDir('relctl-gnupg-crash-');
    const key = await createCiKey('crash pass 5Rk');
    const script = `
      const { openEnvKeyring, signingKeyFromEnv } = await import(${JSON.stringify(path.join(repoRoot, 'dist', 'keys', 'env-key.js'))});
      const keyring = await openEnvKeyring(signingKeyFromEnv(process.env), process.env);
      console.log(keyring.gnupgHome);
      setTimeout(() => { throw new Error('boom: nobody catches this'); }, 10);
    `;
    const env = { PATH: process.env.PATH ?? '', HOME: t.path, TMPDIR: t.path, GPG_PRIVATE_KEY: key.armoredSecretKey, GPG_PASSPHRASE: key.passphrase };
    const r = await execa('node', ['--input-type=module', '-e', script], { env, extendEnv: false, reject: false, timeout: 60_000 });
    expect(String(r.stderr)).toContain('boom: nobody catches this');
    expect(r.exitCode).not.toBe(0);
    const gnupgHome = String(r.stdout).trim();
    expect(path.dirname(gnupgHome)).toBe(t.path);
    expect((await readdir(t.path)).filter((n) => n.startsWith('relctl-gnupg'))).toEqual([]);
    const agents = await execa('pgrep', ['-f', `gpg-agent --homedir ${gnupgHome}`], { reject: false });
    expect(String(agents.stdout)).toBe('');
  });

  it('after a SIGKILL the home and its agent stay, caching the passphrase 2 h at most; the next relctl run stops the agent and removes the home', async () => {
    await using t = await tempDir('relctl-gnupg-kill-');
    const key = await createCiKey('kill pass 8Tq');
    const script = `
      const { openEnvKeyring, signingKeyFromEnv } = await import(${JSON.stringify(path.join(repoRoot, 'dist', 'keys', 'env-key.js'))});
      const keyring = await openEnvKeyring(signingKeyFromEnv(process.env), process.env);
      console.log(keyring.gnupgHome);
      process.kill(process.pid, 'SIGKILL');
    `;
    const env = { PATH: process.env.PATH ?? '', HOME: t.path, TMPDIR: t.path, GPG_PRIVATE_KEY: key.armoredSecretKey, GPG_PASSPHRASE: key.passphrase };
    const r = await execa('node', ['--input-type=module', '-e', script], { env, extendEnv: false, reject: false, timeout: 60_000 });
    expect(r.signal).toBe('SIGKILL');
    const gnupgHome = String(r.stdout).trim();
    expect(await readdir(gnupgHome)).toContain('private-keys-v1.d');
    expect(String((await execa('pgrep', ['-f', `gpg-agent --homedir ${gnupgHome}`], { reject: false })).stdout)).not.toBe('');
    expect(await readFile(path.join(gnupgHome, 'gpg-agent.conf'), 'utf8')).toContain('default-cache-ttl 7200\nmax-cache-ttl 7200\n');
    // A later relctl run (a release dry run, without any key in its environment) cleans up first.
    const { dir, home } = await demoInTemp(path.join(t.path, 'later'));
    const later = await runCli(['release', '--dry-run', '--offline', '--cwd', dir], { home, env: { TMPDIR: t.path } });
    expect(later.stderr).not.toContain('Error: internal');
    expect((await readdir(t.path)).filter((n) => n.startsWith('relctl-gnupg'))).toEqual([]);
    expect(String((await execa('pgrep', ['-f', `gpg-agent --homedir ${gnupgHome}`], { reject: false })).stdout)).toBe('');
  });
});
