import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { runCli, type CliResult } from '../helpers/cli.js';
import { History } from '../helpers/history.js';
import { git, tempDir, type TempDir } from '../helpers/temp.js';
import { pushTagToSandbox } from './notes-github-tags.js';
import { control, pomXml } from './upload-helpers.js';

/**
 * `relctl notes --publish` against the sandbox's GitHub stand-in: one release per tag however
 * often it runs, an update only with --yes after the difference is shown, a dry run without a
 * token, and the token (from the environment or `gh auth token`) never printed nor in argv.
 */
const canary = 'ghp_canaryQ7x_Z9k!secret';
const ghCanary = 'gho_fromGhCli_W3q!secret';
let sb: RunningSandbox;
let work: TempDir;
let dir: string;
let binDir: string;
let argvLog: string;

function env(extra: Record<string, string> = {}): Record<string, string> {
  return {
    RELCTL_GITHUB_API_URL: sb.urls.githubApiUrl,
    RELCTL_PUBLIC_REPO_URL: sb.urls.publicRepoUrl,
    GITHUB_TOKEN: '',
    PATH: `${binDir}:/usr/bin:/bin`,
    ...extra,
  };
}
const run = (args: string[], extra?: Record<string, string>): Promise<CliResult> =>
  runCli(['notes', '--cwd', dir, '--offline', '--repo', 'acme/demo', ...args], { home: work.path, env: env(extra) });

async function releases(): Promise<{ id: number; tag_name: string; body: string; author: { login: string } }[]> {
  const r = await request(`${sb.urls.githubApiUrl}/repos/acme/demo/releases`);
  return (await r.body.json()) as never;
}

function assertClean(r: CliResult): void {
  for (const s of [canary, ghCanary, encodeURIComponent(canary)]) {
    expect(r.stdout.includes(s) || r.stderr.includes(s), 'token leaked').toBe(false);
  }
}

beforeAll(async () => {
  work = await tempDir();
  sb = await startSandbox();
  dir = path.join(work.path, 'demo');
  const h = await History.create(dir, work.path, { 'pom.xml': pomXml({ groupId: 'org.example', artifactId: 'demo', version: '1.1.0-SNAPSHOT' }) });
  await h.mavenRelease('demo', '1.0.0');
  await h.commit('feat: one');
  await h.commit('fix: two');
  await h.mavenRelease('demo', '1.0.1');
  // A gh stand-in that records its argv and prints a token, as `gh auth token` does.
  binDir = path.join(work.path, 'bin');
  argvLog = path.join(work.path, 'argv.log');
  await mkdir(binDir, { recursive: true });
  await writeFile(path.join(binDir, 'gh'), `#!/bin/sh\nprintf '%s\\n' "gh $*" >> "${argvLog}"\necho '${ghCanary}'\n`);
  await chmod(path.join(binDir, 'gh'), 0o755);
  await writeFile(argvLog, '');
  for (const repo of ['acme/demo', 'acme/lost']) await pushTagToSandbox(sb.urls.githubApiUrl, repo, 'demo-1.0.1');
}, 60_000);

afterAll(async () => {
  await sb?.close();
  await work?.[Symbol.asyncDispose]();
});

describe('relctl notes --publish', () => {
  it('--dry-run shows the request and needs no token; nothing is created', async () => {
    const r = await run(['--publish', '--dry-run', '--json'], { PATH: '/usr/bin:/bin' });
    expect(r.exitCode, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as { dryRun: boolean; request: { method: string; url: string; body: { tag_name: string; name: string } } };
    expect(doc.dryRun).toBe(true);
    expect(doc.request).toMatchObject({ method: 'POST', url: `${sb.urls.githubApiUrl}/repos/acme/demo/releases`, body: { tag_name: 'demo-1.0.1', name: 'demo 1.0.1' } });
    expect(r.stderr).toContain(`! POST ${sb.urls.githubApiUrl}/repos/acme/demo/releases`);
    expect(await releases()).toEqual([]);
  });

  it('without any token a real publish is a usage error naming the variables', async () => {
    const r = await run(['--publish'], { PATH: '/usr/bin:/bin' });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('RELCTL_GITHUB_TOKEN');
  });

  it('publishing twice makes one release; other text is updated only with --yes, after the difference', async () => {
    const first = await run(['--publish', '--verbose'], { RELCTL_GITHUB_TOKEN: canary });
    expect(first.exitCode, first.stderr).toBe(0);
    assertClean(first);
    const url = first.stdout.trim();
    expect(url).toBe(`${new URL(sb.urls.githubApiUrl).origin}/github/acme/demo/releases/tag/demo-1.0.1`);
    expect(first.stderr).toContain('release page created');
    const again = await run(['--publish', '--json'], { RELCTL_GITHUB_TOKEN: canary });
    expect(again.exitCode, again.stderr).toBe(0);
    expect((JSON.parse(again.stdout) as { releaseUrl: string }).releaseUrl).toBe(url);
    let list = await releases();
    expect(list).toHaveLength(1);
    expect(list[0]!.body).toContain('## Features\n\n- one (');
    // The token names a user, never itself.
    expect(list[0]!.author.login).toMatch(/^user-[0-9a-f]{8}$/);

    // The same text by another route (--since naming the same start): left alone, same URL.
    const same = await run(['--publish', '--since', 'demo-1.0.0', '--release-version', '1.0.1'], { RELCTL_GITHUB_TOKEN: canary });
    expect(same.stdout.trim()).toBe(url);
    expect(same.stderr).toContain('release page unchanged');
    const refused = await run(['--publish', '--since', 'HEAD~2', '--release-version', '1.0.1'], { RELCTL_GITHUB_TOKEN: canary });
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('is updated only with --yes');
    expect(refused.stderr).toMatch(/^- .*## Features/m);
    const updated = await run(['--publish', '--since', 'HEAD~2', '--release-version', '1.0.1', '--yes'], { RELCTL_GITHUB_TOKEN: canary });
    expect(updated.exitCode, updated.stderr).toBe(0);
    expect(updated.stderr).toContain('release page updated');
    list = await releases();
    expect(list).toHaveLength(1);
    expect(list[0]!.body).not.toContain('## Features');
  });

  it('the token from `gh auth token` is used, never printed, and no child gets a token in its argv', async () => {
    const r = await run(['--publish', '--verbose', '--since', 'demo-1.0.0', '--yes']);
    expect(r.exitCode, r.stderr).toBe(0);
    assertClean(r);
    expect(r.stderr).toContain('GitHub token from gh auth token');
    const argv = await readFile(argvLog, 'utf8');
    expect(argv).toContain('gh auth token --hostname 127.0.0.1:');
    expect(argv.includes(ghCanary) || argv.includes(canary)).toBe(false);
    const list = await releases();
    expect(list).toHaveLength(1);
    expect(list[0]!.author.login).toMatch(/^user-/);
  });

  it('a create whose answer is lost is request-ambiguous (exit 3); running again makes exactly one release', async () => {
    const repo = ['--repo', 'acme/lost'];
    await control(sb, 'POST', 'faults', { prefix: '/github/api/repos/acme/lost/releases', method: 'POST', reset: true });
    const lost = await run([...repo, '--publish'], { RELCTL_GITHUB_TOKEN: canary });
    expect(lost.exitCode).toBe(3);
    expect(lost.stderr).toContain('fix: Run relctl notes --publish again');
    assertClean(lost);
    const again = await run([...repo, '--publish'], { RELCTL_GITHUB_TOKEN: canary });
    expect(again.exitCode, again.stderr).toBe(0);
    const r = await request(`${sb.urls.githubApiUrl}/repos/acme/lost/releases`);
    expect(((await r.body.json()) as unknown[]).length).toBe(1);
  });

  it('an answer that is not GitHub\'s JSON is unexpected-response (exit 3), never a made-up URL', async () => {
    await control(sb, 'POST', 'faults', { prefix: '/github/api/repos/acme/html/releases/tags/', status: 200, body: '<html>login</html>' });
    const r = await run(['--repo', 'acme/html', '--publish', '--json'], { RELCTL_GITHUB_TOKEN: canary });
    expect(r.exitCode).toBe(3);
    expect((JSON.parse(r.stdout) as { error: { kind: string } }).error.kind).toBe('unexpected-response');
  });

  it('a redirect (a moved repository) is not followed: exit 3 saying so', async () => {
    await control(sb, 'POST', 'faults', { prefix: '/github/api/repos/acme/moved/releases/tags/', status: 301, body: { message: 'Moved Permanently' } });
    const r = await run(['--repo', 'acme/moved', '--publish'], { RELCTL_GITHUB_TOKEN: canary });
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toContain('GitHub redirected the lookup of the release of demo-1.0.1 (HTTP 301); relctl follows no redirects on API calls.');
    const list = await request(`${sb.urls.githubApiUrl}/repos/acme/moved/releases`);
    expect(await list.body.json()).toEqual([]);
  });

  it('without --repo or tracker.repo, the origin remote names the repository, whatever its host', async () => {
    await git(dir, work.path, 'remote', 'add', 'origin', 'git@git.example.org:acme/from-origin.git');
    try {
      const r = await runCli(['notes', '--cwd', dir, '--offline', '--publish', '--dry-run', '--json'], { home: work.path, env: env() });
      expect(r.exitCode, r.stderr).toBe(0);
      expect((JSON.parse(r.stdout) as { request: { url: string } }).request.url).toBe(`${sb.urls.githubApiUrl}/repos/acme/from-origin/releases`);
    } finally {
      await git(dir, work.path, 'remote', 'remove', 'origin');
    }
  });
});
