/**
 * `relctl drop --deployment` only where the portal allows it (VALIDATED, FAILED): a deployment
 * still being validated, or published, is refused before any DELETE, with what to do instead.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startHostileServer, type HostileServer } from '../helpers/hostile-server.js';
import type { TestKey } from '../helpers/gpg.js';
import type { TempDir } from '../helpers/temp.js';
import { sandboxEnv, stage, writeComponent, type SandboxFixture, useSandboxFixture } from './upload-helpers.js';

let sb: SandboxFixture['sb'];
let key: TestKey;
let work: TempDir;
useSandboxFixture((fx) => {
  ({ sb, key, work } = fx);
});

let portal: HostileServer;
beforeAll(async () => {
  portal = await startHostileServer('json');
});
afterAll(async () => {
  await portal?.close();
});

const cli = (args: string[], env: Record<string, string> = sandboxEnv(sb)) => runCli([...args, '--cwd', work.path], { env });

describe('relctl drop --deployment', () => {
  it('refuses a VALIDATING deployment without sending the DELETE, and says to wait', async () => {
    const id = '6c1f0c3e-8f43-4b8e-9d59-0f6d3f3f9e11';
    portal.body = { deploymentId: id, deploymentState: 'VALIDATING', purls: [] };
    const env = { RELCTL_STAGING_API_URL: portal.url, RELCTL_PORTAL_URL: portal.url, RELCTL_TOKEN_USERNAME: 'u', RELCTL_TOKEN_PASSWORD: 'p' };
    const r = await cli(['drop', '--deployment', id, '--yes', '--json'], env);
    expect(r.exitCode, r.stderr).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ ok: false, error: { code: 'not-droppable', deploymentId: id, state: 'VALIDATING' } });
    expect(r.stdout).toContain('drops only VALIDATED or FAILED');
    expect(r.stdout).toContain(`relctl status --deployment ${id} --wait`);
    expect(portal.requests.map((q) => q.method)).not.toContain('DELETE');
  });

  it('drops a VALIDATED deployment of the sandbox without calling the namespace blocked, and refuses a PUBLISHED one', async () => {
    await stage(sb, await writeComponent(path.join(work.path, 'v'), key, { groupId: 'org.example', artifactId: 'demo', version: '1.0.0' }));
    const up = await cli(['upload', '--group-id', 'org.example', '--yes', '--no-verify', '--json']);
    const id = (JSON.parse(up.stdout) as { deploymentId: string }).deploymentId;
    const drop = await cli(['drop', '--deployment', id, '--yes']);
    expect(drop.exitCode, drop.stderr).toBe(0);
    expect(drop.stdout).toContain(`Dropped deployment ${id}`);
    expect(drop.stderr).not.toContain('unblocked');

    await stage(sb, await writeComponent(path.join(work.path, 'p'), key, { groupId: 'org.example', artifactId: 'demo', version: '1.0.1' }));
    const up2 = await cli(['upload', '--group-id', 'org.example', '--yes', '--no-verify', '--json']);
    const published = (JSON.parse(up2.stdout) as { deploymentId: string }).deploymentId;
    expect((await cli(['publish', '--deployment', published, '--yes'])).exitCode).toBe(0);
    const refused = await cli(['drop', '--deployment', published, '--yes']);
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toContain('cannot be dropped');
  });
});
