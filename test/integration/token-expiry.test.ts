import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { gitRepo, tempDir, type TempDir } from '../helpers/temp.js';
import { pomXml, sandboxEnv, startSandbox } from './upload-helpers.js';

/**
 * Portal tokens as they are made now (issue 42 item 6): on the portal's /usertoken page, named,
 * with an expiry. A wrong token and an expired one both get 401; relctl tells them apart where
 * the answer says which (the sandbox names the expiry, RFC 6750 style).
 */
let sb: Awaited<ReturnType<typeof startSandbox>>;
let work: TempDir;
let project: string;
const expired = { name: 'old-token', password: 'old-token-pw', expires: '2026-01-01T00:00:00Z' };

beforeAll(async () => {
  sb = await startSandbox({ users: [{ name: 'sandbox', password: 'sandbox' }, expired] });
  work = await tempDir();
  project = path.join(work.path, 'project');
  await gitRepo(project, work.path, { 'pom.xml': pomXml({ groupId: 'org.example', artifactId: 'demo', version: '1.0.1-SNAPSHOT' }) });
});
afterAll(async () => {
  await sb?.close();
  await work?.[Symbol.asyncDispose]();
});

interface ErrorDoc {
  ok: boolean;
  error: { code: string; message: string; fix: string };
}

async function search(token: { name: string; password: string }): Promise<{ exitCode: number; doc: ErrorDoc }> {
  const r = await runCli(['search', '--group-id', 'org.example', '--json', '--cwd', project], { home: work.path, env: sandboxEnv(sb, token) });
  return { exitCode: r.exitCode, doc: JSON.parse(r.stdout) as ErrorDoc };
}

describe('401 from the portal', () => {
  it('a wrong token: token-rejected, the fix names the /usertoken page, a name and an expiry', async () => {
    const { exitCode, doc } = await search({ name: 'sandbox', password: 'not-the-token' });
    expect(exitCode).toBe(3);
    expect(doc.error.code).toBe('token-rejected');
    expect(doc.error.fix).toContain(`${sb.urls.portalUrl}/usertoken`);
    expect(doc.error.fix).toMatch(/name and an expiry/);
    expect(doc.error.fix).not.toContain('profile menu');
  });

  it('an expired token: token-expired, said so, with the page to make a new one', async () => {
    const { exitCode, doc } = await search(expired);
    expect(exitCode).toBe(3);
    expect(doc.error.code).toBe('token-expired');
    expect(doc.error.message).toMatch(/token has expired/);
    expect(doc.error.fix).toContain(`${sb.urls.portalUrl}/usertoken`);
  });

  it('preflight online: the token-rejected finding says the token expired', async () => {
    const r = await runCli(['preflight', '--json', '--only', 'online', '--cwd', project], { home: work.path, env: sandboxEnv(sb, expired) });
    const doc = JSON.parse(r.stdout) as { findings: { code: string; message: string; fix: string }[] };
    const finding = doc.findings.find((f) => f.code === 'token-rejected');
    expect(finding?.message).toMatch(/expired/);
    expect(finding?.fix).toContain(`${sb.urls.portalUrl}/usertoken`);
  });
});
