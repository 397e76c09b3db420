import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import type { TestKey } from '../helpers/gpg.js';
import type { TempDir } from '../helpers/temp.js';
import { sandboxEnv, stage, writeComponent, type SandboxFixture, useSandboxFixture } from './upload-helpers.js';

let sb: SandboxFixture['sb'];
let key: TestKey;
let work: TempDir;
let n = 0;

useSandboxFixture((fx) => {
  ({ sb, key, work } = fx);
});

async function uploaded(): Promise<string> {
  await stage(sb, await writeComponent(path.join(work.path, `s${++n}`), key, { groupId: 'org.example', artifactId: 'demo', version: '1.0.0' }));
  const r = await runCli(['upload', '--group-id', 'org.example', '--yes', '--no-verify', '--json', '--cwd', work.path], { env: sandboxEnv(sb) });
  expect(r.exitCode, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { deploymentId: string }).deploymentId;
}
const cli = (args: string[]) => runCli([...args, '--cwd', work.path], { env: sandboxEnv(sb) });

describe('relctl publish, status and drop', () => {
  it('publish shows the components, needs --yes without a terminal, dry-runs, then publishes; status says PUBLISHED', async () => {
    const id = await uploaded();
    const ask = await cli(['publish', '--deployment', id]);
    expect(ask.exitCode).toBe(2);
    expect(ask.stderr).toContain('--yes');
    expect(ask.stderr).toContain('pkg:maven/org.example/demo@1.0.0');

    const dry = await cli(['publish', '--deployment', id, '--dry-run']);
    expect(dry.exitCode).toBe(0);
    expect(dry.stdout).toContain(`would publish ${id}`);
    expect((await cli(['status', '--deployment', id, '--json'])).stdout).toContain('"VALIDATED"');

    const pub = await cli(['publish', '--deployment', id, '--yes', '--json']);
    expect(pub.exitCode, pub.stderr).toBe(0);
    expect(JSON.parse(pub.stdout)).toMatchObject({ ok: true, deploymentId: id });
    const st = await cli(['status', '--deployment', id, '--wait', '--wait-timeout', '20', '--json']);
    expect(st.exitCode).toBe(0);
    expect(JSON.parse(st.stdout)).toMatchObject({ state: 'PUBLISHED', settled: true, actionRequired: null });
    const again = await cli(['publish', '--deployment', id, '--yes']);
    expect(again.exitCode).toBe(0);
    expect(again.stdout).toContain('already PUBLISHED');
  });

  it('status finds the latest deployment of a namespace without an id', async () => {
    const id = await uploaded();
    const fresh = path.join(work.path, `fresh${++n}`);
    await mkdir(fresh, { recursive: true });
    const r = await runCli(['status', '--group-id', 'org.example', '--json', '--cwd', fresh], { env: sandboxEnv(sb) });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ deploymentId: id, state: 'VALIDATED', actionRequired: 'publish' });
  });

  it('drop --repository-key removes an open staging repository; drop needs exactly one target', async () => {
    await stage(sb, await writeComponent(path.join(work.path, `s${++n}`), key, { groupId: 'org.example', artifactId: 'demo', version: '1.0.0' }));
    const s = await cli(['search', '--group-id', 'org.example', '--json']);
    const k = (JSON.parse(s.stdout) as { repositories: { key: string }[] }).repositories[0]!.key;
    const both = await cli(['drop', '--repository-key', k, '--deployment', 'x']);
    expect(both.exitCode).toBe(2);
    const drop = await cli(['drop', '--repository-key', k, '--yes']);
    expect(drop.exitCode, drop.stderr).toBe(0);
    const after = await cli(['search', '--group-id', 'org.example', '--state', 'open', '--json']);
    expect((JSON.parse(after.stdout) as { repositories: unknown[] }).repositories).toEqual([]);
  });

  it('an unknown deployment id is reported with the id (not a crash)', async () => {
    const r = await cli(['status', '--deployment', '00000000-0000-0000-0000-000000000000', '--json']);
    expect(r.exitCode).not.toBe(0);
    expect(r.exitCode).not.toBe(3);
    expect(JSON.parse(r.stdout)).toMatchObject({ ok: false, error: { deploymentId: '00000000-0000-0000-0000-000000000000' } });
  });
});
