import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { runCli } from '../helpers/cli.js';
import { bareRepo, childPom, makeFleet, type Fleet } from '../helpers/fleet.js';
import { fleetSchemaErrors } from '../helpers/report-validators.js';
import { git, gitEnv, tempDir, type TempDir } from '../helpers/temp.js';
import { control } from './upload-helpers.js';

interface Repo {
  name: string;
  error?: { code: string };
  url: string;
  verdict: string;
  fixIn: string[];
  head: string | null;
  lastRelease: { tag: string; version: string; published: boolean | null } | null;
  findings: { code: string; severity: string; file?: string; line?: number; fixIn?: string }[];
}

/**
 * DESIGN §13 end to end: `relctl fleet audit --org` against the sandbox's GitHub stand-in, which
 * lists the organisation's repositories and serves them over git's smart HTTP (--git-root), with
 * the sandbox's public repository answering whether the last release is published.
 */
describe('relctl fleet audit --org against the sandbox', () => {
  let tmp: TempDir;
  let fleet: Fleet;
  let sandbox: RunningSandbox;
  let home: string;
  const token = 'fleet-canary-token-4b1d9e';

  beforeAll(async () => {
    tmp = await tempDir('relctl-fleet-org-');
    home = path.join(tmp.path, 'home');
    fleet = await makeFleet(path.join(tmp.path, 'git'), home);
    // An archived fork the audit leaves out unless asked, with topics the filter reads.
    await bareRepo(fleet.root, home, 'acme/old-fork', [{ files: { 'pom.xml': childPom('old-fork', '1') } }]);
    await git(fleet.bare('acme/old-fork'), home, 'config', 'sandbox.archived', 'true');
    await git(fleet.bare('acme/old-fork'), home, 'config', 'sandbox.fork', 'true');
    await git(fleet.bare('acme/acme-parent'), home, 'config', 'sandbox.topics', 'maven,parent');
    // An empty repository (no branch yet): listed by the organisation, it cannot be audited.
    await git(tmp.path, home, 'init', '-q', '--bare', '-b', 'main', fleet.bare('acme/empty'));
    // The public repository has child-waits' last release, not the others'.
    const seed = path.join(tmp.path, 'seed');
    await mkdir(path.join(seed, 'org/acme/child-waits/0.9.0'), { recursive: true });
    await writeFile(path.join(seed, 'org/acme/child-waits/0.9.0/child-waits-0.9.0.pom'), childPom('child-waits', '1'));
    sandbox = await startSandbox({ gitRoot: fleet.root, seedRepo: seed });
  });
  afterAll(async () => {
    await sandbox?.close();
    await tmp[Symbol.asyncDispose]();
  });

  const run = (...args: string[]) =>
    runCli(['fleet', ...args, '--org', 'acme', '--github-url', sandbox.urls.githubApiUrl, '--public-repo-url', sandbox.urls.publicRepoUrl], {
      cwd: tmp.path,
      home,
      env: { ...gitEnv(home), RELCTL_GITHUB_TOKEN: token },
    });

  it('lists the organisation for a CI matrix: archived repositories and forks only on request, a rate limit waited out', async () => {
    await control(sandbox, 'POST', 'faults', { github: 'secondary-rate-limit', status: 403, retryAfter: 1, count: 1, path: 'GET /orgs/*/repos' });
    const r = await run('list', '--json');
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/GitHub's rate limit: waiting 1 s before listing the repositories of acme again/);
    const list = JSON.parse(r.stdout) as { name: string; url: string; branch: string }[];
    expect(list.map((x) => x.name)).toEqual(['acme/acme-parent', 'acme/child-fixed', 'acme/child-own', 'acme/child-waits', 'acme/empty', 'acme/site']);
    expect(list[0]).toEqual({ name: 'acme/acme-parent', url: `${sandbox.urls.githubGitUrl}/acme/acme-parent.git`, branch: 'main' });
    const all = JSON.parse((await run('list', '--json', '--archived', '--forks')).stdout) as { name: string }[];
    expect(all.map((x) => x.name)).toContain('acme/old-fork');
    const topic = JSON.parse((await run('list', '--json', '--topic', 'parent')).stdout) as { name: string }[];
    expect(topic.map((x) => x.name)).toEqual(['acme/acme-parent']);
  });

  it('audits every repository cloned over HTTP: each verdict, fixIn, last release; the token nowhere', async () => {
    const workdir = path.join(tmp.path, 'work');
    const out = path.join(tmp.path, 'fleet.json');
    const r = await run('audit', '--workdir', workdir, '--json', '--out', out, '--verbose');
    expect(r.exitCode, r.stderr).toBe(1);
    const report = JSON.parse(await readFile(out, 'utf8')) as { repositories: Repo[]; environment: { code: string }[] };
    expect(await fleetSchemaErrors(report), JSON.stringify(await fleetSchemaErrors(report))).toEqual([]);
    const verdicts = Object.fromEntries(report.repositories.map((x) => [x.name, x.verdict]));
    expect(verdicts).toEqual({
      'acme/acme-parent': 'ready',
      'acme/child-fixed': 'ready',
      'acme/child-own': 'blocked',
      'acme/child-waits': 'waits-on-parent',
      'acme/empty': 'error',
      'acme/site': 'not-published',
    });
    expect(report.repositories.find((x) => x.name === 'acme/empty')).toMatchObject({ error: { code: expect.stringMatching(/^(empty-repository|checkout-failed)$/) } });
    expect(report.repositories[0]!.name).toBe('acme/acme-parent');
    const waits = report.repositories.find((x) => x.name === 'acme/child-waits')!;
    expect(waits.fixIn).toEqual(['acme/acme-parent']);
    const day = /^\d{4}-\d{2}-\d{2}$/;
    expect(waits.lastRelease).toMatchObject({ tag: 'child-waits-0.9.0', version: '0.9.0', published: true, page: `${sandbox.urls.publicRepoUrl}/org/acme/child-waits/0.9.0/`, checked: expect.stringMatching(day) });
    expect(report.repositories.find((x) => x.name === 'acme/acme-parent')!.lastRelease).toMatchObject({ tag: 'acme-parent-1', version: '1', published: false, checked: expect.stringMatching(day) });
    expect(report.environment.map((e) => e.code)).toContain('server-id-mismatch');
    // The token went to git as a header in its environment: never argv, output, a file or a stored remote.
    const remote = await git(path.join(workdir, 'acme', 'child-own'), home, 'remote', 'get-url', 'origin');
    expect(remote).toBe(`${sandbox.urls.githubGitUrl}/acme/child-own.git`);
    const gitConfig = await readFile(path.join(workdir, 'acme', 'child-own', '.git', 'config'), 'utf8');
    for (const text of [r.stdout, r.stderr, JSON.stringify(report), gitConfig]) expect(text).not.toContain(token);
  });

  it('links every file:line to the file at the audited commit on its host, and the last release to its page on the public repository', async () => {
    const workdir = path.join(tmp.path, 'work-links');
    const json = await run('audit', '--workdir', workdir, '--json');
    const report = JSON.parse(json.stdout) as { repositories: Repo[] };
    const own = report.repositories.find((x) => x.name === 'acme/child-own')!;
    const finding = own.findings.find((f) => f.severity === 'error' && f.fixIn === undefined && f.file !== undefined && f.line !== undefined)!;
    expect(finding, JSON.stringify(own.findings)).toBeDefined();
    const blob = `${sandbox.urls.githubGitUrl}/acme/child-own/blob/${own.head}/${finding.file}#L${finding.line}`;
    const release = `${sandbox.urls.publicRepoUrl}/org/acme/child-waits/0.9.0/`;
    const markdown = (await run('audit', '--workdir', workdir, '--format', 'markdown')).stdout;
    expect(markdown).toContain(`[${finding.file}:${finding.line}](${blob})`);
    expect(markdown).toContain(`[child-waits-0.9.0](${release}) (on Maven Central: yes, checked `);
    expect(markdown).toMatch(/on Maven Central: no, checked \d{4}-\d{2}-\d{2}/);
    const html = (await run('audit', '--workdir', workdir, '--format', 'html')).stdout;
    expect(html).toContain(`<a href="${blob}" rel="noopener noreferrer">${finding.file}:${finding.line}</a>`);
    expect(html).toContain(`<a href="${release}" rel="noopener noreferrer">child-waits-0.9.0</a>`);
  });
});
