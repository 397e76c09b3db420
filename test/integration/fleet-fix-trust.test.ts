import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Octokit } from '@octokit/rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { runCli } from '../helpers/cli.js';
import { bareRepo, legacyUrl, parentPom } from '../helpers/fleet.js';
import { fleetSchemaErrors } from '../helpers/report-validators.js';
import { git, gitEnv, tempDir, type TempDir } from '../helpers/temp.js';
import { control } from './upload-helpers.js';

interface Repo {
  name: string;
  pullRequest: { url: string; number: number } | null;
  change?: { action: string; why?: string };
}

/** A project of its own (no parent) that still deploys to OSSRH: a fix of its own to make. */
const libPom = (name: string, deployUrl = legacyUrl): string => parentPom('1.0.0-SNAPSHOT', deployUrl).replaceAll('acme-parent', name);

/**
 * DESIGN §13 Safety, through the real `relctl fleet fix --open-prs` against the sandbox's GitHub
 * stand-in and real git: relctl rewrites its branch only while every commit on it is one it
 * pushed; a pull request is relctl's only when the token's user opened it; a refused creation
 * stops the run's creations and leaves no pushed branch behind; pull request bodies quote a
 * repository's values inertly.
 */
describe('relctl fleet fix --open-prs never pushes over what is not its own', () => {
  let tmp: TempDir;
  let sandbox: RunningSandbox;
  let home: string;
  let root: string;
  const token = 'relctl-bot';
  const hostile = 'https://oss.sonatype.org/service/local/staging/deploy/maven2/?![x](https://evil.example/beacon.png)@acme/team<img src=x>';

  beforeAll(async () => {
    tmp = await tempDir('relctl-fleet-trust-');
    home = path.join(tmp.path, 'home');
    root = path.join(tmp.path, 'git');
    for (const name of ['reviewed', 'borrowed', 'squatted']) await bareRepo(root, home, `acme/${name}`, [{ files: { 'pom.xml': libPom(name), 'README.md': '# acme\n' } }]);
    for (const name of ['one', 'two', 'three']) await bareRepo(root, home, `beta/${name}`, [{ files: { 'pom.xml': libPom(name) } }]);
    await bareRepo(root, home, 'gamma/beacon', [{ files: { 'pom.xml': libPom('beacon', hostile.replaceAll('<', '&lt;')) } }]);
    sandbox = await startSandbox({ gitRoot: root });
  });
  afterAll(async () => {
    await sandbox?.close();
    await tmp[Symbol.asyncDispose]();
  });

  const gh = (auth: string) => new Octokit({ baseUrl: sandbox.urls.githubApiUrl, auth });
  const pushUrl = (repo: string, who: string) => `${sandbox.urls.githubGitUrl!.replace('http://', `http://x-access-token:${who}@`)}/${repo}.git`;
  const fix = (org: string, ...more: string[]) =>
    runCli(['fleet', 'fix', '--open-prs', '--pr-interval', '0', ...more, '--org', org, '--github-url', sandbox.urls.githubApiUrl, '--public-repo-url', sandbox.urls.publicRepoUrl, '--workdir', path.join(tmp.path, 'work'), '--json'], {
      cwd: tmp.path,
      home,
      env: { ...gitEnv(home), RELCTL_GITHUB_TOKEN: token },
    });
  const reposOf = (stdout: string) => new Map((JSON.parse(stdout) as { repositories: Repo[] }).repositories.map((r) => [r.name, r]));
  const branchTip = async (repo: string): Promise<string> => (await git(root, home, '--git-dir', path.join(root, `${repo}.git`), 'for-each-ref', '--format=%(objectname)', 'refs/heads/relctl/central-portal')).trim();
  /** A clone of `repo` as `who`, on relctl's branch when `branch` says so. */
  async function cloneAs(repo: string, who: string, branch?: string): Promise<string> {
    const dir = path.join(tmp.path, 'people', who, repo);
    await git(tmp.path, home, 'clone', '-q', ...(branch === undefined ? [] : ['-b', branch]), pushUrl(repo, who), dir);
    return dir;
  }

  it('first run: relctl opens its pull requests', async () => {
    const r = await fix('acme');
    expect(r.exitCode, r.stderr).toBe(0);
    for (const name of ['reviewed', 'borrowed', 'squatted']) expect(reposOf(r.stdout).get(`acme/${name}`)?.change?.action, name).toBe('opened');
  });

  it('a maintainer\'s review commit on relctl/central-portal survives the next run, even one copying relctl\'s message and author', async () => {
    const work = await cloneAs('acme/reviewed', 'maintainer', 'relctl/central-portal');
    await writeFile(path.join(work, 'README.md'), '# acme\n\nReleased through the Central Portal.\n');
    await git(work, home, 'commit', '-q', '-a', '-C', 'HEAD');
    await git(work, home, 'push', '-q', 'origin', 'HEAD:relctl/central-portal');
    const review = (await git(work, home, 'rev-parse', 'HEAD')).trim();
    const before = (await gh('maintainer').rest.pulls.get({ owner: 'acme', repo: 'reviewed', pull_number: 1 })).data;

    const r = await fix('acme');
    expect(r.exitCode, r.stderr).toBe(0);
    const repo = reposOf(r.stdout).get('acme/reviewed');
    expect(repo?.change).toMatchObject({ action: 'left-alone', why: expect.stringContaining(`${review.slice(0, 7)} by relctl`) });
    expect(r.stderr).toMatch(/acme\/reviewed: left-alone .*relctl\/central-portal holds a commit relctl did not push/);
    expect(await branchTip('acme/reviewed')).toBe(review);
    const after = (await gh('maintainer').rest.pulls.get({ owner: 'acme', repo: 'reviewed', pull_number: 1 })).data;
    expect([after.title, after.body, after.updated_at]).toEqual([before.title, before.body, before.updated_at]);
  });

  it('someone else\'s pull request from relctl/central-portal is never edited, pushed to, or duplicated', async () => {
    // relctl's pull request on acme/borrowed is closed; a contributor opens their own from the same branch.
    await gh('maintainer').rest.pulls.update({ owner: 'acme', repo: 'borrowed', pull_number: 1, state: 'closed' });
    const theirs = await gh('contributor').rest.pulls.create({ owner: 'acme', repo: 'borrowed', title: 'My take on the portal move', body: 'Mine.', head: 'relctl/central-portal', base: 'main' });
    // On acme/squatted, relctl's branch is taken over: a contributor's own commit, their own pull request.
    await gh('maintainer').rest.pulls.update({ owner: 'acme', repo: 'squatted', pull_number: 1, state: 'closed' });
    const work = await cloneAs('acme/squatted', 'contributor');
    await writeFile(path.join(work, 'NOTES.md'), 'notes\n');
    await git(work, home, 'add', '-A');
    await git(work, home, 'commit', '-q', '-m', 'notes');
    await git(work, home, 'push', '-q', '--force', 'origin', 'HEAD:relctl/central-portal');
    const squat = await gh('contributor').rest.pulls.create({ owner: 'acme', repo: 'squatted', title: 'Notes', body: 'Just notes.', head: 'relctl/central-portal', base: 'main' });
    const tips = { borrowed: await branchTip('acme/borrowed'), squatted: await branchTip('acme/squatted') };

    const r = await fix('acme');
    expect(r.exitCode, r.stderr).toBe(0);
    const repos = reposOf(r.stdout);
    expect(repos.get('acme/borrowed')).toMatchObject({ change: { action: 'left-alone', why: expect.stringMatching(new RegExp(`#${theirs.data.number} by contributor`)) }, pullRequest: { number: theirs.data.number } });
    expect(repos.get('acme/squatted')?.change?.action).toBe('left-alone');
    expect(await fleetSchemaErrors(JSON.parse(r.stdout))).toEqual([]);
    for (const [name, pull, title, body] of [['borrowed', theirs.data.number, 'My take on the portal move', 'Mine.'], ['squatted', squat.data.number, 'Notes', 'Just notes.']] as const) {
      expect((await gh('maintainer').rest.pulls.get({ owner: 'acme', repo: name, pull_number: pull })).data, name).toMatchObject({ title, body, state: 'open' });
      expect(await branchTip(`acme/${name}`), name).toBe(tips[name]);
      expect((await gh('maintainer').rest.pulls.list({ owner: 'acme', repo: name, state: 'open' })).data.map((p) => p.number), name).toEqual([pull]);
    }
  });

  it('a token that may push but not open pull requests: one paced attempt, then no more, and no branch left pushed', async () => {
    await control(sandbox, 'POST', 'faults', { github: 'forbidden', path: 'POST /repos/beta/*/pulls', count: 100 });
    const r = await fix('beta', '--max-prs', '5', '--pr-interval', '30');
    const repos = [...reposOf(r.stdout).values()];
    expect(repos.map((x) => x.change?.action).sort()).toEqual(['failed', 'held', 'held']);
    expect(repos.find((x) => x.change?.action === 'failed')?.change?.why).toMatch(/Resource not accessible by integration/);
    for (const held of repos.filter((x) => x.change?.action === 'held')) expect(held.change?.why).toMatch(/GitHub refused to open a pull request on beta\/\w+/);
    const faults = (await control(sandbox, 'GET', 'faults')) as { github?: string; count: number }[];
    expect(faults.find((f) => f.github === 'forbidden')?.count).toBe(99);
    for (const name of ['one', 'two', 'three']) expect(await branchTip(`beta/${name}`), name).toBe('');
    await control(sandbox, 'DELETE', 'faults');
  });

  it('a pull request body quotes the repository\'s values inertly: no image, mention or HTML', async () => {
    const r = await fix('gamma');
    expect(r.exitCode, r.stderr).toBe(0);
    const pull = (await gh('maintainer').rest.pulls.get({ owner: 'gamma', repo: 'beacon', pull_number: reposOf(r.stdout).get('gamma/beacon')!.pullRequest!.number })).data;
    const body = pull.body ?? '';
    expect(body).toContain('evil.example');
    expect(body).not.toMatch(/!\[/);
    expect(body).not.toMatch(/@acme/);
    expect(body).not.toMatch(/<img/);
    expect(`${pull.title}\n${body}`).not.toMatch(/@acme|<img/);
    expect(await readFile(path.join(tmp.path, 'work', 'gamma', 'beacon', 'pom.xml'), 'utf8')).toContain('&lt;img');
  });
});
