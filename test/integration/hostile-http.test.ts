/**
 * Every portal command against a hostile server (test/helpers/hostile-server.ts): none may hang
 * past its deadline, grow memory, follow a redirect, or call an answer that is not the API's a
 * success. Each run is the built CLI; time and peak memory are the child's own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHostileServer, type HostileMode, type HostileServer } from '../helpers/hostile-server.js';
import { runCliMeasured } from '../helpers/measure.js';
import { tempDir, type TempDir } from '../helpers/temp.js';

const timeoutS = 1;
const id = '6c1f0c3e-8f43-4b8e-9d59-0f6d3f3f9e11';
const key = '***/127.0.0.1/org.example--default-repository';

let server: HostileServer;
let cwd: TempDir;
beforeAll(async () => {
  server = await startHostileServer();
  cwd = await tempDir();
});
afterAll(async () => {
  await server?.close();
  await cwd?.[Symbol.asyncDispose]();
});

function env(url: string): Record<string, string> {
  return { RELCTL_STAGING_API_URL: url, RELCTL_PORTAL_URL: url, RELCTL_TOKEN_USERNAME: 'hostile-user', RELCTL_TOKEN_PASSWORD: 'hostile-pass' };
}

/** The commands, and whether their first request is one that may have acted (a DELETE). */
const commands: { name: string; args: string[]; mutatesFirst?: boolean }[] = [
  { name: 'search', args: ['search', '--group-id', 'org.example'] },
  { name: 'upload', args: ['upload', '--group-id', 'org.example', '--yes', '--no-verify'] },
  { name: 'status', args: ['status', '--deployment', id] },
  { name: 'status --wait', args: ['status', '--deployment', id, '--wait', '--wait-timeout', '30'] },
  { name: 'drop', args: ['drop', '--repository-key', key, '--yes'], mutatesFirst: true },
  { name: 'publish', args: ['publish', '--deployment', id, '--yes'] },
];

const expected: Record<Exclude<HostileMode, 'json'>, { code: string; says: string; codeIfMutating?: string }> = {
  drip: { code: 'timeout', says: `no complete answer within ${timeoutS} s`, codeIfMutating: 'request-ambiguous' },
  'slow-headers': { code: 'timeout', says: `no complete answer within ${timeoutS} s`, codeIfMutating: 'request-ambiguous' },
  flood: { code: 'unexpected-response', says: 'more than 4 MiB' },
  html: { code: 'unexpected-response', says: 'HTML page' },
  redirect: { code: 'redirect-refused', says: 'a redirect to 127.0.0.2' },
  reset: { code: 'network', says: 'connection reset', codeIfMutating: 'request-ambiguous' },
  'wrong-type': { code: 'unexpected-response', says: 'Content-Type text/plain' },
};

const errorCode = (stdout: string): unknown => {
  const doc = JSON.parse(stdout) as { ok: boolean; error: { code?: string; kind?: string } };
  expect(doc.ok).toBe(false);
  return doc.error.code ?? doc.error.kind;
};

describe('portal commands against a hostile server', () => {
  for (const [mode, want] of Object.entries(expected) as [Exclude<HostileMode, 'json'>, (typeof expected)[keyof typeof expected]][]) {
    it(`${mode}: exit 3 naming the problem, ended within the deadline + 1 s of its first request, under 300 MB`, async () => {
      server.mode = mode;
      for (const c of commands) {
        const before = server.requests.length;
        const r = await runCliMeasured([...c.args, '--json', '--timeout', String(timeoutS), '--cwd', cwd.path], { env: env(server.url), killAfterMs: 20_000 });
        const label = `${c.name} (${mode}): ${r.stderr}`;
        expect(r.exitCode, label).toBe(3);
        expect(errorCode(r.stdout), label).toBe(c.mutatesFirst === true && want.codeIfMutating !== undefined ? want.codeIfMutating : want.code);
        expect(r.stderr, label).toContain(want.says);
        expect(r.stderr).not.toMatch(/\n\s+at /);
        // The deadline starts with the first request; node's own start-up (seconds on a loaded
        // two-core machine) is not the HTTP policy's to bound.
        const firstRequest = server.requests[before]?.at;
        expect(firstRequest, label).toBeDefined();
        expect(r.endedAt - firstRequest!, label).toBeLessThanOrEqual(timeoutS * 1000 + 1000);
        expect(r.elapsedMs, label).toBeLessThan(15_000);
        expect(r.peakMiB, label).toBeLessThan(300);
        // "May or may not have acted" only for a request that can have changed something.
        if (c.mutatesFirst !== true) expect(r.stderr, label).not.toContain('may or may not');
        // No redirect followed, no retry of an answer that is not the API's.
        if (mode === 'redirect' || mode === 'html' || mode === 'wrong-type' || mode === 'flood') expect(server.requests.length - before, label).toBe(1);
      }
    });
  }

  it('a refused connection provably did nothing: no "may or may not", says nothing was sent', async () => {
    const closed = await startHostileServer();
    const url = closed.url;
    await closed.close();
    const r = await runCliMeasured(['drop', '--repository-key', key, '--yes', '--timeout', '2', '--cwd', cwd.path], { env: env(url) });
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toContain('connection refused');
    expect(r.stderr).toContain('Nothing was sent');
    expect(r.stderr).not.toContain('may or may not');
    expect(r.elapsedMs).toBeLessThan(15_000);
  });

  it('a well-formed JSON answer is still accepted (the policy refuses only what is not the API)', async () => {
    server.mode = 'json';
    server.body = { repositories: [{ key: 'hostile-user/127.0.0.1/org.example--default-repository', state: 'open', portal_deployment_id: null, extra: 1 }] };
    const r = await runCliMeasured(['search', '--group-id', 'org.example', '--json', '--cwd', cwd.path], { env: env(server.url) });
    expect(r.exitCode, r.stderr).toBe(0);
    // The token user starts the key: printed masked, as <token user>.
    expect(JSON.parse(r.stdout)).toMatchObject({ ok: true, repositories: [{ key: '<token user>/127.0.0.1/org.example--default-repository', state: 'open' }] });
  });
});
