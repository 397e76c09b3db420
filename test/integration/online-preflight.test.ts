import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { createTestKey, type TestKey } from '../helpers/gpg.js';
import { gitRepo, tempDir, type TempDir } from '../helpers/temp.js';
import { basic, control, pomXml, sandboxEnv, stage, startSandbox, uploadKey, writeComponent } from './upload-helpers.js';

type Sb = Awaited<ReturnType<typeof startSandbox>>;
let sb: Sb;
let key: TestKey;
let work: TempDir;
let project: string;

const onlineCodes = new Set([
  'missing-credentials',
  'token-rejected',
  'namespace-blocked',
  'key-not-published',
  'key-only-secondary',
  'key-unconfirmed',
  'key-expired',
  'key-expiring',
  'key-mismatch',
]);

beforeAll(async () => {
  sb = await startSandbox();
  key = await createTestKey();
  work = await tempDir();
  project = path.join(work.path, 'project');
  await gitRepo(project, work.path, { 'pom.xml': pomXml({ groupId: 'org.example', artifactId: 'demo', version: '1.0.1-SNAPSHOT' }) });
});
afterAll(async () => {
  await sb?.close();
  await key?.cleanup();
  await work?.[Symbol.asyncDispose]();
});
beforeEach(async () => {
  await control(sb, 'POST', 'reset');
});

async function preflight(env: Record<string, string | undefined>, extra: string[] = []): Promise<string[]> {
  const r = await runCli(['preflight', '--json', '--cwd', project, '--fingerprint', key.fingerprint, ...extra], {
    home: work.path,
    env: { GNUPGHOME: key.gnupgHome, ...env },
  });
  expect([0, 1], r.stderr).toContain(r.exitCode);
  const doc = JSON.parse(r.stdout) as { findings: { code: string }[] };
  return doc.findings.map((f) => f.code).filter((c) => onlineCodes.has(c));
}

describe('preflight online checks', () => {
  it('reports missing-credentials and key-not-published; --offline skips both', async () => {
    const env: Record<string, string | undefined> = { ...sandboxEnv(sb), RELCTL_TOKEN_USERNAME: undefined, RELCTL_TOKEN_PASSWORD: undefined };
    expect(await preflight(env)).toEqual(expect.arrayContaining(['missing-credentials', 'key-not-published']));
    expect(await preflight(env, ['--offline'])).toEqual([]);
  });

  it('reports token-rejected for a token the portal refuses', async () => {
    await uploadKey(sb, key.armoredPublicKey);
    const codes = await preflight(sandboxEnv(sb, { name: 'sandbox', password: 'not-the-token' }));
    expect(codes).toContain('token-rejected');
    expect(codes).not.toContain('key-not-published');
  });

  it('reports namespace-blocked while a failed deployment exists, and nothing once it is dropped', async () => {
    await uploadKey(sb, key.armoredPublicKey);
    await stage(sb, await writeComponent(path.join(work.path, 'bad'), key, { groupId: 'org.example', artifactId: 'demo', version: '1.0.0', developers: false }));
    const { request } = await import('undici');
    const up = await request(`${sb.urls.stagingApiUrl}/manual/upload/defaultRepository/org.example`, {
      method: 'POST',
      headers: { authorization: basic(sb.users[0]!) },
    });
    const body = (await up.body.json()) as { deploymentId: string };
    expect(up.statusCode).toBe(400);
    const codes = await preflight(sandboxEnv(sb));
    expect(codes).toContain('namespace-blocked');
    const drop = await runCli(['drop', '--deployment', body.deploymentId, '--yes', '--cwd', project], { env: sandboxEnv(sb) });
    expect(drop.exitCode, drop.stderr).toBe(0);
    expect(await preflight(sandboxEnv(sb))).not.toContain('namespace-blocked');
  });

  it('ends with exit 3 and ok false, never a silent pass, when the staging API keeps failing', async () => {
    await uploadKey(sb, key.armoredPublicKey);
    await control(sb, 'POST', 'faults', { prefix: '/staging/manual/search', count: 200, status: 503 });
    const r = await runCli(['preflight', '--json', '--cwd', project, '--fingerprint', key.fingerprint, '--timeout', '2'], {
      home: work.path,
      env: { GNUPGHOME: key.gnupgHome, ...sandboxEnv(sb) },
    });
    expect(r.exitCode, r.stderr).toBe(3);
    const doc = JSON.parse(r.stdout) as { ok: boolean; findings: unknown[]; error: { code: string; message: string } };
    expect(Object.keys(doc)).toEqual(['ok', 'findings', 'skipped', 'route', 'publishingBudget', 'error']);
    expect(doc.ok).toBe(false);
    expect(doc.error).toMatchObject({ code: 'service-unreachable', message: expect.stringContaining('HTTP 503') as unknown });
    expect(r.stderr).toContain('HTTP 503');
    expect(r.stderr).toContain('fix:');
  });

  it('ends with exit 3, not a pass, when the key servers answer nothing within the time bound', async () => {
    await uploadKey(sb, key.armoredPublicKey);
    // Every key-server answer is held back longer than preflight's bound (three times --timeout).
    await control(sb, 'POST', 'faults', { prefix: '/keys', count: 50, delayMs: 6000 });
    await control(sb, 'POST', 'faults', { prefix: '/keys2', count: 50, delayMs: 6000 });
    const r = await runCli(['preflight', '--json', '--cwd', project, '--fingerprint', key.fingerprint, '--timeout', '1'], {
      home: work.path,
      env: { GNUPGHOME: key.gnupgHome, ...sandboxEnv(sb) },
    });
    await control(sb, 'DELETE', 'faults');
    expect(r.exitCode, r.stderr).toBe(3);
    expect((JSON.parse(r.stdout) as { ok: boolean }).ok).toBe(false);
    // Each lookup's own deadline (--timeout, retries included) now ends it before preflight's bound does.
    expect(r.stderr).toMatch(/no answer from the key servers within 3 s|no complete answer within 1 s/);
  });
});
