import { chmod, readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/server.js';
import { runCli } from '../../helpers/cli.js';
import { secretCanaries, textsUnder } from '../../helpers/secret-canaries.js';
import { git, gitEnv, gitRepo, tempDir, writeTree, type TempDir } from '../../helpers/temp.js';

// The GitHub token canary: never in output, never in a file relctl writes.
const token = 'ghp_DistributeCanary0000000000000000000';
const props = '# versions of the bundled portlets\nuPortalVersion=5.14.0\nnotificationPortletVersion=5.0.0\n';
const branch = 'relctl/notification-portlet-5.1.0';

// The public repository has 5.1.0 (distribute refuses a version nobody can download).
const publishedPom = 'org/jasig/portlet/notification/notification-portlet/5.1.0/notification-portlet-5.1.0.pom';

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
  dir = await tempDir('relctl-distribute-');
  await writeTree(path.join(dir.path, 'seed'), { [publishedPom]: '<project/>\n' });
  sandbox = await startSandbox({ seedRepo: path.join(dir.path, 'seed') });
  api = sandbox.urls.githubApiUrl;
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
  runCli([...args, '--cwd', project], {
    home: home(),
    env: { ...gitEnv(home()), RELCTL_GITHUB_API_URL: api, RELCTL_PUBLIC_REPO_URL: sandbox.urls.publicRepoUrl, GH_CONFIG_DIR: path.join(dir.path, 'no-gh'), ...env },
  });

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

const setConfig = (config: unknown): Promise<void> => writeFile(path.join(project, 'relctl.config.json'), JSON.stringify(config));
const defaultConfig = { distribution: { repo: 'apereo/uPortal-start' } };

/** A distribution on the sandbox host: gradle.properties on main (and on `extra` branches made from main). */
async function hostRepo(repo: string, text: string, extra: string[] = []): Promise<void> {
  expect((await gh('PUT', `/repos/${repo}/contents/gradle.properties`, { message: 'versions', content: Buffer.from(text).toString('base64') })).status).toBe(201);
  const mainSha = (await gh('GET', `/repos/${repo}/git/ref/heads/main`)).json.object.sha as string;
  for (const b of extra) await gh('POST', `/repos/${repo}/git/refs`, { ref: `refs/heads/${b}`, sha: mainSha });
}

describe('relctl distribute: the contract and the version guard', () => {
  it('refuses a version the public repository does not have (exit 1, naming relctl status); --force goes on', async () => {
    await setConfig(defaultConfig);
    const r = await relctl(['distribute', '--release-version', '1.0.1', '--yes']);
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stderr).toContain('org.jasig.portlet.notification:notification-portlet:1.0.1 is not on 127.0.0.1');
    expect(r.stderr).toContain('relctl status');
    expect((await gh('GET', '/repos/apereo/uPortal-start/git/ref/heads/relctl/notification-portlet-1.0.1')).status).toBe(404);

    const dry = await relctl(['distribute', '--release-version', '1.0.1', '--dry-run', '--yes'], {});
    expect(dry.exitCode, dry.stderr).toBe(0);
    expect(dry.stderr).toContain('(dry run: going on to show the rest)');
    const forced = await relctl(['distribute', '--release-version', '1.0.1', '--dry-run', '--force'], {});
    expect(forced.exitCode, forced.stderr).toBe(0);
    expect(forced.stderr).toContain('going on because of --force');
    expect(forced.stdout).toContain('+notificationPortletVersion=1.0.1');
  });

  it('a release version with a trailing space is a usage error (exit 2)', async () => {
    const r = await relctl(['distribute', '--release-version', '5.1.0 ', '--dry-run'], {});
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('"5.1.0 " is not a release version');
  });

  it('warns once when the pin is not the previous release', async () => {
    await hostRepo('apereo/stale-dist', 'notificationPortletVersion=4.9.0\n');
    await setConfig({ distribution: { repo: 'apereo/stale-dist' } });
    try {
      const r = await relctl(['distribute']);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stderr.split('notificationPortletVersion is 4.9.0, not the previous release 5.0.0')).toHaveLength(2);
    } finally {
      await setConfig(defaultConfig);
    }
  });
});

describe('relctl distribute: what GitHub answers', () => {
  let server: Server;
  let loopback: string;
  beforeAll(async () => {
    // A GitHub stand-in that moved one repository and has no rate left for another.
    server = createServer((req, res) => {
      const json = (status: number, body: unknown, headers: Record<string, string> = {}): void => {
        res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers }).end(JSON.stringify(body));
      };
      if (req.url!.startsWith('/repos/apereo/moved/')) return json(301, { message: 'Moved Permanently', url: `${loopback}/repositories/42/pulls` }, { location: `${loopback}/repositories/42/pulls` });
      if (req.url!.startsWith('/repos/apereo/limited/')) {
        return json(403, { message: 'API rate limit exceeded for 127.0.0.1.' }, { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1893456000' });
      }
      return json(404, { message: 'Not Found' });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    loopback = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    await setConfig(defaultConfig);
    await new Promise((resolve) => server?.close(resolve));
  });

  it('a redirect reads as a redirect (the repository moved), exit 3', async () => {
    await setConfig({ distribution: { repo: 'apereo/moved' } });
    const r = await relctl(['distribute'], { RELCTL_GITHUB_TOKEN: token, RELCTL_GITHUB_API_URL: loopback });
    expect(r.exitCode, r.stderr).toBe(3);
    expect(r.stderr).toContain(`GitHub redirected the list of open pull requests on apereo/moved (HTTP 301 to ${loopback}/repositories/42/pulls)`);
    expect(r.stderr).toContain('set distribution.repo to its current owner/name');
    expect(r.stderr).not.toContain('is not a function');
  });

  it('a used-up rate limit says so and when to retry, exit 3', async () => {
    await setConfig({ distribution: { repo: 'apereo/limited' } });
    const r = await relctl(['distribute', '--json'], { RELCTL_GITHUB_TOKEN: token, RELCTL_GITHUB_API_URL: loopback });
    expect(r.exitCode, r.stderr).toBe(3);
    const doc = JSON.parse(r.stdout) as { ok: boolean; error: { code: string; message: string; fix: string } };
    expect(doc.error.code).toBe('github-rate-limited');
    expect(doc.error.message).toContain("GitHub's rate limit is used up");
    expect(doc.error.fix).toContain('after 2030-01-01T00:00:00.000Z');
  });

  it("a 422 names GitHub's failing field", async () => {
    await hostRepo('apereo/invalid-dist', props);
    await setConfig({ distribution: { repo: 'apereo/invalid-dist' } });
    const fault = { prefix: '/github/api/repos/apereo/invalid-dist/pulls', method: 'POST', status: 422, body: { message: 'Validation Failed', errors: [{ resource: 'PullRequest', field: 'base', code: 'invalid' }] } };
    const added = await fetch(`http://127.0.0.1:${sandbox.port}/sandbox/faults`, { method: 'POST', headers: { 'x-sandbox-token': sandbox.controlToken, 'content-type': 'application/json' }, body: JSON.stringify(fault) });
    expect(added.status).toBe(200);
    const r = await relctl(['distribute']);
    expect(r.exitCode, r.stderr).toBe(3);
    expect(r.stderr).toContain('opening the pull request on apereo/invalid-dist: GitHub refused the request as invalid (HTTP 422; GitHub said: Validation Failed; PullRequest.base: invalid)');
  });
});

// Without RELCTL_GITHUB_TOKEN relctl reads GITHUB_TOKEN: from then on no child inherits it.
const canary = secretCanaries('Distribute', ['RELCTL_GITHUB_TOKEN']);

/**
 * A local clone of a distribution whose bare origin dumps the environment of every push it
 * receives, and the same repository on the sandbox host (GitHub learns of pushed branches).
 */
async function localDistribution(name: string, options: { defaultBranch: string; setHead: boolean }): Promise<{ bare: string; clone: string; pushEnv: string }> {
  const bare = path.join(dir.path, 'remote', 'apereo', `${name}.git`);
  const clone = path.join(dir.path, name);
  const pushEnv = path.join(dir.path, `${name}-push.env`);
  await gitRepo(clone, home(), { 'gradle.properties': props });
  if (options.defaultBranch !== 'main') await git(clone, home(), 'branch', '-q', '-m', options.defaultBranch);
  await git(dir.path, home(), 'init', '-q', '--bare', '-b', options.defaultBranch, bare);
  await writeFile(path.join(bare, 'hooks', 'pre-receive'), `#!/bin/sh\nenv > '${pushEnv}'\n`);
  await chmod(path.join(bare, 'hooks', 'pre-receive'), 0o755);
  await git(clone, home(), 'remote', 'add', 'origin', bare);
  await git(clone, home(), 'push', '-q', '-u', 'origin', options.defaultBranch);
  if (options.setHead) await git(clone, home(), 'remote', 'set-head', 'origin', options.defaultBranch);
  // The sandbox host learns of the pushed branch the way GitHub would: a branch with the commit.
  await hostRepo(`apereo/${name}`, props, options.defaultBranch === 'main' ? [branch] : [options.defaultBranch, branch]);
  const onHost = (await gh('GET', `/repos/apereo/${name}/contents/gradle.properties?ref=${encodeURIComponent(branch)}`)).json.sha as string;
  await gh('PUT', `/repos/apereo/${name}/contents/gradle.properties`, { message: 'x', branch, sha: onHost, content: Buffer.from(props.replace('5.0.0', '5.1.0')).toString('base64') });
  await setConfig({ distribution: { repo: `../${name}` } });
  return { bare, clone, pushEnv };
}

describe('relctl distribute (a local clone)', () => {
  afterAll(() => setConfig(defaultConfig));

  it('commits in a throwaway worktree, pushes the branch to origin (no secret in its environment), leaves the checkout as it was, opens the pull request', async () => {
    const { bare, clone, pushEnv } = await localDistribution('uPortal-local', { defaultBranch: 'main', setHead: true });
    const dry = await relctl(['distribute', '--dry-run'], {});
    expect(dry.exitCode, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('+notificationPortletVersion=5.1.0');

    const r = await relctl(['distribute', '--verbose'], { ...canary.env, VISIBLE_MARKER: 'plain-variable-passes' });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^opened pull request #\d+ on apereo\/uPortal-local/);
    expect(await git(bare, home(), 'log', '-1', '--format=%s', branch)).toBe('chore: notification-portlet 5.1.0');
    expect(await git(bare, home(), 'show', `${branch}:gradle.properties`)).toBe(props.replace('notificationPortletVersion=5.0.0', 'notificationPortletVersion=5.1.0').trimEnd());
    expect(await git(clone, home(), 'status', '--porcelain')).toBe('');
    expect(await git(clone, home(), 'rev-parse', '--abbrev-ref', 'HEAD')).toBe('main');
    expect(await readFile(path.join(clone, 'gradle.properties'), 'utf8')).toBe(props);
    expect((await git(clone, home(), 'worktree', 'list')).split('\n')).toHaveLength(1);
    // git push ran with the user's environment minus relctl's secrets.
    const seen = await readFile(pushEnv, 'utf8');
    expect(seen).toContain('VISIBLE_MARKER=plain-variable-passes');
    const written = await textsUnder(project);
    for (const value of Object.values(canary.secrets)) {
      expect(seen).not.toContain(value);
      expect(r.stdout + r.stderr).not.toContain(value);
      for (const text of written) expect(text).not.toContain(value);
    }
  });

  it("a refused push names the user's clone, never relctl's temporary worktree (exit 3)", async () => {
    const { bare, clone } = await localDistribution('uPortal-refused', { defaultBranch: 'main', setHead: true });
    await writeFile(path.join(bare, 'hooks', 'pre-receive'), '#!/bin/sh\necho "pushes to relctl/ branches are refused by policy" >&2\nexit 1\n');
    const r = await relctl(['distribute']);
    expect(r.exitCode, r.stderr).toBe(3);
    expect(r.stderr).toContain(`git push failed in relctl's worktree of ${clone}:`);
    expect(r.stderr).toContain('pushes to relctl/ branches are refused by policy');
    expect(r.stderr).not.toMatch(/relctl-distribute-\w+\/worktree/);
    expect((await git(clone, home(), 'worktree', 'list')).split('\n')).toHaveLength(1);
  });

  it("uses the remote's default branch when the clone has no origin/HEAD", async () => {
    const { bare, clone } = await localDistribution('uPortal-develop', { defaultBranch: 'develop', setHead: false });
    const r = await relctl(['distribute', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ state: 'opened', base: 'develop', branch });
    expect(await git(bare, home(), 'rev-parse', `${branch}~1`)).toBe(await git(bare, home(), 'rev-parse', 'develop'));
    const pulls = (await gh('GET', '/repos/apereo/uPortal-develop/pulls?state=all')).json as { base: { ref: string } }[];
    expect(pulls.map((p) => p.base.ref)).toEqual(['develop']);
    expect(await git(clone, home(), 'status', '--porcelain')).toBe('');
  });
});
