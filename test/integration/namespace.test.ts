import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, runCli } from '../helpers/cli.js';
import type { TestKey } from '../helpers/gpg.js';
import type { TempDir } from '../helpers/temp.js';
import { pomXml, sandboxEnv, stage, startSandbox, writeComponent, type SandboxFixture, useSandboxFixture } from './upload-helpers.js';

/**
 * Issue 42 item 1: namespace is not groupId. The account owns `org.example`; the project's groupId
 * is `org.example.lib`, so the deploy lands in `<user>/<ip>/org.example--default-repository` and
 * the staging API answers the groupId as the real service does ("No repository found", an empty
 * search). relctl finds the namespace itself, in every command that calls the staging API.
 */
let sb: SandboxFixture['sb'];
let key: TestKey;
let work: TempDir;
let n = 0;

useSandboxFixture((fx) => {
  ({ sb, key, work } = fx);
}, { sandbox: { users: [{ name: 'owner', password: 'owner-pw-1', namespaces: ['org.example'] }] } });

const lib = { groupId: 'org.example.lib', artifactId: 'lib', version: '1.0.0' };

/** A project folder declaring groupId org.example.lib (the pom the release would deploy). */
async function project(): Promise<string> {
  const dir = path.join(work.path, `p${++n}`);
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, 'pom.xml'), pomXml(lib));
  return dir;
}

async function stageLib(): Promise<void> {
  await stage(sb, await writeComponent(path.join(work.path, `stage${++n}`), key, lib));
}

const json = (s: string): Record<string, unknown> => JSON.parse(s) as Record<string, unknown>;

describe('namespace, not groupId', () => {
  it('the sandbox keys the deploy by the namespace and answers the groupId as the staging API does', async () => {
    await stageLib();
    const auth = { authorization: `Bearer ${Buffer.from('owner:owner-pw-1').toString('base64')}` };
    const byGroup = await fetch(`${sb.urls.stagingApiUrl}/manual/search/repositories?ip=any&profile_id=org.example.lib`, { headers: auth });
    expect(await byGroup.json()).toEqual({ repositories: [] });
    const byNamespace = (await (await fetch(`${sb.urls.stagingApiUrl}/manual/search/repositories?ip=any&profile_id=org.example`, { headers: auth })).json()) as { repositories: { key: string }[] };
    expect(byNamespace.repositories.map((r) => r.key)).toEqual(['owner/127.0.0.1/org.example--default-repository']);
    const upload = await fetch(`${sb.urls.stagingApiUrl}/manual/upload/defaultRepository/org.example.lib`, { method: 'POST', headers: auth });
    expect(upload.status).toBe(400);
    expect(await upload.json()).toEqual({ error: 'Failed to process request: No repository found for owner/127.0.0.1/org.example.lib--default-repository' });
  });

  it('search finds the open repository under the shorter namespace from the project groupId, and says how', async () => {
    await stageLib();
    const env = sandboxEnv(sb, sb.users[0]);
    const r = await runCli(['search', '--cwd', await project()], { env });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toContain('<token user>/127.0.0.1/org.example--default-repository');
    expect(r.stdout).toContain('open');
    expect(r.stderr).toContain('namespace org.example: the open staging repository <token user>/127.0.0.1/org.example--default-repository holds groupId org.example.lib');
    expect(r.stderr).not.toContain('Nothing is staged');

    const doc = json((await runCli(['search', '--json', '--group-id', 'org.example.lib', '--cwd', work.path], { env })).stdout);
    expect(doc).toMatchObject({ ok: true, groupId: 'org.example.lib', namespace: 'org.example', namespaceFrom: 'open staging repository' });
  });

  it('a groupId given as --namespace: never "nothing is staged" while org.example holds an open repository', async () => {
    await stageLib();
    const r = await runCli(['search', '--namespace', 'org.example.lib', '--cwd', work.path], { env: sandboxEnv(sb, sb.users[0]) });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain('namespace org.example.lib: from --namespace');
    expect(r.stdout).toContain('No staging repositories for org.example.lib (ip=any), but org.example holds an open one: <token user>/127.0.0.1/org.example--default-repository.');
    expect(r.stderr).not.toContain('Nothing is staged');
  });

  it('upload moves the repository of the namespace holding the groupId; status --group-id then finds the deployment', async () => {
    await stageLib();
    const cwd = await project();
    const env = sandboxEnv(sb, sb.users[0]);
    const r = await runCli(['upload', '--yes', '--no-verify', '--json', '--cwd', cwd], { env });
    expect(r.exitCode, r.stderr).toBe(0);
    const doc = json(r.stdout);
    expect(doc).toMatchObject({ ok: true, groupId: 'org.example.lib', namespace: 'org.example', namespaceFrom: 'open staging repository' });
    expect(doc.repositoryKey).toBe('<token user>/127.0.0.1/org.example--default-repository');

    const st = await runCli(['status', '--group-id', 'org.example.lib', '--cwd', work.path], { env });
    expect(st.exitCode, st.stderr).toBe(0);
    expect(st.stdout).toContain(`deployment ${String(doc.deploymentId)}: VALIDATED`);
    expect(st.stderr).toContain('namespace org.example: the staging repository');
  });

  it('--namespace, RELCTL_NAMESPACE and config "namespace" name it outright; --group-id stays today\'s spelling', async () => {
    const cwd = await project();
    const env = sandboxEnv(sb, sb.users[0]);
    const call = (args: string[], extra: Record<string, string> = {}) => runCli(['upload', '--dry-run', '--json', ...args, '--cwd', cwd], { env: { ...env, ...extra } });
    const flag = json((await call(['--namespace', 'org.example'])).stdout);
    expect(flag).toMatchObject({ namespace: 'org.example', namespaceFrom: '--namespace' });
    expect(String(flag.request)).toMatch(/\/manual\/upload\/defaultRepository\/org\.example\?publishing_type=user_managed$/);
    expect(json((await call([], { RELCTL_NAMESPACE: 'org.example' })).stdout)).toMatchObject({ namespace: 'org.example', namespaceFrom: 'RELCTL_NAMESPACE' });
    await writeFile(path.join(cwd, 'relctl.config.json'), JSON.stringify({ namespace: 'org.example' }));
    expect(json((await call([])).stdout)).toMatchObject({ namespace: 'org.example', namespaceFrom: '"namespace" in relctl.config.json' });
    // A dry run does not ask the portal: the groupId stands, said to be unchecked.
    expect(json((await call(['--group-id', 'org.example'], { RELCTL_NAMESPACE: '' })).stdout)).toMatchObject({ groupId: 'org.example' });
    const bad = await call(['--namespace', 'bad ns!']);
    expect(bad.exitCode).toBe(2);
  });

  it('with nothing staged, upload by the groupId prefixes says what it tried', async () => {
    const r = await runCli(['upload', '--yes', '--no-verify', '--cwd', await project()], { env: sandboxEnv(sb, sb.users[0]) });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('namespace org.example.lib: the groupId (the project\'s groupId); no staging repository is under it or a shorter namespace');
    expect(r.stderr).toContain('No repository found for <token user>/127.0.0.1/org.example.lib--default-repository');
  });

  it("the sandbox's default user holds a namespace shorter than the demo's groupId; one owning inside it keeps the others apart", async () => {
    const demoGroup = /<groupId>([^<]+)<\/groupId>/.exec(await readFile(path.join(repoRoot, 'examples', 'demo', 'pom.xml'), 'utf8'))![1]!;
    expect(demoGroup).toBe('org.example.relctl');
    const files = await writeComponent(path.join(work.path, `demo${++n}`), undefined, { groupId: demoGroup, artifactId: 'demo', version: '1.0.0', packaging: 'pom', checksums: false });
    const keysOf = async (users?: { name: string; password: string; namespaces?: string[] }[]): Promise<string[]> => {
      const other = await startSandbox(users === undefined ? {} : { users });
      try {
        await stage(other, files);
        const state = (await (await fetch(`http://127.0.0.1:${other.port}/sandbox/state`)).json()) as { repositories: { key: string }[] };
        return state.repositories.map((r) => r.key);
      } finally {
        await other.close();
      }
    };
    expect(await keysOf()).toEqual(['sandbox/127.0.0.1/org.example--default-repository']);
    // Someone else owns org.example.other: the unlisted account's org.example.relctl stays its own namespace.
    expect(await keysOf([{ name: 'sandbox', password: 'sandbox' }, { name: 'b', password: 'b-pw', namespaces: ['org.example.other'] }])).toEqual([
      'sandbox/127.0.0.1/org.example.relctl--default-repository',
    ]);
  });
});
