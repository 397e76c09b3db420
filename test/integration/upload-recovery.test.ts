/**
 * Recovery by identity and the upload's journal, against the sandbox with fault injection; the
 * upload's own checks (verify first, the file count and bytes, --yes, the project's groupId).
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { UploadRecord } from '../../src/io/journal.js';
import { runCli } from '../helpers/cli.js';
import { startHostileServer } from '../helpers/hostile-server.js';
import type { TestKey } from '../helpers/gpg.js';
import type { TempDir } from '../helpers/temp.js';
import { control, sandboxEnv, stage, writeComponent, type ComponentSpec, type SandboxFixture, useSandboxFixture } from './upload-helpers.js';

let sb: SandboxFixture['sb'];
let key: TestKey;
let work: TempDir;
let n = 0;

useSandboxFixture((fx) => {
  ({ sb, key, work } = fx);
});

interface SandboxState {
  repositories: { key: string; state: string; portalDeploymentId: string | null }[];
  deployments: { id: string; state: string }[];
}
const state = async () => (await control(sb, 'GET', 'state')) as SandboxState;
const journalOf = async (dir: string) =>
  JSON.parse(await readFile(path.join(dir, '.relctl', 'journal.json'), 'utf8')) as { uploads: UploadRecord[]; deploymentId?: string };

/** A Gradle-shaped project whose build output (build/staging-deploy) holds the component, also staged to the sandbox. */
async function project(spec: Partial<ComponentSpec> = {}, options: { stageIt?: boolean; declareGroup?: boolean } = {}): Promise<string> {
  const dir = path.join(work.path, `p${++n}`);
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, 'build.gradle'), "plugins { id 'java' }\n");
  await writeFile(path.join(dir, 'settings.gradle'), "rootProject.name = 'demo'\n");
  if (options.declareGroup !== false) await writeFile(path.join(dir, 'gradle.properties'), 'group=org.example\nversion=1.0.1-SNAPSHOT\n');
  const files = await writeComponent(path.join(dir, 'build', 'staging-deploy'), key, { groupId: 'org.example', artifactId: 'demo', version: '1.0.0', ...spec });
  if (options.stageIt !== false) await stage(sb, files);
  return dir;
}
const cli = (args: string[], cwd: string) => runCli([...args, '--cwd', cwd], { env: sandboxEnv(sb) });

describe('upload recovery by identity', () => {
  it('a lost answer after the POST was applied adopts the new deployment, never the older PUBLISHED one with the same key', async () => {
    const first = await project({ version: '1.0.0' });
    const up = await cli(['upload', '--group-id', 'org.example', '--yes', '--json'], first);
    expect(up.exitCode, up.stderr).toBe(0);
    const old = (JSON.parse(up.stdout) as { deploymentId: string }).deploymentId;
    expect((await cli(['publish', '--deployment', old, '--yes'], first)).exitCode).toBe(0);

    const second = await project({ version: '1.0.1' });
    await control(sb, 'POST', 'faults', { prefix: '/staging/manual/upload', method: 'POST', dropAnswer: true });
    const r = await cli(['upload', '--group-id', 'org.example', '--yes', '--json', '--verbose'], second);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain('searching before deciding');
    const s = await state();
    expect(s.deployments.map((d) => d.state).sort()).toEqual(['PUBLISHED', 'VALIDATED']);
    const made = s.deployments.find((d) => d.state === 'VALIDATED')!.id;
    expect(made).not.toBe(old);
    // Both repositories carry the same key: only identity tells them apart.
    expect(new Set(s.repositories.map((x) => x.key)).size).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ ok: true, recovered: true, deploymentId: made });
    const j = await journalOf(second);
    expect(j.deploymentId).toBe(made);
    expect(j.uploads.at(-1)).toMatchObject({ outcome: 'recovered', deploymentId: made, groupId: 'org.example' });
    const st = await cli(['status', '--json'], second);
    expect(JSON.parse(st.stdout)).toMatchObject({ deploymentId: made, state: 'VALIDATED' });
  });

  it('an ambiguous POST whose follow-up search fails too is request-ambiguous (exit 3) with the exact search to run, and journaled', async () => {
    await using server = await startHostileServer();
    const open = { repositories: [{ key: 'tok-user/127.0.0.1/org.example--default-repository', state: 'open', portal_deployment_id: null }] };
    // Every search before the POST answers (the namespace's, then the snapshot's); the POST and all after it lose their answer.
    let posted = false;
    server.route = (req) => {
      if (req.method === 'POST') posted = true;
      return posted ? { mode: 'reset' } : { mode: 'json', body: open };
    };
    const dir = await project({}, { stageIt: false });
    const r = await runCli(['upload', '--group-id', 'org.example', '--yes', '--no-verify', '--json', '--timeout', '2', '--cwd', dir], {
      env: { RELCTL_STAGING_API_URL: server.url, RELCTL_PORTAL_URL: server.url, RELCTL_TOKEN_USERNAME: 'tok-user', RELCTL_TOKEN_PASSWORD: 'tok-pass' },
    });
    expect(r.exitCode, r.stderr).toBe(3);
    const error = (JSON.parse(r.stdout) as { error: { code?: string; kind?: string; fix: string } }).error;
    expect(error.code ?? error.kind).toBe('request-ambiguous');
    expect(error.fix).toContain('relctl search --namespace org.example --ip any');
    expect(r.stderr).toContain('may or may not');
    expect(server.requests.filter((q) => q.method === 'POST')).toHaveLength(1);
    expect((await journalOf(dir)).uploads.at(-1)).toMatchObject({ outcome: 'ambiguous', error: 'request-ambiguous' });
  });

  it('a failed upload is journaled with its deployment id, so status finds it without --deployment', async () => {
    const dir = await project({ developers: false });
    const r = await cli(['upload', '--group-id', 'org.example', '--yes', '--no-verify', '--json'], dir);
    expect(r.exitCode).toBe(1);
    const id = (JSON.parse(r.stdout) as { deploymentId: string }).deploymentId;
    const j = await journalOf(dir);
    expect(j.deploymentId).toBe(id);
    expect(j.uploads.at(-1)).toMatchObject({ outcome: 'failed', error: 'portal-validation', deploymentId: id });
    const st = await cli(['status', '--json'], dir);
    expect(st.exitCode).toBe(1);
    expect(JSON.parse(st.stdout)).toMatchObject({ deploymentId: id, state: 'FAILED' });
  });
});

describe('upload checks before the irreversible call', () => {
  it('runs verify first: a build the portal would fail is not uploaded (exit 1), and the namespace stays unblocked', async () => {
    const dir = await project({ developers: false });
    const r = await cli(['upload', '--group-id', 'org.example', '--yes', '--json'], dir);
    expect(r.exitCode).toBe(1);
    const doc = JSON.parse(r.stdout) as { findings: { code: string }[] };
    expect(doc.findings.map((f) => f.code)).toContain('missing-developers');
    expect((await state()).deployments).toEqual([]);
  });

  it('without build output, upload says that nothing was verified and that the count is unknown, then asks (here: --yes)', async () => {
    const dir = path.join(work.path, `empty${++n}`);
    await mkdir(dir);
    await stage(sb, await writeComponent(path.join(work.path, `s${++n}`), key, { groupId: 'org.example', artifactId: 'demo', version: '1.0.0' }));
    const r = await cli(['upload', '--group-id', 'org.example', '--yes'], dir);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain('Nothing to verify');
    expect(r.stderr).toContain('--no-verify');
    expect(r.stderr).toContain('will send: file count and size unknown');
  });

  it('shows the file count and bytes it sends, and takes the project groupId when --group-id is not given', async () => {
    const dir = await project();
    const r = await cli(['upload', '--yes'], dir);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/will send: \d+ files, [\d.]+ (B|KiB) \(\d+ bytes\) from build\/staging-deploy/);
    expect(r.stdout).toContain('Uploaded org.example to the portal');
    const j = await cli(['search', '--json'], dir);
    expect(JSON.parse(j.stdout)).toMatchObject({ ok: true, groupId: 'org.example' });
  });

  it('in CI a missing --yes is exit 2 naming the flag, before anything is sent', async () => {
    const dir = await project();
    const r = await cli(['upload', '--group-id', 'org.example'], dir);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--yes');
    expect((await state()).repositories.map((x) => x.state)).toEqual(['open']);
  });

  it('publish names the real target, and a PUBLISHED deployment is not droppable (with what to do instead)', async () => {
    const dir = await project();
    const up = await cli(['upload', '--yes', '--json'], dir);
    const id = (JSON.parse(up.stdout) as { deploymentId: string }).deploymentId;
    const ask = await cli(['publish', '--deployment', id], dir);
    expect(ask.exitCode).toBe(2);
    expect(ask.stderr).toContain(`${new URL(sb.urls.publicRepoUrl).host}/repo (not Maven Central)`);
    expect((await cli(['publish', '--deployment', id, '--yes'], dir)).exitCode).toBe(0);
    const drop = await cli(['drop', '--deployment', id, '--yes'], dir);
    expect(drop.exitCode).toBe(1);
    expect(drop.stderr).toContain('cannot be dropped');
    expect(drop.stderr).toContain('release a new version');
    expect(drop.stderr).not.toContain('run the command again');
  });
});
