import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { runCli } from '../helpers/cli.js';
import { createTestKey, type TestKey } from '../helpers/gpg.js';
import { sharedLocalRepo, writeMavenSettings } from '../helpers/maven.js';
import { tempDir, type TempDir } from '../helpers/temp.js';
import { publishKeyConfirmed } from './sandbox-fixture.js';
import { demoRepo, releaseEnv, tags } from './release-fixture.js';

/**
 * The month's publishing budget through the real commands (DESIGN §5a): the release chain stops
 * before its build tags anything when the organization's usage (the Usage Center export, relctl's
 * own record) leaves no room, `--over-budget` goes on, Publisher Pro checks nothing, and a
 * deployment seen PUBLISHED is counted by the next check.
 */
let sandbox: RunningSandbox;
let key: TestKey;
let t: TempDir;

beforeAll(async () => {
  t = await tempDir();
  sandbox = await startSandbox();
  key = await createTestKey();
  await publishKeyConfirmed(sandbox, key);
});
afterAll(async () => {
  await sandbox?.close();
  await key?.cleanup();
  await t?.[Symbol.asyncDispose]();
});

let counter = 0;
async function project(): Promise<{ dir: string; home: string; env: Record<string, string>; usage: (releases: number) => Promise<string> }> {
  const n = ++counter;
  const dir = path.join(t.path, `p${n}`);
  const home = path.join(t.path, `h${n}`);
  await mkdir(home);
  await demoRepo(dir, home, { stagingUrl: sandbox.urls.stagingApiUrl, groupId: `org.example.budget${n}` });
  await writeMavenSettings(path.join(home, '.m2', 'settings.xml'), { username: 'sandbox', password: 'sandbox' });
  const env = releaseEnv(home, path.join(t.path, `tools${n}.log`), {
    ...key.env,
    RELCTL_STAGING_API_URL: sandbox.urls.stagingApiUrl,
    RELCTL_PORTAL_URL: sandbox.urls.portalUrl,
    RELCTL_PUBLIC_REPO_URL: sandbox.urls.publicRepoUrl,
    RELCTL_KEYSERVER_URL: sandbox.urls.keyserverUrl,
    RELCTL_SECONDARY_KEYSERVER_URL: sandbox.urls.secondaryKeyserverUrl,
    RELCTL_MAVEN_LOCAL_REPO: sharedLocalRepo,
    RELCTL_FAKE_PERFORM_ARGS: `-Pgpg-cli -Dgpg.keyname=${key.fingerprint}`,
  });
  // The Usage Center's "Export CSV" of the Usage by Namespace table (kept outside the repository).
  const usage = async (releases: number): Promise<string> => {
    const file = path.join(t.path, `usage${n}-${releases}.csv`);
    await writeFile(file, `Namespace,Release Count,File Count,Total Release Size\r\norg.example,${releases},40,1.5 MB\r\nio.github.other,0,0,0 MB\r\n`);
    return file;
  };
  return { dir, home, env, usage };
}

describe('the publishing budget before a release', () => {
  it('over budget (the Usage Center export says 3 releases this month): release stops before tagging, exit 1 with the numbers', async () => {
    const p = await project();
    const r = await runCli(['release', '--yes', '--json', '--usage', await p.usage(3), '--cwd', p.dir], { home: p.home, env: p.env, timeoutMs: 120_000 });
    expect(r.exitCode, r.stderr).toBe(1);
    const doc = JSON.parse(r.stdout) as { steps: { id: string; status: string }[]; error: { code: string; message: string; fix: string } };
    expect(doc.steps.slice(0, 2).map((s) => `${s.id}:${s.status}`)).toEqual(['preflight:failed', 'keys:not-run']);
    expect(doc.error.code).toBe('over-budget');
    expect(doc.error.message).toContain('releases: 3 used + 1 > 3');
    expect(doc.error.fix).toContain('--over-budget');
    expect(await tags(p.dir, p.home)).toEqual([]);
    const state = (await (await fetch(`${new URL(sandbox.urls.stagingApiUrl).origin}/sandbox/state`)).json()) as { deployments: { namespace: string }[] };
    expect(state.deployments.filter((d) => d.namespace.startsWith('org.example.budget1'))).toEqual([]);

    // --over-budget goes on: tagged, uploaded, validated.
    const again = await runCli(['release', '--yes', '--restart', '--over-budget', '--usage', await p.usage(3), '--cwd', p.dir], { home: p.home, env: p.env, timeoutMs: 170_000 });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stderr).toContain('--over-budget: going on over the publishing limits (releases)');
    expect(again.stdout).toContain('state: VALIDATED');
    expect(await tags(p.dir, p.home)).toEqual(['relctl-demo-1.0.0']);
  }, 300_000);

  it('a deployment seen PUBLISHED is recorded in the user state folder and counted by the next preflight', async () => {
    const p = await project();
    const r = await runCli(['release', '--yes', '--json', '--cwd', p.dir], { home: p.home, env: p.env, timeoutMs: 170_000 });
    expect(r.exitCode, r.stderr).toBe(0);
    const id = (JSON.parse(r.stdout) as { context: { deploymentId: string } }).context.deploymentId;
    expect((await runCli(['publish', '--yes', '--deployment', id, '--cwd', p.dir], { home: p.home, env: p.env })).exitCode).toBe(0);
    const status = await runCli(['status', '--wait', '--deployment', id, '--cwd', p.dir], { home: p.home, env: p.env });
    expect(status.exitCode, status.stderr).toBe(0);
    expect(status.stdout).toContain('PUBLISHED');
    const record = JSON.parse(await readFile(path.join(p.home, '.local', 'state', 'relctl', 'publications.json'), 'utf8')) as { publications: { deploymentId: string; files?: number }[] };
    expect(record.publications.map((x) => x.deploymentId)).toEqual([id]);
    expect(record.publications[0]!.files).toBeGreaterThan(0);

    const limits = path.join(p.dir, 'relctl.config.json');
    await writeFile(limits, JSON.stringify({ publishingLimits: { releases: 1 } }));
    const pre = await runCli(['preflight', '--offline', '--json', '--cwd', p.dir], { home: p.home, env: p.env });
    const budget = (JSON.parse(pre.stdout) as { publishingBudget: { used: { releases: number }; over: string[]; limits: { releases: number } } }).publishingBudget;
    expect(budget.used.releases).toBe(1);
    expect(budget.limits.releases).toBe(1);
    expect(budget.over).toEqual(['releases']);
    expect(pre.exitCode).toBe(1);
    const text = await runCli(['preflight', '--offline', '--cwd', p.dir], { home: p.home, env: p.env });
    expect(text.stdout).toMatch(/releases +used 1 release \+ this release 1 release of 1 release +OVER/);
    expect(text.stderr).toContain('This release would exceed the organization\'s publishing limits');

    // Publisher Pro: no limit checked.
    await writeFile(limits, JSON.stringify({ publishingLimits: false }));
    const pro = await runCli(['preflight', '--offline', '--json', '--usage', await p.usage(9), '--cwd', p.dir], { home: p.home, env: p.env });
    expect((JSON.parse(pro.stdout) as { publishingBudget: { limits: unknown; over: string[] } }).publishingBudget).toMatchObject({ limits: false, over: [] });
  }, 300_000);

  it('a bad --usage file or publishingLimits value is a usage error (exit 2) naming the cause', async () => {
    const p = await project();
    const bad = path.join(t.path, 'not-usage.csv');
    await writeFile(bad, 'name,downloads\nx,1\n');
    const r = await runCli(['preflight', '--offline', '--usage', bad, '--cwd', p.dir], { home: p.home, env: p.env });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("is not the Usage Center's export: its first line has no Namespace, Release Count, File Count, Release Size column");
    const missing = await runCli(['preflight', '--offline', '--usage', path.join(t.path, 'nowhere.csv'), '--cwd', p.dir], { home: p.home, env: p.env });
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain('cannot be read: ENOENT');
    await writeFile(path.join(p.dir, 'relctl.config.json'), JSON.stringify({ publishingLimits: { files: 'many' } }));
    const config = await runCli(['preflight', '--offline', '--cwd', p.dir], { home: p.home, env: p.env });
    expect(config.exitCode).toBe(2);
    expect(config.stderr).toContain('publishingLimits.files must be a whole number of 0 or more');
  }, 60_000);
});
