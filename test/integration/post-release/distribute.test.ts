import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/server.js';
import { runCli } from '../../helpers/cli.js';
import { git, gitEnv, gitRepo, tempDir, type TempDir } from '../../helpers/temp.js';

// The GitHub token canary: never in output, never in a file relctl writes.
const token = 'ghp_DistributeCanary0000000000000000000';
const props = '# versions of the bundled portlets\nuPortalVersion=5.14.0\nnotificationPortletVersion=5.0.0\n';
const branch = 'relctl/notification-portlet-5.1.0';

let sandbox: RunningSandbox;
let dir: TempDir;
let project: string;
let api: string;
const home = (): string => path.join(dir.path, 'home');

async function gh(method: string, route: string, body?: unknown): Promise<{ status: number; json: any }> {
  const r = await fetch(`${api}${route}`, {
    method,
    headers: { authorization: `token ${token}`, accept: 'application/vnd.github+json', 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await r.text();
  return { status: r.status, json: text === '' ? undefined : JSON.parse(text) };
}
const fileOn = async (repo: string, ref: string): Promise<string> =>
  Buffer.from(((await gh('GET', `/repos/${repo}/contents/gradle.properties?ref=${encodeURIComponent(ref)}`)).json as { content: string }).content, 'base64').toString('utf8');

beforeAll(async () => {
  sandbox = await startSandbox();
  api = (sandbox.urls as unknown as { githubApiUrl: string }).githubApiUrl;
  dir = await tempDir('relctl-distribute-');
  project = path.join(dir.path, 'project');
  await gitRepo(project, home(), {
    'pom.xml': '<project><modelVersion>4.0.0</modelVersion><groupId>org.jasig.portlet.notification</groupId><artifactId>notification-portlet</artifactId><version>5.1.1-SNAPSHOT</version></project>\n',
    'relctl.config.json': JSON.stringify({ distribution: { repo: 'apereo/uPortal-start' } }),
  });
  await git(project, home(), 'tag', 'notification-portlet-5.0.0');
  await git(project, home(), 'commit', '-q', '--allow-empty', '-m', 'fix: the feed shows again after a timeout (#31)');
  await git(project, home(), 'tag', 'notification-portlet-5.1.0');
  // The distribution on the repository host: gradle.properties on main.
  const put = await gh('PUT', '/repos/apereo/uPortal-start/contents/gradle.properties', { message: 'versions', content: Buffer.from(props).toString('base64') });
  expect(put.status).toBe(201);
});
afterAll(async () => {
  await sandbox?.close();
  await dir?.[Symbol.asyncDispose]();
});

const relctl = (args: string[], env: Record<string, string> = { RELCTL_GITHUB_TOKEN: token }) =>
  runCli([...args, '--cwd', project], { home: home(), env: { ...gitEnv(home()), RELCTL_GITHUB_API_URL: api, GH_CONFIG_DIR: path.join(dir.path, 'no-gh'), ...env } });

describe('relctl distribute (owner/name, through the API)', () => {
  it('--dry-run shows the diff without a token and changes nothing', async () => {
    const r = await relctl(['distribute', '--dry-run'], {});
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe(
      ['--- a/gradle.properties', '+++ b/gradle.properties', '@@ -1,3 +1,3 @@', ' # versions of the bundled portlets', ' uPortalVersion=5.14.0', '-notificationPortletVersion=5.0.0', '+notificationPortletVersion=5.1.0'].join('\n'),
    );
    expect((await gh('GET', `/repos/apereo/uPortal-start/git/ref/heads/${branch}`)).status).toBe(404);
  });

  it('opens one pull request with the notes, and a rerun reports it instead of opening another', async () => {
    const r = await relctl(['distribute', '--verbose']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^opened pull request #\\d+ on apereo/uPortal-start \\(${branch}\\): .*/pull/\\d+$`));
    const pulls = (await gh('GET', '/repos/apereo/uPortal-start/pulls?state=all')).json as { title: string; body: string; head: { ref: string }; base: { ref: string } }[];
    expect(pulls).toHaveLength(1);
    expect(pulls[0]).toMatchObject({ title: 'chore: notification-portlet 5.1.0', head: { ref: branch }, base: { ref: 'main' } });
    expect(pulls[0]!.body).toMatch(/^notification-portlet 5\.1\.0\n\n## Fixes\n\n- the feed shows again after a timeout \(#31\) \([0-9a-f]{7}\)/);
    expect(await fileOn('apereo/uPortal-start', branch)).toBe(props.replace('notificationPortletVersion=5.0.0', 'notificationPortletVersion=5.1.0'));
    expect(await fileOn('apereo/uPortal-start', 'main')).toBe(props);

    const again = await relctl(['distribute', '--json']);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ state: 'already-open', pullRequest: { existing: true } });
    expect((await gh('GET', '/repos/apereo/uPortal-start/pulls?state=all')).json).toHaveLength(1);
    for (const out of [r, again]) expect(out.stdout + out.stderr).not.toContain(token);
  });

  it('names the candidates when the distribution pins no such property (exit 2)', async () => {
    await gh('PUT', '/repos/apereo/other-dist/contents/gradle.properties', { message: 'v', content: Buffer.from('newsPortletVersion=5.1.0\nx=5.0.0\n').toString('base64') });
    await writeFile(path.join(project, 'relctl.config.json'), JSON.stringify({ distribution: { repo: 'apereo/other-dist' } }));
    try {
      const r = await relctl(['distribute', '--dry-run'], {});
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain('gradle.properties has no notificationPortletVersion (lines with the previous release 5.0.0: x;');
    } finally {
      await writeFile(path.join(project, 'relctl.config.json'), JSON.stringify({ distribution: { repo: 'apereo/uPortal-start' } }));
    }
  });
});

describe('relctl distribute (a local clone)', () => {
  it('commits in a throwaway worktree, pushes the branch to origin, leaves the checkout as it was, opens the pull request', async () => {
    const bare = path.join(dir.path, 'remote', 'apereo', 'uPortal-local.git');
    const clone = path.join(dir.path, 'uPortal-local');
    await gitRepo(clone, home(), { 'gradle.properties': props });
    await git(dir.path, home(), 'init', '-q', '--bare', '-b', 'main', bare);
    await git(clone, home(), 'remote', 'add', 'origin', bare);
    await git(clone, home(), 'push', '-q', '-u', 'origin', 'main');
    await git(clone, home(), 'remote', 'set-head', 'origin', 'main');
    // The repository host sees what reaches origin: mirror main there (a push would on GitHub).
    await gh('PUT', '/repos/apereo/uPortal-local/contents/gradle.properties', { message: 'versions', content: Buffer.from(props).toString('base64') });
    await writeFile(path.join(project, 'relctl.config.json'), JSON.stringify({ distribution: { repo: '../uPortal-local' } }));

    const dry = await relctl(['distribute', '--dry-run'], {});
    expect(dry.exitCode, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('+notificationPortletVersion=5.1.0');

    // The sandbox host learns of the pushed branch the way GitHub would: a branch with the commit.
    const mainSha = (await gh('GET', '/repos/apereo/uPortal-local/git/ref/heads/main')).json.object.sha as string;
    await gh('POST', '/repos/apereo/uPortal-local/git/refs', { ref: `refs/heads/${branch}`, sha: mainSha });
    const onHost = (await gh('GET', `/repos/apereo/uPortal-local/contents/gradle.properties?ref=${encodeURIComponent(branch)}`)).json.sha as string;
    await gh('PUT', '/repos/apereo/uPortal-local/contents/gradle.properties', { message: 'x', branch, sha: onHost, content: Buffer.from(props.replace('5.0.0', '5.1.0')).toString('base64') });

    const r = await relctl(['distribute']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^opened pull request #\d+ on apereo\/uPortal-local/);
    expect(await git(bare, home(), 'log', '-1', '--format=%s', branch)).toBe('chore: notification-portlet 5.1.0');
    expect(await git(bare, home(), 'show', `${branch}:gradle.properties`)).toBe(props.replace('notificationPortletVersion=5.0.0', 'notificationPortletVersion=5.1.0').trimEnd());
    expect(await git(clone, home(), 'status', '--porcelain')).toBe('');
    expect(await git(clone, home(), 'rev-parse', '--abbrev-ref', 'HEAD')).toBe('main');
    expect(await readFile(path.join(clone, 'gradle.properties'), 'utf8')).toBe(props);
    expect((await git(clone, home(), 'worktree', 'list')).split('\n')).toHaveLength(1);
    expect(r.stdout + r.stderr).not.toContain(token);
  });
});
