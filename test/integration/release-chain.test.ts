import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { runCli } from '../helpers/cli.js';
import { createTestKey, type TestKey } from '../helpers/gpg.js';
import { sharedLocalRepo, writeMavenSettings } from '../helpers/maven.js';
import { git, tempDir, type TempDir } from '../helpers/temp.js';
import { publishKeyConfirmed } from './sandbox-fixture.js';
import { demoRepo, recorded, releaseEnv, subjects, tags } from './release-fixture.js';

/**
 * The whole chain against the sandbox: the fake mvn plays release:prepare's git effects and
 * release:perform deploys the tag checkout with the REAL Maven to the sandbox.
 */
interface SandboxState {
  repositories: { key: string; state: string; namespace: string }[];
  deployments: { id: string; state: string; namespace: string }[];
}

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

async function state(): Promise<SandboxState> {
  const origin = new URL(sandbox.urls.stagingApiUrl).origin;
  return (await (await fetch(`${origin}/sandbox/state`)).json()) as SandboxState;
}

let counter = 0;
async function project(): Promise<{ dir: string; home: string; log: string; env: Record<string, string>; groupId: string; namespace: string }> {
  const n = ++counter;
  // Below its namespace, as the sandbox account holds it (the reverse domain), one per project.
  const namespace = `org.chain${n}`;
  const groupId = `${namespace}.demo`;
  const dir = path.join(t.path, `p${n}`);
  const home = path.join(t.path, `h${n}`);
  await mkdir(home);
  await demoRepo(dir, home, { stagingUrl: sandbox.urls.stagingApiUrl, groupId });
  await writeMavenSettings(path.join(home, '.m2', 'settings.xml'), { username: 'sandbox', password: 'sandbox' });
  const log = path.join(t.path, `tools${n}.log`);
  const env = releaseEnv(home, log, {
    ...key.env,
    RELCTL_STAGING_API_URL: sandbox.urls.stagingApiUrl,
    RELCTL_PORTAL_URL: sandbox.urls.portalUrl,
    RELCTL_PUBLIC_REPO_URL: sandbox.urls.publicRepoUrl,
    RELCTL_KEYSERVER_URL: sandbox.urls.keyserverUrl,
    RELCTL_SECONDARY_KEYSERVER_URL: sandbox.urls.secondaryKeyserverUrl,
    RELCTL_MAVEN_LOCAL_REPO: sharedLocalRepo,
    RELCTL_FAKE_PERFORM_ARGS: `-Pgpg-cli -Dgpg.keyname=${key.fingerprint}`,
  });
  return { dir, home, log, env, groupId, namespace };
}

const releaseCommits = (s: string[]): string[] => s.filter((x) => x.startsWith('[maven-release-plugin]'));

describe('relctl release (whole chain, real Maven deploy to the sandbox)', () => {
  it('releases, verifies, uploads and waits for VALIDATED', async () => {
    const p = await project();
    const r = await runCli(['release', '--yes', '--cwd', p.dir], { home: p.home, env: p.env, timeoutMs: 170_000 });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toContain('state: VALIDATED');
    expect(r.stdout).toContain(`${sandbox.urls.portalUrl}/publishing/deployments`);
    expect(r.stdout).toMatch(/deploymentId: [0-9a-f-]{36}/);
    expect(await tags(p.dir, p.home)).toEqual(['relctl-demo-1.0.0']);
    const calls = (await recorded(p.log)).map((c) => c.args.filter((a) => !a.startsWith('-Dmaven.repo.local') && a !== '-s' && !a.endsWith('settings.xml')));
    expect(calls).toEqual([
      ['-B', 'javadoc:fix', '-Dforce=true'],
      ['-B', 'install'],
      ['-B', 'release:clean', '-DautoVersionSubmodules=true', '-DreleaseVersion=1.0.0', '-DdevelopmentVersion=1.0.1-SNAPSHOT', '-Dtag=relctl-demo-1.0.0'],
      ['-B', 'release:prepare', '-DautoVersionSubmodules=true', '-DreleaseVersion=1.0.0', '-DdevelopmentVersion=1.0.1-SNAPSHOT', '-Dtag=relctl-demo-1.0.0'],
      ['-B', 'release:perform', '-DautoVersionSubmodules=true', '-DreleaseVersion=1.0.0', '-DdevelopmentVersion=1.0.1-SNAPSHOT', '-Dtag=relctl-demo-1.0.0'],
    ]);
    const deployments = (await state()).deployments.filter((d) => d.namespace === p.namespace);
    expect(deployments.map((d) => d.state)).toEqual(['VALIDATED']);
  }, 180_000);

  it('a dry run prints what it would do and leaves git, the journal and the sandbox exactly as they were', async () => {
    const p = await project();
    const before = { head: await git(p.dir, p.home, 'rev-parse', 'HEAD'), status: await git(p.dir, p.home, 'status', '--porcelain', '--ignored'), tags: await tags(p.dir, p.home) };
    const sandboxBefore = JSON.stringify(await state());
    const r = await runCli(['release', '--dry-run', '--cwd', p.dir], { home: p.home, env: p.env });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain('! mvn -B javadoc:fix -Dforce=true');
    expect(r.stderr).toContain('! mvn -B release:clean -DautoVersionSubmodules=true -DreleaseVersion=1.0.0');
    expect(r.stderr).toContain(`! POST ${sandbox.urls.stagingApiUrl}/manual/upload/defaultRepository/${p.groupId}?publishing_type=user_managed`);
    expect(r.stdout).toContain('dry run: nothing was changed');
    expect(await recorded(p.log)).toEqual([]);
    expect(await git(p.dir, p.home, 'rev-parse', 'HEAD')).toBe(before.head);
    expect(await git(p.dir, p.home, 'status', '--porcelain', '--ignored')).toBe(before.status);
    expect(await tags(p.dir, p.home)).toEqual(before.tags);
    expect(JSON.stringify(await state())).toBe(sandboxBefore);
  }, 60_000);

  it('a failed verify leaves no open staging repository and no failed deployment', async () => {
    const p = await project();
    // Deployed without signatures: preflight cannot see that, verify must.
    const r = await runCli(['release', '--yes', '--json', '--cwd', p.dir], { home: p.home, env: { ...p.env, RELCTL_FAKE_PERFORM_ARGS: '' }, timeoutMs: 170_000 });
    expect(r.exitCode).toBe(1);
    const summary = JSON.parse(r.stdout) as { ok: boolean; steps: { id: string; status: string }[]; error: { kind: string; message: string } };
    expect(summary.ok).toBe(false);
    expect(summary.steps.map((s) => `${s.id}:${s.status}`)).toEqual(['preflight:done', 'keys:done', 'prep:done', 'build:done', 'verify:failed', 'upload:not-run', 'status:not-run', 'notes:not-run', 'distribute:not-run', 'smoke:not-run', 'image:not-run', 'notify:not-run']);
    expect(summary.error.kind).toBe('verify-failed');
    expect(summary.error.message).toContain('missing-signature');
    const s = await state();
    expect(s.repositories.filter((x) => x.namespace === p.namespace && x.state === 'open')).toEqual([]);
    expect(s.deployments.filter((d) => d.namespace === p.namespace)).toEqual([]);

    // Fixed (signing on again): the namespace is not blocked, and the orphan tag makes it 1.0.1.
    const again = await runCli(['release', '--yes', '--restart', '--json', '--cwd', p.dir], { home: p.home, env: p.env, timeoutMs: 170_000 });
    expect(again.exitCode, again.stderr).toBe(0);
    const ok = JSON.parse(again.stdout) as { context: Record<string, unknown> };
    expect(ok.context).toMatchObject({ version: '1.0.1', tag: 'relctl-demo-1.0.1', skippedVersions: ['1.0.0'], deploymentState: 'VALIDATED' });
    expect(await tags(p.dir, p.home)).toEqual(['relctl-demo-1.0.0', 'relctl-demo-1.0.1']);
  }, 240_000);
});

describe('crash and resume: SIGKILL at every step boundary, then --resume', () => {
  it.each(['preflight', 'keys', 'prep', 'build', 'verify', 'upload'])('killed after %s: one tag, two release commits, one deployment', async (boundary) => {
    const p = await project();
    const crashed = await runCli(['release', '--yes', '--cwd', p.dir], { home: p.home, env: { ...p.env, RELCTL_TEST_CRASH_AFTER: boundary }, timeoutMs: 170_000 });
    expect(crashed.exitCode, crashed.stderr).not.toBe(0);
    if (boundary === 'preflight') {
      // A plain rerun must not start a second release over the unfinished one.
      const again = await runCli(['release', '--yes', '--cwd', p.dir], { home: p.home, env: p.env });
      expect(again.exitCode).toBe(2);
      expect(again.stderr).toContain('relctl release --resume');
    }
    const resumed = await runCli(['release', '--yes', '--resume', '--cwd', p.dir], { home: p.home, env: p.env, timeoutMs: 170_000 });
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain(`Continuing after ${boundary}`);
    expect(resumed.stdout).toContain('state: VALIDATED');
    expect(await tags(p.dir, p.home)).toEqual(['relctl-demo-1.0.0']);
    expect(releaseCommits(await subjects(p.dir, p.home))).toHaveLength(2);
    expect((await recorded(p.log)).filter((c) => c.args.includes('release:prepare'))).toHaveLength(1);
    const deployments = (await state()).deployments.filter((d) => d.namespace === p.namespace);
    expect(deployments.map((d) => d.state)).toEqual(['VALIDATED']);
  }, 180_000);

  it('resumed on another machine, the upload goes by the staging repository key', async () => {
    const p = await project();
    const crashed = await runCli(['release', '--yes', '--cwd', p.dir], { home: p.home, env: { ...p.env, RELCTL_TEST_CRASH_AFTER: 'verify' }, timeoutMs: 170_000 });
    expect(crashed.exitCode).not.toBe(0);
    // As if the build had run on a CI agent and the resume happens on a laptop.
    const file = path.join(p.dir, '.relctl', 'journal.json');
    const journal = JSON.parse(await readFile(file, 'utf8')) as { steps: { id: string; data?: Record<string, unknown> }[] };
    for (const step of journal.steps) if (step.id === 'build') step.data = { ...step.data, machine: 'build-agent-7' };
    await writeFile(file, JSON.stringify(journal));
    // A different source address too: the by-address upload would find no repository from here.
    const resumed = await runCli(['release', '--yes', '--resume', '--cwd', p.dir], {
      home: p.home,
      env: { ...p.env, RELCTL_LOCAL_ADDRESS: '127.0.0.2' },
      timeoutMs: 170_000,
    });
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain('The build staged from build-agent-7');
    expect(resumed.stdout).toContain('state: VALIDATED');
  }, 180_000);
});
