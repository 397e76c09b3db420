import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Octokit } from '@octokit/rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { runCli } from '../helpers/cli.js';
import { bareRepo, childPom, legacyUrl, parentPom, stagingUrl } from '../helpers/fleet.js';
import { git, gitEnv, tempDir, type TempDir } from '../helpers/temp.js';
import { control } from './upload-helpers.js';

interface State {
  githubPulls: { repository?: string; number: number; title: string; user?: string; state?: string; updatedAt?: string; updated_at?: string }[];
  githubPushes: unknown[];
  githubComments: unknown[];
}
interface Repo {
  name: string;
  verdict: string;
  pullRequest: { url: string; number: number } | null;
  change?: { action: string; why?: string; parent?: { from: string; to: string } };
}

/**
 * DESIGN §13 Fix, end to end against the sandbox's GitHub stand-in: a parent and three children
 * that inherit its retired OSSRH URL. The first run opens the parent's pull request only; the
 * parent's release (merge, tag, version on the public repository) makes the next run open one
 * bump per child, or link a bump someone else already opened; a third run changes nothing; a 429
 * on the way is waited out; the token is nowhere.
 */
describe('relctl fleet fix --open-prs against the sandbox', () => {
  let tmp: TempDir;
  let sandbox: RunningSandbox;
  let home: string;
  let root: string;
  let seed: string;
  const token = 'relctl-bot';
  const children = ['child-a', 'child-b', 'child-c'];

  beforeAll(async () => {
    tmp = await tempDir('relctl-fleet-prs-');
    home = path.join(tmp.path, 'home');
    root = path.join(tmp.path, 'git');
    seed = path.join(tmp.path, 'seed');
    // The parent's release 1 still deploys to OSSRH, and so does its tip: its own fix to make.
    await bareRepo(root, home, 'acme/acme-parent', [
      { files: { 'pom.xml': parentPom('1', legacyUrl) }, tag: 'acme-parent-1' },
      { files: { 'pom.xml': parentPom('2-SNAPSHOT', legacyUrl) } },
    ]);
    for (const child of children) await bareRepo(root, home, `acme/${child}`, [{ files: { 'pom.xml': childPom(child, '1') } }]);
    await publishParent('1');
    sandbox = await startSandbox({ gitRoot: root, seedRepo: seed });
  });
  afterAll(async () => {
    await sandbox?.close();
    await tmp[Symbol.asyncDispose]();
  });

  async function publishParent(version: string): Promise<void> {
    const dir = path.join(seed, 'org/acme/acme-parent', version);
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, `acme-parent-${version}.pom`), parentPom(version, stagingUrl));
  }
  const gh = (auth: string) => new Octokit({ baseUrl: sandbox.urls.githubApiUrl, auth });
  const pushUrl = (repo: string, who: string) => `${sandbox.urls.githubGitUrl!.replace('http://', `http://x-access-token:${who}@`)}/${repo}.git`;
  const state = async () => (await control(sandbox, 'GET', 'state')) as State;
  const fix = (...more: string[]) =>
    runCli(['fleet', 'fix', '--open-prs', '--pr-interval', '0', ...more, '--org', 'acme', '--github-url', sandbox.urls.githubApiUrl, '--public-repo-url', sandbox.urls.publicRepoUrl, '--workdir', path.join(tmp.path, 'work'), '--json'], {
      cwd: tmp.path,
      home,
      env: { ...gitEnv(home), RELCTL_GITHUB_TOKEN: token },
    });
  const reposOf = (stdout: string) => new Map((JSON.parse(stdout) as { repositories: Repo[] }).repositories.map((r) => [r.name, r]));

  it('first run: the parent\'s pull request only, a 403 and a 429 on the way waited out', async () => {
    // A secondary limit as a 403 with Retry-After, then as a 429: both waited out, then the call goes through.
    await control(sandbox, 'POST', 'faults', { github: 'secondary-rate-limit', status: 403, retryAfter: 1, count: 1, path: 'POST /repos/*/pulls' });
    await control(sandbox, 'POST', 'faults', { github: 'secondary-rate-limit', status: 429, retryAfter: 1, count: 1, path: 'POST /repos/*/pulls' });
    const r = await fix();
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr, r.stderr).toMatch(/GitHub.s rate limit: waiting 1 s before opening the pull request on acme\/acme-parent again/);
    const repos = reposOf(r.stdout);
    expect(repos.get('acme/acme-parent')).toMatchObject({ verdict: 'blocked', change: { action: 'opened' } });
    for (const child of children) expect(repos.get(`acme/${child}`)?.change?.action, child).toBe('waiting');
    expect(JSON.stringify(await control(sandbox, 'GET', 'faults'))).not.toContain('secondary-rate-limit');
    const pulls = (await state()).githubPulls;
    expect(pulls).toHaveLength(1);
    expect(pulls[0]).toMatchObject({ title: 'Publish through the Central Portal (legacy-staging-host)' });
    for (const text of [r.stdout, r.stderr]) expect(text).not.toContain(`x-access-token:${token}`);
  });

  it('after the parent\'s release: one bump per child, an equivalent bump by someone else linked', async () => {
    // The maintainer merges relctl's pull request and releases 2 (tag, next snapshot, on the public repository).
    await gh('maintainer').rest.pulls.merge({ owner: 'acme', repo: 'acme-parent', pull_number: 1 });
    const work = path.join(tmp.path, 'parent-work');
    await git(tmp.path, home, 'clone', '-q', pushUrl('acme/acme-parent', 'maintainer'), work);
    await writeFile(path.join(work, 'pom.xml'), parentPom('2', stagingUrl));
    await git(work, home, 'commit', '-q', '-am', 'release 2');
    await git(work, home, 'tag', 'acme-parent-2');
    await writeFile(path.join(work, 'pom.xml'), parentPom('3-SNAPSHOT', stagingUrl));
    await git(work, home, 'commit', '-q', '-am', 'next: 3-SNAPSHOT');
    await git(work, home, 'push', '-q', 'origin', 'HEAD:main', 'acme-parent-2');
    await publishParent('2');
    // A dependency bot already opened the same bump on child-c.
    const bot = path.join(tmp.path, 'bot-work');
    await git(tmp.path, home, 'clone', '-q', pushUrl('acme/child-c', 'depbot'), bot);
    await git(bot, home, 'checkout', '-q', '-b', 'depbot/parent-2');
    await writeFile(path.join(bot, 'pom.xml'), childPom('child-c', '2'));
    await git(bot, home, 'commit', '-q', '-am', 'Bump acme-parent from 1 to 2');
    await git(bot, home, 'push', '-q', 'origin', 'depbot/parent-2');
    const botPull = await gh('depbot').rest.pulls.create({ owner: 'acme', repo: 'child-c', title: 'Bump acme-parent from 1 to 2', head: 'depbot/parent-2', base: 'main' });

    // At most one new pull request in this run: child-b's waits for the next one, and is not pushed yet.
    const limited = reposOf((await fix('--max-prs', '1')).stdout);
    expect(limited.get('acme/child-a')?.change).toMatchObject({ action: 'opened', parent: { from: '1', to: '2' } });
    expect(limited.get('acme/child-b')?.change).toMatchObject({ action: 'held', why: expect.stringMatching(/--max-prs 1/) });
    expect(limited.get('acme/child-c')).toMatchObject({ change: { action: 'linked' }, pullRequest: { number: botPull.data.number } });
    const r = await fix();
    expect(r.exitCode, r.stderr).toBe(0);
    const repos = reposOf(r.stdout);
    expect(repos.get('acme/child-a')?.change?.action).toBe('unchanged');
    expect(repos.get('acme/child-b')?.change).toMatchObject({ action: 'opened', parent: { from: '1', to: '2' } });
    expect(repos.get('acme/child-c')).toMatchObject({ change: { action: 'linked' }, pullRequest: { number: botPull.data.number } });
    expect(repos.get('acme/acme-parent')?.change?.action).toBe('none');
    const pulls = (await state()).githubPulls;
    // The parent's, the bot's and one per other child: no duplicate of the bot's.
    expect(pulls).toHaveLength(4);
    const bump = await gh('maintainer').rest.pulls.get({ owner: 'acme', repo: 'child-a', pull_number: repos.get('acme/child-a')!.pullRequest!.number });
    expect(bump.data.title).toBe('Move to org.acme:acme-parent 2');
    const files = await gh('maintainer').rest.pulls.listFiles({ owner: 'acme', repo: 'child-a', pull_number: bump.data.number });
    expect(files.data.map((f) => f.filename)).toEqual(['pom.xml']);
    expect(files.data[0]!.patch).toContain('+    <version>2</version>');
  });

  it('a third run with nothing new creates no commit, push, pull request or comment', async () => {
    const before = await state();
    const r = await fix();
    expect(r.exitCode, r.stderr).toBe(0);
    const after = await state();
    expect(after.githubPushes).toHaveLength(before.githubPushes.length);
    expect(after.githubComments).toHaveLength(before.githubComments.length);
    expect(after.githubPulls).toEqual(before.githubPulls);
    const repos = reposOf(r.stdout);
    for (const child of ['child-a', 'child-b']) expect(repos.get(`acme/${child}`)?.change?.action, child).toBe('unchanged');
    // The token was only ever a header in git's environment: never stored with a clone.
    const config = await readFile(path.join(tmp.path, 'work', 'acme', 'child-a', '.git', 'config'), 'utf8');
    expect(config).not.toContain(token);
  });

  it('does not open again a pull request its maintainers closed without merging', async () => {
    const closed = await gh('maintainer').rest.pulls.list({ owner: 'acme', repo: 'child-b', state: 'open' });
    await gh('maintainer').rest.pulls.update({ owner: 'acme', repo: 'child-b', pull_number: closed.data[0]!.number, state: 'closed' });
    const before = (await state()).githubPulls.length;
    const r = await fix();
    expect(reposOf(r.stdout).get('acme/child-b')?.change).toMatchObject({ action: 'none', why: expect.stringMatching(/closed without merging/) });
    expect((await state()).githubPulls).toHaveLength(before);
  });
});
