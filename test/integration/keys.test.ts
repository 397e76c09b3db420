import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import type { TestKey } from '../helpers/gpg.js';
import { git, gitRepo, type TempDir } from '../helpers/temp.js';
import { control, sandboxEnv, uploadKey, type SandboxFixture, useSandboxFixture } from './upload-helpers.js';

let sb: SandboxFixture['sb'];
let key: TestKey;
let work: TempDir;

useSandboxFixture((fx) => {
  ({ sb, key, work } = fx);
}, { publishKey: false });

function env(extra: Record<string, string> = {}): Record<string, string> {
  return { ...sandboxEnv(sb), GNUPGHOME: key.gnupgHome, ...extra };
}
const check = (args: string[] = [], e = env()) => runCli(['keys', 'check', '--json', '--cwd', work.path, ...args], { env: e });
const codes = (stdout: string): string[] => (JSON.parse(stdout) as { findings: { code: string }[] }).findings.map((f) => f.code);

async function confirmByMail(fingerprint: string, token: string, email: string): Promise<void> {
  const r = await request(`${sb.urls.keyserverUrl}/vks/v1/request-verify`, {
    method: 'POST',
    body: JSON.stringify({ token, addresses: [email] }),
    headers: { 'content-type': 'application/json' },
  });
  expect(r.statusCode).toBe(200);
  await r.body.text();
  const mails = (await control(sb, 'GET', 'mail')) as { to: string; link: string }[];
  const mail = mails.find((m) => m.to === email);
  expect(mail, `a mail to ${email} for ${fingerprint}`).toBeDefined();
  const open = await request(mail!.link);
  await open.body.text();
  expect(open.statusCode).toBe(200);
}

describe('relctl keys check', () => {
  it('reports key-not-published (exit 1) with the export-and-upload steps for a key never uploaded', async () => {
    const r = await check();
    expect(r.exitCode).toBe(1);
    expect(codes(r.stdout)).toEqual(['key-not-published']);
    expect(r.stdout).toContain(`${sb.urls.keyserverUrl}/upload`);
    expect(r.stdout).toContain('relctl keys export');
  });

  it('warns key-unconfirmed for an uploaded but unconfirmed key, and is clean once the mailed link is opened', async () => {
    const up = await uploadKey(sb, key.armoredPublicKey);
    const unconfirmed = await check();
    expect(unconfirmed.exitCode).toBe(0);
    expect(codes(unconfirmed.stdout)).toEqual(['key-unconfirmed']);
    await confirmByMail(key.fingerprint, up.token, key.email);
    const ok = await check();
    expect(ok.exitCode, ok.stdout).toBe(0);
    expect(codes(ok.stdout)).toEqual([]);
    const text = await runCli(['keys', 'check', '--cwd', work.path], { env: env() });
    expect(text.stdout).toContain('keys check: passed');
    expect(text.stderr).toContain(key.fingerprint);
  });

  it('reports key-only-secondary when only the secondary server has the key', async () => {
    const r = await request(`${sb.urls.secondaryKeyserverUrl}/pks/add`, {
      method: 'POST',
      body: new URLSearchParams({ keytext: key.armoredPublicKey }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    await r.body.text();
    expect(r.statusCode).toBe(200);
    const c = await check();
    expect(c.exitCode).toBe(1);
    expect(codes(c.stdout)).toContain('key-only-secondary');
  });

  it('finds the key from gpg\'s default secret key, and reports key-mismatch against a Gradle signing.keyId', async () => {
    await uploadKey(sb, key.armoredPublicKey);
    const gradleHome = path.join(work.path, 'gradle-home');
    await writeFile(path.join(work.path, 'placeholder'), '');
    await execa('mkdir', ['-p', gradleHome]);
    await writeFile(path.join(gradleHome, 'gradle.properties'), 'signing.keyId=0BADC0DE\n');
    const r = await check(['--fingerprint', key.fingerprint], env({ GRADLE_USER_HOME: gradleHome }));
    expect(codes(r.stdout)).toContain('key-mismatch');
    expect(r.exitCode).toBe(1);
    await writeFile(path.join(gradleHome, 'gradle.properties'), `signing.keyId=${key.keyId.slice(-8)}\n`);
    const viaGradle = await check([], env({ GRADLE_USER_HOME: gradleHome }));
    expect(codes(viaGradle.stdout)).not.toContain('key-mismatch');
    expect((JSON.parse(viaGradle.stdout) as { key: { fingerprint: string; source: string } }).key).toMatchObject({
      fingerprint: key.fingerprint,
      source: expect.stringContaining('signing.keyId') as unknown as string,
    });
  });

  it('rejects a malformed fingerprint as a usage error (exit 2)', async () => {
    const r = await runCli(['keys', 'check', '--fingerprint', 'ABC123', '--cwd', work.path], { env: env() });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('40-hex-digit');
  });

  it('ends with exit 3 (environment), not a check verdict, when the key servers keep failing', async () => {
    await control(sb, 'POST', 'faults', { prefix: '/keys', count: 200, status: 503 });
    try {
      const r = await check(['--fingerprint', key.fingerprint]);
      expect(r.exitCode, r.stderr).toBe(3);
      expect(JSON.parse(r.stdout)).toMatchObject({ ok: false });
      expect(r.stderr).toContain('HTTP 503');
      expect(r.stderr).toContain('fix:');
    } finally {
      await control(sb, 'DELETE', 'faults');
    }
  });

  it('reports key-expired and key-expiring from the key as served', async () => {
    const home = await mkdtemp(path.join(os.tmpdir(), 'relctl-gx-'));
    const gpg = (args: string[]) => execa('gpg', ['--batch', '--no-tty', '--passphrase', '', ...args], { env: { GNUPGHOME: home } });
    try {
      // Made in the past with a one-day life: expired today.
      await gpg(['--faked-system-time', '20200101T000000', '--quick-gen-key', 'Old <old@example.invalid>', 'ed25519', 'sign', '1d']);
      await gpg(['--quick-gen-key', 'Soon <soon@example.invalid>', 'ed25519', 'sign', '10d']);
      const list = String((await gpg(['--with-colons', '--list-secret-keys'])).stdout);
      const fprs = list.split('\n').filter((l) => l.startsWith('fpr:')).map((l) => l.split(':')[9]!);
      const [oldFpr, soonFpr] = [fprs[0]!, fprs[fprs.length - 1]!];
      for (const f of [oldFpr, soonFpr]) await uploadKey(sb, String((await gpg(['--armor', '--export', f])).stdout));
      const e = env({ GNUPGHOME: home });
      expect(codes((await check(['--fingerprint', oldFpr], e)).stdout)).toContain('key-expired');
      const soon = await check(['--fingerprint', soonFpr], e);
      expect(codes(soon.stdout)).toContain('key-expiring');
      expect(soon.exitCode).toBe(0);
    } finally {
      await execa('gpgconf', ['--kill', 'gpg-agent'], { env: { GNUPGHOME: home }, reject: false });
      await rm(home, { recursive: true, force: true });
    }
  });
});

describe('relctl keys export and send', () => {
  it('writes the armored public key and prints the upload form URL and the confirmation steps', async () => {
    const out = path.join(work.path, 'pub.asc');
    const r = await runCli(['keys', 'export', '--output', out, '--fingerprint', key.fingerprint, '--cwd', work.path], { env: env() });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(await readFile(out, 'utf8')).toContain('BEGIN PGP PUBLIC KEY BLOCK');
    expect(r.stdout).toContain(`${sb.urls.keyserverUrl}/upload`);
    expect(r.stdout).toContain('link');
  });

  it('exports from a keyring file with openpgp (no gpg needed)', async () => {
    const ring = path.join(work.path, 'secring.gpg');
    await execa('gpg', ['--batch', '--no-tty', '--pinentry-mode', 'loopback', '--passphrase', '', '--export-secret-keys', '-o', ring, key.fingerprint], {
      env: { GNUPGHOME: key.gnupgHome },
    });
    const out = path.join(work.path, 'from-ring.asc');
    const r = await runCli(['keys', 'export', '--keyring', ring, '--output', out, '--json', '--cwd', work.path], { env: env({ GNUPGHOME: '/nonexistent' }) });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ fingerprint: key.fingerprint, file: out });
    const text = await readFile(out, 'utf8');
    expect(text).toContain('BEGIN PGP PUBLIC KEY BLOCK');
    expect(text).not.toContain('PRIVATE');
  });

  it('refuses the retired SKS pool by name, and dry-runs the HKP request', async () => {
    const sks = await runCli(['keys', 'send', '--yes', '--cwd', work.path], {
      env: env({ RELCTL_SECONDARY_KEYSERVER_URL: 'https://pool.sks-keyservers.net' }),
    });
    expect(sks.exitCode).toBe(2);
    expect(sks.stderr).toContain('retired SKS');
    const dry = await runCli(['keys', 'send', '--dry-run', '--cwd', work.path], { env: env() });
    expect(dry.exitCode, dry.stderr).toBe(0);
    expect(dry.stdout).toContain(`would send ${key.fingerprint}`);
    expect(dry.stderr).toContain(`POST ${sb.urls.secondaryKeyserverUrl}/pks/add`);
    const noYes = await runCli(['keys', 'send', '--cwd', work.path], { env: env() });
    expect(noYes.exitCode).toBe(2);
    expect(noYes.stderr).toContain('--yes');
  });
});

describe('keys: honest answers (issue 10 item 6)', () => {
  it('names the real answer of the primary key server, never a made-up 404', async () => {
    const notFound = await check(['--fingerprint', key.fingerprint]);
    expect(notFound.exitCode).toBe(1);
    expect(notFound.stdout).toContain('(HTTP 404)');
    // A server that answers 200 without a key block (a proxy's page) is not a 404 either.
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('nothing here');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const r = await check(['--fingerprint', key.fingerprint], env({ RELCTL_KEYSERVER_URL: url }));
      expect(r.exitCode).toBe(1);
      expect(r.stdout).toContain('(HTTP 200 without a key)');
      expect(r.stdout).not.toContain('(404)');
    } finally {
      server.close();
    }
  });

  it('an unreachable key server is an environment error (exit 3) naming the server and the cause, never key-not-published', async () => {
    const closed = 'http://127.0.0.1:9';
    const r = await check(['--fingerprint', key.fingerprint, '--timeout', '2'], env({ RELCTL_KEYSERVER_URL: closed }));
    expect(r.exitCode, r.stderr).toBe(3);
    const doc = JSON.parse(r.stdout) as { ok: boolean; findings: { code: string }[]; error: { code: string; message: string; fix: string } };
    expect(doc.ok).toBe(false);
    expect(doc.findings.map((f) => f.code)).not.toContain('key-not-published');
    expect(doc.error.code).toBe('keyserver-unavailable');
    expect(doc.error.message).toContain(closed);
    expect(r.stderr).toContain(closed);
    const text = await runCli(['keys', 'check', '--fingerprint', key.fingerprint, '--timeout', '2', '--cwd', work.path], { env: env({ RELCTL_KEYSERVER_URL: closed }) });
    expect(text.exitCode).toBe(3);
    expect(text.stdout + text.stderr).not.toContain('key-not-published');
    expect(text.stdout).not.toContain('passed');
    expect(text.stdout).toContain('incomplete');
  });

  it('keys export writes outside the project by default (the worktree stays clean), --output - prints the key', async () => {
    const project = path.join(work.path, 'export-project');
    await gitRepo(project, work.path, { 'pom.xml': '<project/>\n' });
    const r = await runCli(['keys', 'export', '--fingerprint', key.fingerprint, '--json', '--cwd', project], { env: env({ HOME: work.path }) });
    expect(r.exitCode, r.stderr).toBe(0);
    const file = (JSON.parse(r.stdout) as { file: string }).file;
    expect(path.relative(project, file).startsWith('..')).toBe(true);
    expect(file.startsWith(os.tmpdir())).toBe(true);
    expect(await readFile(file, 'utf8')).toContain('BEGIN PGP PUBLIC KEY BLOCK');
    expect(await git(project, work.path, 'status', '--porcelain')).toBe('');
    await rm(file, { force: true });
    const stdout = await runCli(['keys', 'export', '--fingerprint', key.fingerprint, '--output', '-', '--cwd', project], { env: env() });
    expect(stdout.exitCode, stdout.stderr).toBe(0);
    expect(stdout.stdout).toContain('BEGIN PGP PUBLIC KEY BLOCK');
    expect(stdout.stderr).toContain(`${sb.urls.keyserverUrl}/upload`);
  });

  it('keys send keeps the path of the key server URL (the sandbox secondary lives under /keys2)', async () => {
    expect(new URL(sb.urls.secondaryKeyserverUrl).pathname).toBe('/keys2');
    const r = await runCli(['keys', 'send', '--yes', '--fingerprint', key.fingerprint, '--cwd', work.path], { env: env() });
    expect(r.exitCode, r.stderr).toBe(0);
    const found = await request(`${sb.urls.secondaryKeyserverUrl}/pks/lookup?op=get&options=mr&search=0x${key.fingerprint}`);
    expect(found.statusCode).toBe(200);
    expect(await found.body.text()).toContain('BEGIN PGP PUBLIC KEY BLOCK');
  });
});
