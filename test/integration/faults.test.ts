import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import type { TestKey } from '../helpers/gpg.js';
import type { TempDir } from '../helpers/temp.js';
import { control, sandboxEnv, stage, writeComponent, type SandboxFixture, useSandboxFixture } from './upload-helpers.js';

let sb: SandboxFixture['sb'];
let key: TestKey;
let work: TempDir;
let n = 0;

useSandboxFixture((fx) => {
  ({ sb, key, work } = fx);
});

async function stageDemo(): Promise<void> {
  await stage(sb, await writeComponent(path.join(work.path, `s${++n}`), key, { groupId: 'org.example', artifactId: 'demo', version: '1.0.0' }));
}
const fault = (f: Record<string, unknown>) => control(sb, 'POST', 'faults', f);
const search = (extra: string[] = []) => runCli(['search', '--group-id', 'org.example', '--json', '--cwd', work.path, ...extra], { env: sandboxEnv(sb) });
const state = async () => (await control(sb, 'GET', 'state')) as { repositories: { state: string }[]; deployments: unknown[]; faults: unknown[] };

describe('fault injection: GETs survive, POSTs are never doubled, persistent faults end with exit 3', () => {
  it('a GET survives a burst of 503, connection resets, and 429 with Retry-After', async () => {
    await stageDemo();
    await fault({ prefix: '/staging/manual/search', count: 3, status: 503 });
    expect((await search()).exitCode).toBe(0);
    await fault({ prefix: '/staging/manual/search', count: 2, reset: true });
    expect((await search()).exitCode).toBe(0);
    await fault({ prefix: '/staging/manual/search', count: 1, retryAfter: 1 });
    const r = await search(['--verbose']);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain('HTTP 429');
    expect((await state()).faults).toEqual([]);
  });

  it('a GET answered after its deadline ends the command at the deadline (--timeout covers every retry): exit 3, naming the timeout', async () => {
    await stageDemo();
    await fault({ prefix: '/staging/manual/search', count: 1, delayMs: 2500 });
    const r = await runCli(['search', '--group-id', 'org.example', '--timeout', '1', '--json', '--cwd', work.path], { env: sandboxEnv(sb) });
    // A retry would have been answered at once (the fault covers one request): exit 3 proves none came.
    expect(r.exitCode).toBe(3);
    expect(JSON.parse(r.stdout)).toMatchObject({ ok: false, error: { kind: 'timeout' } });
    expect(r.stderr).toContain('no complete answer within 1 s');
    // Within a longer deadline the same slow answer is simply waited for.
    await fault({ prefix: '/staging/manual/search', count: 1, delayMs: 1000 });
    const ok = await runCli(['search', '--group-id', 'org.example', '--timeout', '5', '--json', '--cwd', work.path], { env: sandboxEnv(sb) });
    expect(ok.exitCode, ok.stderr).toBe(0);
    expect((JSON.parse(ok.stdout) as { repositories: unknown[] }).repositories).toHaveLength(1);
  });

  it('a persistent fault ends with exit 3 and a clear message, no stack', async () => {
    await fault({ prefix: '/staging/manual/search', count: 50, status: 503 });
    const r = await runCli(['search', '--group-id', 'org.example', '--cwd', work.path], { env: sandboxEnv(sb) });
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toContain('HTTP 503');
    expect(r.stderr).toContain('fix:');
    expect(r.stderr).not.toMatch(/\n\s+at /);
    await control(sb, 'DELETE', 'faults');
    await fault({ prefix: '/staging/manual/search', count: 50, reset: true });
    const reset = await runCli(['search', '--group-id', 'org.example', '--cwd', work.path], { env: sandboxEnv(sb) });
    expect(reset.exitCode).toBe(3);
    expect(reset.stderr).toContain('connection reset');
  });

  it('a POST answered 503 is not repeated: exit 3, the repository is still open, one upload later works', async () => {
    await stageDemo();
    await fault({ prefix: '/staging/manual/upload', method: 'POST', count: 1, status: 503 });
    const r = await runCli(['upload', '--group-id', 'org.example', '--yes', '--no-verify', '--cwd', work.path], { env: sandboxEnv(sb) });
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toContain('relctl search');
    const s = await state();
    expect(s.deployments).toHaveLength(0);
    expect(s.repositories.map((x) => x.state)).toEqual(['open']);
    const again = await runCli(['upload', '--group-id', 'org.example', '--yes', '--no-verify', '--cwd', work.path], { env: sandboxEnv(sb) });
    expect(again.exitCode, again.stderr).toBe(0);
    expect((await state()).deployments).toHaveLength(1);
  });

  it('a POST whose connection is reset is decided by a search first, and makes exactly one deployment', async () => {
    await stageDemo();
    await fault({ prefix: '/staging/manual/upload', method: 'POST', count: 1, reset: true });
    const r = await runCli(['upload', '--group-id', 'org.example', '--yes', '--no-verify', '--json', '--verbose', '--cwd', work.path], { env: sandboxEnv(sb) });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain('searching before deciding');
    expect((JSON.parse(r.stdout) as { deploymentId: string }).deploymentId).toMatch(/^[0-9a-f-]{36}$/);
    expect((await state()).deployments).toHaveLength(1);
  });

  it('a POST answered after the timeout makes one deployment, never two', async () => {
    await stageDemo();
    await fault({ prefix: '/staging/manual/upload', method: 'POST', count: 1, delayMs: 1500 });
    const r = await runCli(['upload', '--group-id', 'org.example', '--yes', '--no-verify', '--timeout', '1', '--json', '--cwd', work.path], { env: sandboxEnv(sb) });
    // Either relctl saw the deployment on its search, or it uploaded once more itself: one deployment either way.
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect((await state()).deployments).toHaveLength(1);
    expect([0, 1, 3]).toContain(r.exitCode);
  });

  it('a publish whose connection is reset is settled by a status call, not by publishing twice', async () => {
    await stageDemo();
    const up = await runCli(['upload', '--group-id', 'org.example', '--yes', '--no-verify', '--json', '--cwd', work.path], { env: sandboxEnv(sb) });
    const id = (JSON.parse(up.stdout) as { deploymentId: string }).deploymentId;
    await fault({ prefix: '/portal/api/v1/publisher/deployment', method: 'POST', count: 1, reset: true });
    const r = await runCli(['publish', '--deployment', id, '--yes', '--cwd', work.path], { env: sandboxEnv(sb) });
    // The reset came before the portal acted: relctl must not claim success, and must say what to check.
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toContain('relctl status');
    expect(r.stderr).toContain(id);
    const again = await runCli(['publish', '--deployment', id, '--yes', '--cwd', work.path], { env: sandboxEnv(sb) });
    expect(again.exitCode, again.stderr).toBe(0);
  });

  it('status --wait that runs out while VALIDATING is not a failure: exit 0, the id and the command to check again', async () => {
    await fault({
      prefix: '/portal/api/v1/publisher/status',
      count: 1000,
      status: 200,
      body: { deploymentId: 'd-1', deploymentState: 'VALIDATING', purls: ['pkg:maven/org.example/demo@1.0.0'], unknownField: { x: 1 } },
    });
    const r = await runCli(['status', '--deployment', 'd-1', '--wait', '--wait-timeout', '2', '--cwd', work.path], { env: sandboxEnv(sb) });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('VALIDATING');
    expect(r.stdout).not.toContain('FAILED');
    expect(r.stderr).toContain('not a failure');
    expect(r.stderr).toContain('relctl status --deployment d-1 --wait');
    const j = await runCli(['status', '--deployment', 'd-1', '--wait', '--wait-timeout', '1', '--json', '--cwd', work.path], { env: sandboxEnv(sb) });
    expect(JSON.parse(j.stdout)).toMatchObject({ ok: true, settled: false, timedOut: true, state: 'VALIDATING', deploymentId: 'd-1' });
  });
});
