import { access, copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, runCli, spawnCli } from '../../helpers/cli.js';
import { freePort } from '../../helpers/ports.js';
import { git, gitRepo, tempDir, type TempDir } from '../../helpers/temp.js';

// A distribution (git clone, gradle.properties, a fake gradlew whose tasks start and stop a real
// HTTP server) and a Gradle component beside it.
const fixture = path.join(repoRoot, 'test/fixtures/distribution');
let dir: TempDir;
let dist: string;
let project: string;
let state: string;
let port: number;
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
  await gitRepo(project, home(), {
    'settings.gradle': "rootProject.name = 'demo-component'\n",
    'gradle.properties': 'group=org.example\nversion=1.1.0-SNAPSHOT\n',
    'build.gradle': "plugins { id 'java' }\n",
  });
  await copyFile(path.join(fixture, 'gradlew'), path.join(project, 'gradlew'));
});
afterEach(async () => {
  await stopServer();
  await writeFile(path.join(state, 'calls'), '');
});
afterAll(async () => {
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
    expect(r.stdout).toContain(`smoke test passed: http://127.0.0.1:${port}/health answered HTTP 200: demo-component 1.0.0`);
    expect(await calls()).toEqual(['tomcatStop', 'clean', 'tomcatDeploy', 'tomcatStart']);
    const log = /output goes to (\S+)/.exec(r.stderr)![1]!;
    expect(log.startsWith(path.join(project, '.relctl'))).toBe(true);
    expect(await readFile(log, 'utf8')).toContain('> Task :tomcatDeploy deployed demo-component 1.0.0');
    // Still running afterwards: that is what a smoke test leaves behind.
    expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200);
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
  });

  it('--snapshot installs the snapshot and tests it in a throwaway worktree; the clone stays untouched', async () => {
    await writeConfig();
    const r = await relctl(['smoke', '--snapshot', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as { snapshot: { version: string; property: string }; probe: { last: string } };
    expect(doc.snapshot).toEqual({ version: '1.1.0-SNAPSHOT', property: 'demoComponentVersion' });
    expect(doc.probe.last).toBe('HTTP 200: demo-component 1.1.0-SNAPSHOT');
    expect(await calls()).toEqual(['publishToMavenLocal', 'tomcatStop', 'clean', 'tomcatDeploy', 'tomcatStart', 'tomcatStop']);
    expect(await readFile(path.join(dist, 'gradle.properties'), 'utf8')).toBe(distProps);
    expect(await git(dist, home(), 'status', '--porcelain')).toBe('');
    expect((await git(dist, home(), 'worktree', 'list')).split('\n')).toHaveLength(1);
  });
});
