import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { Octokit } from '@octokit/rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { bareRepo, gitAsUser } from '../helpers/git-root.js';
import { tempDir, writeTree, type TempDir } from '../helpers/temp.js';
import { call } from './sandbox-fixture.js';
import { control } from './upload-helpers.js';

/**
 * Pull requests, issues, comments and rate-limit faults of the GitHub stand-in on `--git-root`
 * repositories (DESIGN §13 Sandbox), as `relctl fleet fix --open-prs` and `fleet report` meet them:
 * branches pushed with the real git CLI, the API through @octokit/rest unchanged.
 */
let sb: RunningSandbox;
let tmp: TempDir;
let home: string;
let root: string;
let clones = 0;
const silent = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
const kit = (token?: string): Octokit => new Octokit({ baseUrl: sb.urls.githubApiUrl, ...(token === undefined ? {} : { auth: token }), log: silent });
const git = (cwd: string, ...args: string[]) => gitAsUser(home, {}, cwd, ...args);
const bare = (repo: string): string => path.join(root, `${repo}.git`);
const tip = async (repo: string, branch: string): Promise<string> => (await git(root, '--git-dir', bare(repo), 'rev-parse', `refs/heads/${branch}`)).stdout;
const state = async (): Promise<Record<string, { repository: string; [key: string]: unknown }[]>> => (await call(`http://127.0.0.1:${sb.port}/sandbox/state`)).json();

/** A commit writing `files` on top of `from`, pushed over smart HTTP with alice's token as `branch`; its sha. */
async function pushChange(repo: string, branch: string, files: Record<string, string>, from = 'main'): Promise<string> {
  const dir = path.join(tmp.path, 'clones', String((clones += 1)));
  expect((await git(tmp.path, 'clone', '-q', '-b', from, `${sb.urls.githubGitUrl}/${repo}.git`, dir)).exitCode).toBe(0);
  await writeTree(dir, files);
  await git(dir, 'add', '-A');
  await git(dir, 'commit', '-q', '-m', `${branch}: ${Object.keys(files).join(', ')}`);
  const pushed = await git(dir, 'push', '-q', `http://x-access-token:alice@127.0.0.1:${sb.port}/github/${repo}.git`, `HEAD:refs/heads/${branch}`);
  expect(pushed.stderr).toBe('');
  return (await git(dir, 'rev-parse', 'HEAD')).stdout;
}

/** What @octokit/rest threw: the status and GitHub's error body. */
async function failure(p: Promise<unknown>): Promise<{ status: number; data: any; headers: Record<string, string> }> {
  try {
    await p;
  } catch (error) {
    const e = error as { status: number; response: { data: unknown; headers: Record<string, string> } };
    return { status: e.status, data: e.response.data, headers: e.response.headers };
  }
  throw new Error('the call succeeded');
}

beforeAll(async () => {
  tmp = await tempDir('relctl-sbpulls-');
  home = path.join(tmp.path, 'home');
  root = path.join(tmp.path, 'root');
  await mkdir(home, { recursive: true });
  for (const name of ['lib', 'merge', 'dash', 'limits', 'bodies']) {
    await bareRepo(root, home, `acme/${name}`, { files: { 'pom.xml': '<project>1</project>\n', 'README.md': '# readme\n' } });
  }
  sb = await startSandbox({ gitRoot: root });
});
afterAll(async () => {
  await sb?.close();
  await tmp?.[Symbol.asyncDispose]();
});

describe('pull requests on --git-root repositories', () => {
  const repo = { owner: 'acme', repo: 'lib' };

  it('creates one between pushed branches in GitHub\'s shape, numbered with the issues; 422 for a duplicate, nothing new, an unknown branch', async () => {
    const o = kit('alice');
    expect((await o.rest.issues.create({ ...repo, title: 'tracking' })).data.number).toBe(1);
    const head = await pushChange('acme/lib', 'relctl/central-portal', { 'pom.xml': '<project>2</project>\n' });
    const pr = await o.rest.pulls.create({ ...repo, title: 'Central Portal', body: 'why', head: 'acme:relctl/central-portal', base: 'main' });
    expect(pr.status).toBe(201);
    expect(pr.data).toMatchObject({
      number: 2,
      state: 'open',
      title: 'Central Portal',
      body: 'why',
      merged: false,
      merged_at: null,
      user: { login: 'alice' },
      html_url: `${sb.urls.githubGitUrl}/acme/lib/pull/2`,
      head: { ref: 'relctl/central-portal', sha: head, label: 'acme:relctl/central-portal', repo: { full_name: 'acme/lib' } },
      base: { ref: 'main', sha: await tip('acme/lib', 'main') },
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      updated_at: expect.any(String),
    });

    const again = await failure(o.rest.pulls.create({ ...repo, title: 'again', head: 'relctl/central-portal', base: 'main' }));
    expect(again).toMatchObject({ status: 422, data: { message: 'Validation Failed', errors: [{ resource: 'PullRequest', code: 'custom', message: 'A pull request already exists for acme:relctl/central-portal.' }] } });
    await git(root, '--git-dir', bare('acme/lib'), 'update-ref', 'refs/heads/level', await tip('acme/lib', 'main'));
    expect(await failure(o.rest.pulls.create({ ...repo, title: 't', head: 'level', base: 'main' }))).toMatchObject({ status: 422, data: { errors: [{ message: 'No commits between main and level' }] } });
    expect((await failure(o.rest.pulls.create({ ...repo, title: 't', head: 'nope', base: 'main' }))).data.errors).toEqual([{ resource: 'PullRequest', code: 'invalid', field: 'head' }]);
    expect((await failure(o.rest.pulls.create({ ...repo, title: 't', head: 'relctl/central-portal', base: 'nope' }))).data.errors).toEqual([{ resource: 'PullRequest', code: 'invalid', field: 'base' }]);
    expect((await failure(o.rest.pulls.create({ ...repo, title: 't', head: 'bob:relctl/central-portal', base: 'main' }))).status).toBe(422);
    expect((await failure(kit().rest.pulls.create({ ...repo, title: 't', head: 'relctl/central-portal', base: 'main' }))).status).toBe(401);
    expect((await state()).githubPulls!.filter((p) => p.repository === 'acme/lib')).toMatchObject([{ number: 2, head: 'relctl/central-portal', base: 'main', user: 'alice', merged: false }]);
  });

  it('lists by head, base and state, newest first, paged with Link', async () => {
    const o = kit('bob');
    await pushChange('acme/lib', 'feature-b', { 'b.txt': 'b\n' });
    expect((await o.rest.pulls.create({ ...repo, title: 'B', head: 'feature-b', base: 'main' })).data.number).toBe(3);
    const numbers = async (query: Record<string, string | number>): Promise<number[]> => (await o.rest.pulls.list({ ...repo, ...query })).data.map((p) => p.number);
    expect(await numbers({ state: 'open', head: 'acme:relctl/central-portal' })).toEqual([2]);
    expect(await numbers({ state: 'all', head: 'ACME:relctl/central-portal' })).toEqual([2]);
    expect(await numbers({ state: 'closed', head: 'acme:relctl/central-portal' })).toEqual([]);
    expect(await numbers({ head: 'acme:other' })).toEqual([]);
    expect(await numbers({ base: 'develop' })).toEqual([]);
    expect(await numbers({})).toEqual([3, 2]);
    expect(await numbers({ direction: 'asc' })).toEqual([2, 3]);
    const first = await call(`${sb.urls.githubApiUrl}/repos/acme/lib/pulls?state=all&per_page=1`);
    expect(first.headers.link).toBe(`<${sb.urls.githubApiUrl}/repos/acme/lib/pulls?state=all&per_page=1&page=2>; rel="next", <${sb.urls.githubApiUrl}/repos/acme/lib/pulls?state=all&per_page=1&page=2>; rel="last"`);
    expect((await o.paginate(o.rest.pulls.list, { ...repo, state: 'all', per_page: 1 })).map((p) => p.number)).toEqual([3, 2]);
    // Pulls are issues too, as on GitHub.
    expect((await o.rest.issues.listForRepo({ ...repo, state: 'all' })).data.map((i) => [i.number, i.pull_request !== undefined])).toEqual([[3, true], [2, true], [1, false]]);
  });

  it('follows a push in head.sha while open; a closed one keeps its commit; PATCH changes title, body, state', async () => {
    const o = kit('alice');
    const moved = await pushChange('acme/lib', 'relctl/central-portal', { 'NEWS.md': 'news\n' }, 'relctl/central-portal');
    expect((await o.rest.pulls.get({ ...repo, pull_number: 2 })).data.head.sha).toBe(moved);
    expect((await o.rest.pulls.list({ ...repo, head: 'acme:relctl/central-portal' })).data[0]!.head.sha).toBe(moved);
    const closed = await o.rest.pulls.update({ ...repo, pull_number: 3, title: 'B2', body: 'new body', state: 'closed' });
    expect(closed.data).toMatchObject({ title: 'B2', body: 'new body', state: 'closed', merged: false, closed_at: expect.any(String) });
    const before = closed.data.head.sha;
    const later = await pushChange('acme/lib', 'feature-b', { 'b.txt': 'b2\n' }, 'feature-b');
    expect((await o.rest.pulls.get({ ...repo, pull_number: 3 })).data.head.sha).toBe(before);
    expect((await o.rest.pulls.update({ ...repo, pull_number: 3, state: 'open' })).data.head.sha).toBe(later);
    expect((await failure(o.rest.pulls.get({ ...repo, pull_number: 1 }))).status).toBe(404);
  });

  it('lists a pull\'s changed files with git\'s patch, its commits, and compares base...head', async () => {
    const o = kit('alice');
    const files = (await o.rest.pulls.listFiles({ ...repo, pull_number: 2 })).data;
    expect(files).toEqual([
      expect.objectContaining({ filename: 'NEWS.md', status: 'added', additions: 1, deletions: 0, changes: 1, patch: '@@ -0,0 +1 @@\n+news' }),
      expect.objectContaining({ filename: 'pom.xml', status: 'modified', additions: 1, deletions: 1, patch: '@@ -1 +1 @@\n-<project>1</project>\n+<project>2</project>' }),
    ]);
    const head = await tip('acme/lib', 'relctl/central-portal');
    const commits = (await o.rest.pulls.listCommits({ ...repo, pull_number: 2 })).data;
    expect(commits.map((c) => c.sha)).toEqual([(await git(root, '--git-dir', bare('acme/lib'), 'rev-parse', `${head}~1`)).stdout, head]);
    expect(commits[1]!.commit).toMatchObject({ message: 'relctl/central-portal: NEWS.md', author: { name: 'Test', email: 'test@example.invalid' } });

    const compared = await o.rest.repos.compareCommitsWithBasehead({ ...repo, basehead: 'main...relctl/central-portal' });
    expect(compared.data).toMatchObject({ status: 'ahead', ahead_by: 2, behind_by: 0, total_commits: 2, base_commit: { sha: await tip('acme/lib', 'main') } });
    expect(compared.data.files!.map((f) => [f.filename, f.status])).toEqual([['NEWS.md', 'added'], ['pom.xml', 'modified']]);
    const byOwner = await o.rest.repos.compareCommits({ ...repo, base: 'acme:main', head: head });
    expect(byOwner.data.commits.map((c) => c.sha)).toEqual(commits.map((c) => c.sha));
    expect((await failure(o.rest.repos.compareCommitsWithBasehead({ ...repo, basehead: 'main...nope' }))).status).toBe(404);
  });
});

describe('merging a pull request', () => {
  const repo = { owner: 'acme', repo: 'merge' };

  it('fast-forwards the bare repository\'s base, marks the pull merged and closed; a second merge is 405', async () => {
    const o = kit('alice');
    const head = await pushChange('acme/merge', 'ff', { 'pom.xml': '<project>3</project>\n' });
    const pr = (await o.rest.pulls.create({ ...repo, title: 'ff', head: 'ff', base: 'main' })).data;
    expect((await failure(o.rest.pulls.merge({ ...repo, pull_number: pr.number, sha: '0'.repeat(40) }))).status).toBe(409);
    const merged = await o.rest.pulls.merge({ ...repo, pull_number: pr.number });
    expect(merged.data).toEqual({ sha: head, merged: true, message: 'Pull Request successfully merged' });
    expect(await tip('acme/merge', 'main')).toBe(head);
    expect((await o.rest.pulls.get({ ...repo, pull_number: pr.number })).data).toMatchObject({ state: 'closed', merged: true, merged_at: expect.any(String), merge_commit_sha: head, merged_by: { login: 'alice' } });
    expect((await o.rest.pulls.checkIfMerged({ ...repo, pull_number: pr.number })).status).toBe(204);
    expect(await failure(o.rest.pulls.merge({ ...repo, pull_number: pr.number }))).toMatchObject({ status: 405, data: { message: 'Pull Request is not mergeable' } });
    expect((await o.rest.pulls.listFiles({ ...repo, pull_number: pr.number })).data.map((f) => f.filename)).toEqual(['pom.xml']);
  });

  it('makes a merge commit (committer GitHub) when the base moved on; a conflict is 405 and leaves the base alone', async () => {
    const o = kit('alice');
    const head = await pushChange('acme/merge', 'side', { 'side.txt': 'side\n' });
    const base = await pushChange('acme/merge', 'main', { 'main.txt': 'main\n' });
    const pr = (await o.rest.pulls.create({ ...repo, title: 'side', head: 'side', base: 'main' })).data;
    const merged = await o.rest.pulls.merge({ ...repo, pull_number: pr.number });
    const shown = (await git(root, '--git-dir', bare('acme/merge'), 'show', '-s', '--format=%P|%cn|%an|%s', 'refs/heads/main')).stdout;
    expect(shown).toBe(`${base} ${head}|GitHub|alice|Merge pull request #${pr.number} from acme/side`);
    expect(await tip('acme/merge', 'main')).toBe(merged.data.sha);
    expect((await git(root, '--git-dir', bare('acme/merge'), 'show', 'refs/heads/main:side.txt')).stdout).toBe('side');

    await pushChange('acme/merge', 'clash', { 'README.md': 'theirs\n' });
    const mainBefore = await pushChange('acme/merge', 'main', { 'README.md': 'ours\n' });
    const clash = (await o.rest.pulls.create({ ...repo, title: 'clash', head: 'clash', base: 'main' })).data;
    expect(await failure(o.rest.pulls.merge({ ...repo, pull_number: clash.number }))).toMatchObject({ status: 405, data: { message: 'Pull Request is not mergeable' } });
    expect(await tip('acme/merge', 'main')).toBe(mainBefore);
    expect((await o.rest.pulls.get({ ...repo, pull_number: clash.number })).data).toMatchObject({ state: 'open', merged: false });
  });

  it('squashes into one commit on the base when asked; rebase is refused with 405', async () => {
    const o = kit('alice');
    const before = await tip('acme/merge', 'main');
    await pushChange('acme/merge', 'squash-me', { 'sq.txt': 'sq\n' });
    const pr = (await o.rest.pulls.create({ ...repo, title: 'squash me', head: 'squash-me', base: 'main' })).data;
    expect((await failure(o.rest.pulls.merge({ ...repo, pull_number: pr.number, merge_method: 'rebase' }))).status).toBe(405);
    const merged = await o.rest.pulls.merge({ ...repo, pull_number: pr.number, merge_method: 'squash', commit_title: 'Squashed' });
    const shown = (await git(root, '--git-dir', bare('acme/merge'), 'show', '-s', '--format=%P|%s', merged.data.sha)).stdout;
    expect(shown).toBe(`${before}|Squashed`);
    expect(await tip('acme/merge', 'main')).toBe(merged.data.sha);
  });

  it('works on the stand-in\'s own store too (refs and contents made through the API)', async () => {
    const o = kit('carol');
    const own = { owner: 'carol', repo: 'dist' };
    const put = await o.rest.repos.createOrUpdateFileContents({ ...own, path: 'v.txt', message: 'v1', content: Buffer.from('1\n').toString('base64') });
    await o.rest.git.createRef({ ...own, ref: 'refs/heads/bump', sha: put.data.commit.sha! });
    const bump = await o.rest.repos.createOrUpdateFileContents({ ...own, path: 'v.txt', message: 'v2', content: Buffer.from('2\n').toString('base64'), sha: put.data.content!.sha!, branch: 'bump' });
    const pr = (await o.rest.pulls.create({ ...own, title: 'bump', head: 'bump', base: 'main' })).data;
    expect((await o.rest.pulls.listFiles({ ...own, pull_number: pr.number })).data).toMatchObject([{ filename: 'v.txt', status: 'modified', patch: '@@ -1,1 +1,1 @@\n-1\n+2' }]);
    expect((await o.rest.pulls.merge({ ...own, pull_number: pr.number })).data.sha).toBe(bump.data.commit.sha);
    expect((await o.rest.git.getRef({ ...own, ref: 'heads/main' })).data.object.sha).toBe(bump.data.commit.sha);
  });
});

describe('issues and comments', () => {
  const repo = { owner: 'acme', repo: 'dash' };

  it('lists issues by creator and state, paged; finds one by title and edits it in place', async () => {
    const alice = kit('alice');
    for (const title of ['one', 'relctl fleet readiness', 'three']) await alice.rest.issues.create({ ...repo, title, body: 'old' });
    await kit('bob').rest.issues.create({ ...repo, title: 'relctl fleet readiness', labels: ['bug'] });
    await alice.rest.issues.update({ ...repo, issue_number: 1, state: 'closed' });
    const mine = await alice.paginate(alice.rest.issues.listForRepo, { ...repo, creator: 'alice', state: 'all', per_page: 2 });
    expect(mine.map((i) => [i.number, i.title, i.state])).toEqual([[3, 'three', 'open'], [2, 'relctl fleet readiness', 'open'], [1, 'one', 'closed']]);
    expect((await alice.rest.issues.listForRepo({ ...repo, creator: 'alice' })).data.map((i) => i.number)).toEqual([3, 2]);
    expect((await alice.rest.issues.listForRepo({ ...repo, labels: 'bug' })).data.map((i) => i.user!.login)).toEqual(['bob']);
    const found = mine.find((i) => i.title === 'relctl fleet readiness')!;
    await alice.rest.issues.update({ ...repo, issue_number: found.number, body: '| new | report |' });
    expect((await alice.rest.issues.get({ ...repo, issue_number: found.number })).data).toMatchObject({ body: '| new | report |', title: 'relctl fleet readiness', state: 'open' });
    const issues = (await state()).githubIssues!.filter((i) => i.repository === 'acme/dash');
    expect(issues.map((i) => [i.number, i.user, i.body])).toEqual([[1, 'alice', 'old'], [2, 'alice', '| new | report |'], [3, 'alice', 'old'], [4, 'bob', null]]);
  });

  it('comments on issues and pull requests: create, list, edit; counted on the issue; recorded in state', async () => {
    const o = kit('alice');
    const c = await o.rest.issues.createComment({ ...repo, issue_number: 2, body: 'first' });
    expect(c.status).toBe(201);
    expect(c.data).toMatchObject({ body: 'first', user: { login: 'alice' }, html_url: `${sb.urls.githubGitUrl}/acme/dash/issues/2#issuecomment-${c.data.id}`, issue_url: `${sb.urls.githubApiUrl}/repos/acme/dash/issues/2` });
    await kit('bob').rest.issues.createComment({ ...repo, issue_number: 2, body: 'second' });
    expect((await o.rest.issues.listComments({ ...repo, issue_number: 2 })).data.map((x) => [x.user!.login, x.body])).toEqual([['alice', 'first'], ['bob', 'second']]);
    await o.rest.issues.updateComment({ ...repo, comment_id: c.data.id, body: 'first, edited' });
    expect((await o.rest.issues.getComment({ ...repo, comment_id: c.data.id })).data.body).toBe('first, edited');
    expect((await o.rest.issues.get({ ...repo, issue_number: 2 })).data.comments).toBe(2);
    expect((await failure(o.rest.issues.createComment({ ...repo, issue_number: 99, body: 'x' }))).status).toBe(404);
    expect((await failure(o.rest.issues.createComment({ ...repo, issue_number: 2, body: '' }))).status).toBe(422);

    const onPull = await o.rest.issues.createComment({ owner: 'acme', repo: 'lib', issue_number: 2, body: 'updated the branch' });
    expect(onPull.data.html_url).toBe(`${sb.urls.githubGitUrl}/acme/lib/pull/2#issuecomment-${onPull.data.id}`);
    const recorded = (await state()).githubComments!;
    expect(recorded.map((x) => [x.repository, x.issue_number, x.user, x.body])).toEqual([
      ['acme/dash', 2, 'alice', 'first, edited'],
      ['acme/dash', 2, 'bob', 'second'],
      ['acme/lib', 2, 'alice', 'updated the branch'],
    ]);
  });
});

describe('GitHub\'s body limit', () => {
  const repo = { owner: 'acme', repo: 'bodies' };
  const tooLong = (resource: string) => ({ message: 'Validation Failed', errors: [{ resource, code: 'custom', field: 'body', message: 'body is too long (maximum is 65536 characters)' }] });
  const most = 'x'.repeat(65_536);
  const over = `${most}y`;

  it('takes 65,536 characters in an issue, a pull request and a comment, and refuses one more with GitHub\'s 422, creating or editing', async () => {
    const o = kit('alice');
    const issue = await o.rest.issues.create({ ...repo, title: 'dashboard', body: most });
    expect(issue.data.body).toBe(most);
    // Characters, not UTF-16 units: 65,536 emoji fit.
    expect((await o.rest.issues.update({ ...repo, issue_number: issue.data.number, body: '😀'.repeat(65_536) })).status).toBe(200);
    // One request at a time: a second one started beside the first would reject with nobody awaiting it yet.
    for (const refused of [() => o.rest.issues.create({ ...repo, title: 'too long', body: over }), () => o.rest.issues.update({ ...repo, issue_number: issue.data.number, body: over })]) {
      const f = await failure(refused());
      expect(f.status).toBe(422);
      expect(f.data).toMatchObject(tooLong('Issue'));
    }
    expect((await o.rest.issues.get({ ...repo, issue_number: issue.data.number })).data.body).toBe('😀'.repeat(65_536));

    await pushChange('acme/bodies', 'fix', { 'pom.xml': '<project>2</project>\n' });
    const refusedPull = await failure(o.rest.pulls.create({ ...repo, title: 'fix', body: over, head: 'fix', base: 'main' }));
    expect([refusedPull.status, refusedPull.data]).toMatchObject([422, tooLong('PullRequest')]);
    const pull = await o.rest.pulls.create({ ...repo, title: 'fix', body: most, head: 'fix', base: 'main' });
    const refusedEdit = await failure(o.rest.pulls.update({ ...repo, pull_number: pull.data.number, title: 'renamed', body: over }));
    expect([refusedEdit.status, refusedEdit.data]).toMatchObject([422, tooLong('PullRequest')]);
    expect((await o.rest.pulls.get({ ...repo, pull_number: pull.data.number })).data).toMatchObject({ title: 'fix', body: most });

    const comment = await o.rest.issues.createComment({ ...repo, issue_number: pull.data.number, body: most });
    for (const refused of [() => o.rest.issues.createComment({ ...repo, issue_number: pull.data.number, body: over }), () => o.rest.issues.updateComment({ ...repo, comment_id: comment.data.id, body: over })]) {
      const f = await failure(refused());
      expect([f.status, f.data]).toMatchObject([422, tooLong('IssueComment')]);
    }
    expect((await o.rest.issues.listComments({ ...repo, issue_number: pull.data.number })).data.map((c) => c.body)).toEqual([most]);
  });
});

describe('rate-limit faults', () => {
  const repo = { owner: 'acme', repo: 'limits' };

  it('answers the next N matching calls 429 with Retry-After and GitHub\'s message, then the call goes through', async () => {
    const o = kit('alice');
    await pushChange('acme/limits', 'one', { 'a.txt': 'a\n' });
    const pending = await control(sb, 'POST', 'faults', { github: 'secondary-rate-limit', status: 429, retryAfter: 2, count: 2, method: 'POST', path: '/repos/*/pulls' });
    expect(pending).toEqual([{ prefix: '/github/api', github: 'secondary-rate-limit', status: 429, retryAfter: 2, count: 2, method: 'POST', path: '/repos/*/pulls' }]);
    // Other calls are not touched.
    expect((await o.rest.pulls.list(repo)).status).toBe(200);
    for (let n = 0; n < 2; n += 1) {
      const refused = await failure(o.rest.pulls.create({ ...repo, title: 'one', head: 'one', base: 'main' }));
      expect(refused.status).toBe(429);
      expect(refused.headers).toMatchObject({ 'retry-after': '2', 'x-ratelimit-limit': '5000', 'x-github-request-id': expect.stringMatching(/^[0-9A-F]{4}:/) });
      expect(refused.data.message).toMatch(/^You have exceeded a secondary rate limit\. Please wait a few minutes before you try again\./);
    }
    expect((await state()).githubPulls!.filter((p) => p.repository === 'acme/limits')).toEqual([]);
    expect((await o.rest.pulls.create({ ...repo, title: 'one', head: 'one', base: 'main' })).status).toBe(201);
    expect((await state()).githubPulls!.filter((p) => p.repository === 'acme/limits')).toHaveLength(1);
    expect(await control(sb, 'GET', 'faults')).toEqual([]);
  });

  it('answers 403 with x-ratelimit-remaining 0 and the reset for the hourly limit; bad GitHub faults are 400', async () => {
    // The route form, as GitHub's docs write it: the method, then the path.
    expect(await control(sb, 'POST', 'faults', { github: 'rate-limit', resetAfter: 30, path: 'GET /repos/*/issues' })).toMatchObject([{ method: 'GET', path: '/repos/*/issues' }]);
    expect((await kit('alice').rest.pulls.list(repo)).status).toBe(200);
    const refused = await failure(kit('alice').rest.issues.listForRepo(repo));
    expect(refused.status).toBe(403);
    expect(refused.headers['x-ratelimit-remaining']).toBe('0');
    expect(Number(refused.headers['x-ratelimit-reset']) - Date.now() / 1000).toBeGreaterThan(25);
    expect(refused.headers['retry-after']).toBeUndefined();
    expect(refused.data.message).toMatch(/^API rate limit exceeded for user ID \d+\./);
    expect((await kit('alice').rest.issues.listForRepo(repo)).status).toBe(200);
    for (const bad of [{ github: 'other' }, { github: 'rate-limit', status: 500 }, { github: 'rate-limit', path: 'repos' }]) {
      const r = await call(`http://127.0.0.1:${sb.port}/sandbox/faults`, { method: 'POST', headers: { 'x-sandbox-token': sb.controlToken }, body: JSON.stringify(bad) });
      expect(r.status).toBe(400);
    }
  });
});
