import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir, type TempDir } from '../helpers/temp.js';
import { call } from '../integration/sandbox-fixture.js';
import { pomXml, sandboxEnv, stage, startSandbox, writeComponent } from './upload-helpers.js';

/**
 * A -SNAPSHOT in a release upload is refused before anything reaches the portal (issue 42 item
 * 5): the portal would fail it ("version cannot be a SNAPSHOT") and block the namespace.
 */
let sb: Awaited<ReturnType<typeof startSandbox>>;
let work: TempDir;

beforeAll(async () => {
  sb = await startSandbox();
  work = await tempDir();
});
afterAll(async () => {
  await sb?.close();
  await work?.[Symbol.asyncDispose]();
});

describe('relctl upload of a -SNAPSHOT', () => {
  it('is refused with exit 1 even under --no-verify, and the staged repository stays open', async () => {
    const c = { groupId: 'org.example', artifactId: 'demo', version: '1.0.1-SNAPSHOT' };
    await stage(sb, await writeComponent(path.join(work.path, 'staged'), undefined, c));
    const dir = path.join(work.path, 'project');
    await mkdir(path.join(dir, 'target'), { recursive: true });
    await writeFile(path.join(dir, 'pom.xml'), pomXml(c));
    await writeFile(path.join(dir, 'target', 'demo-1.0.1-SNAPSHOT.jar'), 'PK jar');
    const r = await runCli(['upload', '--group-id', 'org.example', '--yes', '--no-verify', '--json', '--cwd', dir], { home: work.path, env: sandboxEnv(sb) });
    expect(r.exitCode).toBe(1);
    const doc = JSON.parse(r.stdout) as { error: { code: string; message: string; fix: string } };
    expect(doc.error.code).toBe('snapshot-in-release');
    expect(doc.error.message).toContain('1.0.1-SNAPSHOT');
    expect(doc.error.fix).toContain('maven-snapshots');
    const state = (await call(`http://127.0.0.1:${sb.port}/sandbox/state`)).json() as { deployments: unknown[]; repositories: { state: string }[] };
    expect(state.deployments).toEqual([]);
    expect(state.repositories.map((x) => x.state)).toEqual(['open']);
  });
});
