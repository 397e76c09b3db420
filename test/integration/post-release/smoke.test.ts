import { access, copyFile, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/server.js';
import { binPath, repoRoot, runCli, spawnCli } from '../../helpers/cli.js';
import { freePort } from '../../helpers/ports.js';
import { secretCanaries, textsUnder } from '../../helpers/secret-canaries.js';
import { git, gitEnv, gitRepo, tempDir, writeTree, type TempDir } from '../../helpers/temp.js';

// A distribution (git clone, gradle.properties, a fake gradlew whose tasks start and stop a real
// HTTP server) and a Gradle component beside it.
const fixture = path.join(repoRoot, 'test/fixtures/distribution');
let dir: TempDir;
let dist: string;
let project: string;
let state: string;
let port: number;
let sandbox: RunningSandbox;
let bare: string;
const home = (): string => path.join(dir.path, 'home');
const distProps = 'org.gradle.jvmargs=-Xmx1g\ndemoComponentVersion=1.0.0\nuPortalVersion=5.14.0\n';

async function writeConfig(smoke: Record<string, unknown> = {}): Promise<void> {
  const config = { distribution: { repo: '../distribution', smoke: { healthUrl: `http://127.0.0.1:${port}/health`, deadline: 15, ...smoke } } };
  await writeFile(path.join(project, 'relctl.config.json'), JSON.stringify(config));
}

beforeAll(async () => {
  dir = await tempDir('relctl-smoke-');
  dist = path.join(dir.path, 'distribution');
  project = path.join(dir.path, 'project');
  state = path.join(dir.path, 'state');
  port = await freePort();
  await mkdir(state);
  await gitRepo(dist, home(), { 'gradle.properties': distProps, '.gitignore': 'build/\n', 'server.mjs': await readFile(path.join(fixture, 'server.mjs')) });
  await copyFile(path.join(fixture, 'gradlew'), path.join(dist, 'gradlew'));
  await git(dist, home(), 'add', 'gradlew');
  await git(dist, home(), 'update-index', '--chmod=+x', 'gradlew');
  await git(dist, home(), 'commit', '-q', '-m', 'wrapper');
  // The distribution's origin (what relctl distribute pushes to) and the released 1.0.0 of the component.
  bare = path.join(dir.path, 'remote', 'example', 'distribution.git');
  await git(dir.path, home(), 'init', '-q', '--bare', '-b', 'main', bare);
  await git(dist, home(), 'remote', 'add', 'origin', bare);
  await git(dist, home(), 'push', '-q', '-u', 'origin', 'main');
  await gitRepo(project, home(), {
    'settings.gradle': "rootProject.name = 'demo-component'\n",
    'gradle.properties': 'group=org.example\nversion=1.1.0-SNAPSHOT\n',
    'build.gradle': "plugins { id 'java' }\n",
    // A wrapper runs only with its configuration (build-tools/wrapper.ts), as it would for a maintainer.
    'gradle/wrapper/gradle-wrapper.properties': 'distributionUrl=https\\://services.gradle.org/distributions/gradle-8.10-bin.zip\n',
  });
  await copyFile(path.join(fixture, 'gradlew'), path.join(project, 'gradlew'));
  await git(project, home(), 'tag', 'demo-component-1.0.0');
  await writeTree(path.join(dir.path, 'seed'), { 'org/example/demo-component/1.1.0/demo-component-1.1.0.pom': '<project/>\n' });
  sandbox = await startSandbox({ seedRepo: path.join(dir.path, 'seed') });
});
afterEach(async () => {
  // A test's server left running for a person, and its worktree, end the way a person ends them.
  const stopped = await relctl(['smoke', '--stop']);
  expect(stopped.exitCode, stopped.stderr).toBe(0);
  await stopServer();
  await writeFile(path.join(state, 'calls'), '');
});
afterAll(async () => {
  await sandbox?.close();
  await dir?.[Symbol.asyncDispose]();
});

async function stopServer(): Promise<void> {
  const { execa } = await import('execa');
  await execa(path.join(dist, 'gradlew'), ['tomcatStop'], { env: { ...process.env, SMOKE_STATE: state }, reject: false });
}
const env = (extra: Record<string, string> = {}): Record<string, string> => ({ SMOKE_STATE: state, SMOKE_PORT: String(port), ...extra });
const relctl = (args: string[], extra: Record<string, string> = {}) => runCli([...args, '--cwd', project], { home: home(), env: env(extra), timeoutMs: 60_000 });
const calls = async (): Promise<string[]> => (await readFile(path.join(state, 'calls'), 'utf8').catch(() => '')).split('\n').filter((l) => l !== '').map((l) => l.split(' ')[0]!);

describe('relctl smoke', () => {
  it('stops, clean-deploys and starts the distribution, then the health probe sees 2xx', async () => {
    await writeConfig();
    const r = await relctl(['smoke']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toContain(`smoke test passed with demoComponentVersion=1.0.0: http://127.0.0.1:${port}/health answered HTTP 200: demo-component 1.0.0`);
    // No relctl distribute for the newest release (1.0.0): the clone as it is, and it says so.
    expect(r.stderr).toContain(`smoke: testing ${dist} as it is: origin has no branch relctl/demo-component-1.0.0: no relctl distribute for 1.0.0.`);
    expect(await calls()).toEqual(['tomcatStop', 'clean', 'tomcatDeploy', 'tomcatStart']);
    const log = /output goes to (\S+)/.exec(r.stderr)![1]!;
    expect(log.startsWith(path.join(project, '.relctl'))).toBe(true);
    expect(await readFile(log, 'utf8')).toContain('> Task :tomcatDeploy deployed demo-component 1.0.0');
    // Still running afterwards: that is what a smoke test leaves behind, and it says how to stop it.
    expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200);
    expect(r.stdout).toContain(`The server keeps running for you to try: http://127.0.0.1:${port}/health (served from ${dist}).\nStop it with: relctl smoke --stop`);
    const stop = await relctl(['smoke', '--stop']);
    expect(stop.exitCode, stop.stderr).toBe(0);
    expect(stop.stdout).toBe(`Stopped the smoke-test server: http://127.0.0.1:${port}/health no longer answers.`);
    expect((await calls()).at(-1)).toBe('tomcatStop');
    await expect(fetch(`http://127.0.0.1:${port}/health`)).rejects.toThrow();
  });

  it('a failing start: exit 1 with the log tail', async () => {
    await writeConfig();
    const r = await relctl(['smoke'], { SMOKE_FAIL_START: '1' });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('the start command (./gradlew tomcatStart) failed with exit 1');
    expect(r.stderr).toContain('Tomcat failed to start: Address already in use');
  });

  it('a distribution that never gets healthy: exit 1 with the probe’s last answer', async () => {
    await writeConfig({ deadline: 2 });
    const r = await relctl(['smoke'], { SMOKE_SICK: '1' });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('did not answer 2xx within 2 s');
    expect(r.stderr).toContain('HTTP 500: HTTP Status 500 - portal context failed to start');
  });

  it('Ctrl-C mid-smoke runs the stop command and exits 130', async () => {
    await writeConfig({ deadline: 120 });
    const child = spawnCli(['smoke', '--cwd', project], { env: { ...env({ SMOKE_SLOW: '1' }), HOME: home() } });
    // Wait (bounded) until the start has happened and the server answers 503.
    for (let i = 0; i < 200; i++) {
      const up = await fetch(`http://127.0.0.1:${port}/health`).then((res) => res.status === 503, () => false);
      if (up) break;
      await sleep(100);
    }
    child.kill('SIGINT');
    const result = await child;
    expect(result.exitCode).toBe(130);
    expect((await calls()).slice(-2)).toEqual(['tomcatStart', 'tomcatStop']);
    await expect(access(path.join(state, 'pid'))).rejects.toThrow();
    await expect(fetch(`http://127.0.0.1:${port}/health`)).rejects.toThrow();
    // Nothing is left recorded as running.
    await expect(access(path.join(project, '.relctl', 'smoke-running.json'))).rejects.toThrow();
  });

  it('--snapshot installs the snapshot and tests it in a throwaway worktree left running for a person; --stop ends both; the clone stays untouched', async () => {
    await writeConfig();
    const r = await relctl(['smoke', '--snapshot', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as { snapshot: { version: string; property: string }; probe: { last: string }; leftRunning: boolean; stoppedAfter: boolean; running: { healthUrl: string; dir: string; worktree: boolean; stop: string } };
    expect(doc.snapshot).toEqual({ version: '1.1.0-SNAPSHOT', property: 'demoComponentVersion' });
    expect(doc.probe.last).toBe('HTTP 200: demo-component 1.1.0-SNAPSHOT');
    expect(doc).toMatchObject({ leftRunning: true, stoppedAfter: false, running: { healthUrl: `http://127.0.0.1:${port}/health`, worktree: true, stop: 'relctl smoke --stop' } });
    expect(await calls()).toEqual(['publishToMavenLocal', 'tomcatStop', 'clean', 'tomcatDeploy', 'tomcatStart']);
    // The portal answers from the worktree, which stays while it runs.
    expect(await (await fetch(`http://127.0.0.1:${port}/health`)).text()).toContain('1.1.0-SNAPSHOT');
    expect(await readFile(path.join(doc.running.dir, 'gradle.properties'), 'utf8')).toContain('demoComponentVersion=1.1.0-SNAPSHOT');
    expect((await git(dist, home(), 'worktree', 'list')).split('\n')).toHaveLength(2);
    expect(await readFile(path.join(dist, 'gradle.properties'), 'utf8')).toBe(distProps);
    expect(await git(dist, home(), 'status', '--porcelain')).toBe('');

    const stop = await relctl(['smoke', '--stop', '--json']);
    expect(stop.exitCode, stop.stderr).toBe(0);
    expect(JSON.parse(stop.stdout)).toMatchObject({ ok: true, stopped: true, healthUrl: `http://127.0.0.1:${port}/health`, dir: doc.running.dir, stopExit: 0, worktreeRemoved: true });
    expect((await calls()).at(-1)).toBe('tomcatStop');
    await expect(fetch(`http://127.0.0.1:${port}/health`)).rejects.toThrow();
    await expect(access(doc.running.dir)).rejects.toThrow();
    expect((await git(dist, home(), 'worktree', 'list')).split('\n')).toHaveLength(1);

    const again = await relctl(['smoke', '--stop']);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stdout).toBe('No smoke-test server is recorded as running: nothing to stop.');
  });

  it('--stop-after keeps the CI behaviour: stopped after the probe, worktree removed, nothing recorded', async () => {
    await writeConfig();
    const r = await relctl(['smoke', '--snapshot', '--stop-after', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ leftRunning: false, stoppedAfter: true });
    expect(await calls()).toEqual(['publishToMavenLocal', 'tomcatStop', 'clean', 'tomcatDeploy', 'tomcatStart', 'tomcatStop']);
    expect((await git(dist, home(), 'worktree', 'list')).split('\n')).toHaveLength(1);
    await expect(access(path.join(project, '.relctl', 'smoke-running.json'))).rejects.toThrow();
    expect(JSON.parse((await relctl(['smoke', '--stop', '--json'])).stdout)).toEqual({ ok: true, stopped: false, running: false });
  });

  it('a new smoke test ends the one left running first, worktree and all', async () => {
    await writeConfig();
    const first = JSON.parse((await relctl(['smoke', '--snapshot', '--json'])).stdout) as { running: { dir: string } };
    const second = await relctl(['smoke', '--snapshot', '--json']);
    expect(second.exitCode, second.stderr).toBe(0);
    expect(second.stderr).toContain(`smoke: ending the smoke test left running since`);
    await expect(access(first.running.dir)).rejects.toThrow();
    expect((await git(dist, home(), 'worktree', 'list')).split('\n')).toHaveLength(2);
    expect((JSON.parse(second.stdout) as { running: { dir: string } }).running.dir).not.toBe(first.running.dir);
  });

  it('--stop that leaves the server up: exit 1, the worktree and the record stay for another --stop', async () => {
    await writeConfig({ deadline: 2 });
    const r = JSON.parse((await relctl(['smoke', '--snapshot', '--json'])).stdout) as { running: { dir: string } };
    const stuck = await relctl(['smoke', '--stop'], { SMOKE_STOP_FAILS: '1' });
    expect(stuck.exitCode).toBe(1);
    expect(stuck.stderr).toContain(`The stop command (./gradlew tomcatStop) failed with exit 1, but http://127.0.0.1:${port}/health still answers after 2 s`);
    expect(stuck.stderr).toContain('then run relctl smoke --stop again');
    // The stop command's own error, masked, without Gradle's banner around it.
    expect(stuck.stderr).toContain(
      "the stop command said:\n  SHUTDOWN-PORT-REFUSED at http://admin:***@127.0.0.1:8005/shutdown\n  Tomcat did not stop: shutdown port 8005 refused the command\n  Execution failed for task ':tomcatStop'.\n",
    );
    expect(stuck.stderr).not.toContain('tomcat-pw');
    await access(r.running.dir);
    const stop = await relctl(['smoke', '--stop']);
    expect(stop.exitCode, stop.stderr).toBe(0);
    expect(stop.stdout).toContain('its worktree');
    await expect(access(r.running.dir)).rejects.toThrow();
  });

  it('--stop takes no other smoke option (exit 2)', async () => {
    const r = await relctl(['smoke', '--stop', '--snapshot']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--stop ends the running smoke test; it takes no --snapshot');
  });
});

/** Starts the distribution's server from the clone, as a previous deploy would have left it. */
async function startOldServer(): Promise<void> {
  const { execa } = await import('execa');
  await execa(path.join(dist, 'gradlew'), ['tomcatDeploy', 'tomcatStart'], { env: { ...process.env, ...env() } });
  for (let i = 0; i < 100; i++) {
    if (await fetch(`http://127.0.0.1:${port}/health`).then((res) => res.status === 200, () => false)) return;
    await sleep(100);
  }
  throw new Error('the old server did not come up');
}

describe('relctl smoke: the server must go down, the contract', () => {
  it('a stop that leaves the old server up: exit 1 with the stop output, nothing deployed', async () => {
    await writeConfig({ deadline: 2 });
    await startOldServer();
    await writeFile(path.join(state, 'calls'), '');
    const r = await relctl(['smoke'], { SMOKE_STOP_FAILS: '1' });
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stderr).toContain(`the stop command (./gradlew tomcatStop) failed with exit 1, but http://127.0.0.1:${port}/health still answers after 2 s (HTTP 200: demo-component 1.0.0)`);
    expect(r.stderr).toContain('Tomcat did not stop: shutdown port 8005 refused the command');
    expect(r.stdout).not.toContain('passed');
    expect(await calls()).toEqual(['tomcatStop']);
  });

  it('progress lines without a terminal: each phase and its duration', async () => {
    await writeConfig();
    const r = await relctl(['smoke', '--yes']);
    expect(r.exitCode, r.stderr).toBe(0);
    for (const line of ['stop done in', 'server down after', 'deploy done in', 'start done in', 'healthy after']) {
      expect(r.stderr).toMatch(new RegExp(`^smoke: ${line} \\d+\\.\\d s$`, 'm'));
    }
  });

  it('--snapshot --dry-run shows the install and the worktree as ! lines and runs nothing', async () => {
    await writeConfig();
    const r = await relctl(['smoke', '--snapshot', '--dry-run', '--yes']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain(`! ./gradlew publishToMavenLocal (in ${project})`);
    expect(r.stderr).toContain(`! a throwaway worktree of ${dist} at HEAD in a temporary folder, with demoComponentVersion=1.1.0-SNAPSHOT`);
    expect(r.stderr).toContain('! ./gradlew clean tomcatDeploy (in the worktree)');
    expect(await calls()).toEqual([]);
    expect((await git(dist, home(), 'worktree', 'list')).split('\n')).toHaveLength(1);
  });

  it('a release version with a trailing space is a usage error (exit 2)', async () => {
    const r = await relctl(['smoke', '--release-version', '1.0.0 ', '--dry-run']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('"1.0.0 " is not a release version');
  });
});

// relctl never reads GITHUB_TOKEN here, so it passes to the children (DESIGN §2: "when relctl
// read it"), but it is masked in everything relctl writes.
const canary = secretCanaries('Smoke');
const childSecrets = Object.entries(canary.secrets).filter(([name]) => name !== 'GITHUB_TOKEN').map(([, value]) => value);
const allSecrets = Object.values(canary.secrets);

describe('relctl smoke: secrets', () => {
  it('the stop/deploy/start commands and the snapshot install get no relctl secret; nothing relctl prints or writes holds one', async () => {
    await writeConfig();
    const extra = { ...canary.env, SMOKE_DUMP_ENV: '1', VISIBLE_MARKER: 'plain-variable-passes' };
    const plain = await relctl(['smoke', '--verbose'], extra);
    expect(plain.exitCode, plain.stderr).toBe(0);
    await stopServer();
    const snap = await relctl(['smoke', '--snapshot', '--json', '--verbose'], extra);
    expect(snap.exitCode, snap.stderr).toBe(0);
    const logs = [/output goes to (\S+)/.exec(plain.stderr)![1]!, /output goes to (\S+)/.exec(snap.stderr)![1]!];
    for (const log of logs) {
      expect((await stat(log)).mode & 0o777).toBe(0o600);
      expect(await readFile(log, 'utf8')).toContain('VISIBLE_MARKER=plain-variable-passes');
    }
    const dumps = await Promise.all(['publishToMavenLocal', 'tomcatStop', 'clean', 'tomcatDeploy', 'tomcatStart'].map((t) => readFile(path.join(state, `env-${t}`), 'utf8')));
    for (const dump of dumps) expect(dump).toContain('VISIBLE_MARKER=plain-variable-passes');
    const written = await textsUnder(project);
    for (const value of childSecrets) for (const dump of dumps) expect(dump).not.toContain(value);
    for (const value of allSecrets) {
      for (const out of [plain, snap]) expect(out.stdout + out.stderr).not.toContain(value);
      for (const text of written) expect(text).not.toContain(value);
    }
  });
});

describe('relctl smoke after relctl distribute', () => {
  it('deploys the pull request branch (the bumped pin) from a throwaway worktree, says which version, leaves the clone as it was', async () => {
    await writeConfig();
    const api = sandbox.urls.githubApiUrl;
    const token = 'ghp_SmokeDistributeToken000000000000001';
    const gh = (method: string, route: string, body?: unknown) =>
      fetch(`${api}${route}`, { method, headers: { authorization: `token ${token}`, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) }).then((r) => r.json() as Promise<any>);
    // The repository host knows the distribution (GitHub would learn of the pushed branch by itself).
    const branch = 'relctl/demo-component-1.1.0';
    await gh('PUT', '/repos/example/distribution/contents/gradle.properties', { message: 'v', content: Buffer.from(distProps).toString('base64') });
    await gh('POST', '/repos/example/distribution/git/refs', { ref: `refs/heads/${branch}`, sha: (await gh('GET', '/repos/example/distribution/git/ref/heads/main')).object.sha });
    const onBranch = (await gh('GET', `/repos/example/distribution/contents/gradle.properties?ref=${encodeURIComponent(branch)}`)).sha as string;
    await gh('PUT', '/repos/example/distribution/contents/gradle.properties', { message: 'x', branch, sha: onBranch, content: Buffer.from(distProps.replace('1.0.0', '1.1.0')).toString('base64') });
    await startOldServer();
    await writeFile(path.join(state, 'calls'), '');
    try {
      const services = { ...gitEnv(home()), RELCTL_GITHUB_TOKEN: token, RELCTL_GITHUB_API_URL: api, RELCTL_PUBLIC_REPO_URL: sandbox.urls.publicRepoUrl };
      const pr = await relctl(['distribute', '--release-version', '1.1.0'], services);
      expect(pr.exitCode, pr.stderr).toBe(0);
      expect(await git(bare, home(), 'show', `${branch}:gradle.properties`)).toContain('demoComponentVersion=1.1.0');

      const r = await relctl(['smoke', '--stop-after', '--json']);
      expect(r.exitCode, r.stderr).toBe(0);
      const doc = JSON.parse(r.stdout) as Record<string, unknown>;
      expect(doc).toMatchObject({
        source: { kind: 'branch', branch, version: '1.1.0' },
        deployed: { property: 'demoComponentVersion', version: '1.1.0' },
        probe: { last: 'HTTP 200: demo-component 1.1.0' },
        stoppedAfter: true,
      });
      expect(await calls()).toEqual(['tomcatStop', 'clean', 'tomcatDeploy', 'tomcatStart', 'tomcatStop']);
      // The user's clone: same branch, same files, no worktree left.
      expect(await git(dist, home(), 'rev-parse', '--abbrev-ref', 'HEAD')).toBe('main');
      expect(await readFile(path.join(dist, 'gradle.properties'), 'utf8')).toBe(distProps);
      expect(await git(dist, home(), 'status', '--porcelain')).toBe('');
      expect((await git(dist, home(), 'worktree', 'list')).split('\n')).toHaveLength(1);

      const text = await relctl(['smoke', '--stop-after']);
      expect(text.exitCode, text.stderr).toBe(0);
      expect(text.stdout).toContain(`smoke test passed with demoComponentVersion=1.1.0 from ${branch}: http://127.0.0.1:${port}/health answered HTTP 200: demo-component 1.1.0 (stopped again: its worktree is removed)`);
    } finally {
      await rm(path.join(project, '.relctl', 'journal.json'), { force: true });
    }
  });

  it('the chain: relctl run distribute smoke tests the release the journal names on its pull request branch', async () => {
    await writeConfig();
    const release = { version: '1.1.0', tag: 'demo-component-1.1.0', nextVersion: '1.1.1-SNAPSHOT', buildTool: 'gradle' };
    await mkdir(path.join(project, '.relctl'), { recursive: true });
    await writeFile(path.join(project, '.relctl', 'journal.json'), JSON.stringify({ version: 1, release, steps: [], uploads: [] }));
    try {
      const services = { ...gitEnv(home()), RELCTL_GITHUB_TOKEN: 'ghp_SmokeChainToken0000000000000000001', RELCTL_GITHUB_API_URL: sandbox.urls.githubApiUrl, RELCTL_PUBLIC_REPO_URL: sandbox.urls.publicRepoUrl };
      const r = await relctl(['run', 'distribute', 'smoke', '--yes'], services);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stderr).toContain('smoke: testing relctl/demo-component-1.1.0 (relctl distribute for 1.1.0)');
      // In CI the chain stops the server after the probe: nothing is left running or recorded.
      expect(await calls()).toEqual(['tomcatStop', 'clean', 'tomcatDeploy', 'tomcatStart', 'tomcatStop']);
      await expect(access(path.join(project, '.relctl', 'smoke-running.json'))).rejects.toThrow();
    } finally {
      await rm(path.join(project, '.relctl', 'journal.json'), { force: true });
    }
  });

  it('the chain at a terminal (a person, not CI) leaves the portal running, and its summary says how to stop it', async () => {
    await writeConfig();
    // `script` gives relctl a terminal on stdin and stderr, as a maintainer's shell does; no CI variable.
    const { execa } = await import('execa');
    const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('RELCTL_') && k !== 'CI'));
    const line = ['node', binPath, 'run', 'smoke', '--yes', '--cwd', project].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(' ');
    const r = await execa('script', ['-qec', line, '/dev/null'], { env: { ...base, ...env(), HOME: home(), NO_COLOR: '1', TERM: 'dumb' }, extendEnv: false, reject: false, timeout: 60_000, input: '' });
    expect(r.exitCode, r.stdout).toBe(0);
    expect(r.stdout).toContain(`still running at http://127.0.0.1:${port}/health for you to try: relctl smoke --stop ends it`);
    // No stop after the probe (the fixture's server itself goes with script's terminal session).
    expect(await calls()).toEqual(['tomcatStop', 'clean', 'tomcatDeploy', 'tomcatStart']);
    await access(path.join(project, '.relctl', 'smoke-running.json'));
  });

  // The branch is the one the tests above had relctl distribute push to origin.
  it('Ctrl-C while testing the branch stops the server, removes the worktree and exits 130', async () => {
    await writeConfig({ deadline: 120 });
    const child = spawnCli(['smoke', '--release-version', '1.1.0', '--cwd', project], { env: { ...env({ SMOKE_SLOW: '1' }), HOME: home() } });
    for (let i = 0; i < 200; i++) {
      const up = await fetch(`http://127.0.0.1:${port}/health`).then((res) => res.status === 503, () => false);
      if (up) break;
      await sleep(100);
    }
    expect((await git(dist, home(), 'worktree', 'list')).split('\n')).toHaveLength(2);
    child.kill('SIGINT');
    const result = await child;
    expect(result.exitCode).toBe(130);
    expect((await calls()).slice(-2)).toEqual(['tomcatStart', 'tomcatStop']);
    await expect(fetch(`http://127.0.0.1:${port}/health`)).rejects.toThrow();
    expect((await git(dist, home(), 'worktree', 'list')).split('\n')).toHaveLength(1);
  });
});
