import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { bareRepo, childPom, makeFleet, parentPom, type Fleet } from '../helpers/fleet.js';
import { fleetSchemaErrors, junitSchemaCheck } from '../helpers/report-validators.js';
import { git, gitEnv, tempDir, type TempDir } from '../helpers/temp.js';

interface Repo {
  name: string;
  verdict: string;
  blocking: string[];
  fixIn: string[];
  head: string | null;
  parents: { coordinates: string; repository: string | null }[];
  findings: { code: string; severity: string; fixIn?: string; file?: string }[];
  fixes: { file: string; code: string }[];
  error?: { code: string; message: string };
}
interface Report {
  ok: boolean;
  repositories: Repo[];
  summary: { total: number; verdicts: Record<string, number>; edges: { from: string; to: string }[]; publishingBudget?: Record<string, unknown> };
  environment: { code: string; repositories: string[] }[];
}

describe('relctl fleet audit on a fleet of real git repositories (offline)', () => {
  let tmp: TempDir;
  let fleet: Fleet;
  let home: string;
  let workdir: string;
  const audit = (...args: string[]) =>
    runCli(['fleet', 'audit', '--repos', fleet.reposFile, '--workdir', workdir, '--offline', ...args], { cwd: tmp.path, home, env: gitEnv(home) });
  const byName = (report: Report, name: string): Repo => report.repositories.find((r) => r.name === name)!;

  beforeAll(async () => {
    tmp = await tempDir('relctl-fleet-');
    home = path.join(tmp.path, 'home');
    workdir = path.join(tmp.path, 'work');
    fleet = await makeFleet(path.join(tmp.path, 'git'), home);
  });
  afterAll(async () => {
    await tmp[Symbol.asyncDispose]();
  });

  it('gives each repository its verdict, parents first, inherited findings fixed in the parent, machine findings once', async () => {
    const r = await audit('--json', '--verbose');
    expect(r.exitCode, r.stderr).toBe(1);
    const report = JSON.parse(r.stdout) as Report;
    expect(await fleetSchemaErrors(report)).toEqual([]);
    const names = report.repositories.map((x) => x.name);
    // Parents first: the parent before every child that inherits from it.
    expect(names.indexOf('acme/acme-parent')).toBeLessThan(names.indexOf('acme/child-waits'));
    expect(names.indexOf('acme/acme-parent')).toBeLessThan(names.indexOf('acme/child-own'));
    expect(Object.fromEntries(report.repositories.map((x) => [x.name, x.verdict]))).toEqual({
      'acme/acme-parent': 'ready',
      'acme/child-fixed': 'ready',
      'acme/child-own': 'blocked',
      'acme/child-waits': 'waits-on-parent',
      'acme/site': 'not-published',
      'acme/gone': 'error',
    });
    // Version 1 of the parent exists only as a tag (not at the tip, not in any Maven repository).
    const waits = byName(report, 'acme/child-waits');
    expect(waits.parents).toEqual([{ coordinates: 'org.acme:acme-parent:1', repository: 'acme/acme-parent' }]);
    expect(waits.blocking).toEqual(['legacy-staging-host']);
    expect(waits.fixIn).toEqual(['acme/acme-parent']);
    expect(waits.findings.find((f) => f.code === 'legacy-staging-host')?.fixIn).toBe('acme/acme-parent');
    expect(waits.fixes).toEqual([]);
    // The same inherited parent, but its own retired URL written in its own POM: its own fix.
    const own = byName(report, 'acme/child-own');
    expect(own.blocking).toContain('legacy-staging-host');
    expect(own.fixIn).toEqual([]);
    expect(own.fixes.map((f) => `${f.file} ${f.code}`)).toContain('pom.xml legacy-staging-host');
    expect(byName(report, 'acme/gone').error?.code).toBe('clone-failed');
    expect(report.summary.verdicts).toEqual({ ready: 2, blocked: 1, 'waits-on-parent': 1, 'not-published': 1, error: 1 });
    expect(report.summary.edges).toContainEqual({ from: 'acme/child-waits', to: 'acme/acme-parent' });
    // The releases the plan needs (the parent's, child-own's, then child-waits') against the free tier's month.
    expect(report.summary.publishingBudget).toEqual({ month: expect.stringMatching(/^\d{4}-\d{2}$/), releasesNeeded: 3, releasesUsed: 0, releasesLimit: 3, releasesLeft: 3, fits: true, usedFrom: [] });
    expect(report.summary.publishingBudget!.releasesNeeded).toBe((report.summary as { releasesNeeded?: number }).releasesNeeded);
    // No settings in this HOME: the machine's missing credentials are listed once, decide no verdict.
    const creds = report.environment.find((e) => e.code === 'server-id-mismatch');
    expect(creds?.repositories).toEqual(expect.arrayContaining(['acme/acme-parent', 'acme/child-fixed']));
    expect(report.repositories.flatMap((x) => x.findings).some((f) => f.code === 'server-id-mismatch')).toBe(false);
    expect(r.stderr).toMatch(/parent org\.acme:acme-parent:1: read from acme\/acme-parent at tag acme-parent-1/);
    expect(r.stderr).toMatch(/acme\/child-waits: cloned /);
  });

  it('writes each report format where --out says, and the same table on stdout without it', async () => {
    const junit = path.join(tmp.path, 'out', 'fleet.xml');
    const r = await audit('--format', 'junit', '--out', junit);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toBe('');
    const xml = await readFile(junit, 'utf8');
    expect((await junitSchemaCheck(xml, `${junit}.checked.xml`)).exitCode).toBe(0);
    expect(xml.match(/<testcase /g)).toHaveLength(6);
    expect(xml.match(/<failure /g)).toHaveLength(2);
    const markdown = await audit('--format', 'markdown');
    expect(markdown.stdout.split('\n').filter((l) => l.startsWith('| acme/'))).toHaveLength(6);
    const html = await audit('--format', 'html');
    expect(html.stdout).toMatch(/^<!DOCTYPE html>/i);
    expect(html.stdout).toContain('<svg');
    const text = await audit();
    expect(text.stdout).toMatch(/publishing budget \d{4}-\d{2}: 3 releases needed, 3 of 3 left this month \(fits\)/);
    expect(text.stdout).toContain('Next steps (the plan needs 3 releases; 3 of 3 left this month):');
    expect(markdown.stdout).toContain('## Next steps (the plan needs 3 releases; 3 of 3 left this month)');
    expect(text.stdout, text.stdout).toMatch(/^acme\/child-waits +waits-on-parent +legacy-staging-host +-$/m);
    const both = await audit('--json', '--format', 'html');
    expect(both.exitCode).toBe(2);
  });

  it('says when the plan is over the month\'s publishing budget, in text and Markdown', async () => {
    // An organization that allows 1 release a month: the plan's 3 are 2 over.
    const cwd = path.join(tmp.path, 'tight-budget');
    await mkdir(cwd, { recursive: true });
    await writeFile(path.join(cwd, 'relctl.config.json'), JSON.stringify({ publishingLimits: { releases: 1 } }));
    const run = (...args: string[]) => runCli(['fleet', 'audit', '--repos', fleet.reposFile, '--workdir', workdir, '--offline', ...args], { cwd, home, env: gitEnv(home) });
    const text = await run();
    expect(text.exitCode, text.stderr).toBe(1);
    expect(text.stdout).toContain("Next steps (the plan needs 3 releases; over the month's budget by 2: spread over months or Publisher Pro):");
    const markdown = await run('--format', 'markdown');
    expect(markdown.stdout).toContain("## Next steps (the plan needs 3 releases; over the month's budget by 2: spread over months or Publisher Pro)");
  });

  it("--usage counts the Usage Center's export in the plan's budget; a file that is not one is exit 2 naming it", async () => {
    // Two releases already made this month elsewhere: the plan's 3 no longer fit the free tier's 3.
    const csv = path.join(tmp.path, 'usage.csv');
    await writeFile(csv, 'Namespace,Release Count,File Count,Total Release Size\norg.example,2,40,1.5 MB\n');
    const text = await audit('--usage', csv);
    expect(text.stdout).toMatch(/publishing budget \d{4}-\d{2}: 3 releases needed, 1 of 3 left this month \(does not fit: 2 releases over[^\n]*; used counted from the Usage Center export$/m);
    const json = JSON.parse((await audit('--usage', csv, '--json')).stdout) as { summary: { publishingBudget: { releasesUsed: number; usedFrom: string[] } } };
    expect(json.summary.publishingBudget).toMatchObject({ releasesUsed: 2, usedFrom: ['the Usage Center export'] });
    const notCsv = path.join(tmp.path, 'not-usage.csv');
    await writeFile(notCsv, 'hello,world\n1,2\n');
    const bad = await audit('--usage', notCsv);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain(`--usage ${notCsv} is not the Usage Center's export`);
  });

  it('fetches on the next run (no second clone) and audits what the remote has now', async () => {
    // The child moves to the fixed parent: the next run must see that commit.
    const work = path.join(tmp.path, 'child-waits-work');
    await git(tmp.path, home, 'clone', '-q', fleet.bare('acme/child-waits'), work);
    await writeFile(path.join(work, 'pom.xml'), childPom('child-waits', '2-SNAPSHOT'));
    await git(work, home, 'commit', '-q', '-am', 'parent 2-SNAPSHOT');
    await git(work, home, 'push', '-q', 'origin', 'HEAD:main');
    const r = await audit('--json', '--verbose', '--only', 'acme/child-waits');
    expect(r.stderr).toMatch(/acme\/child-waits: fetched /);
    expect(r.stderr).not.toMatch(/: cloned /);
    const report = JSON.parse(r.stdout) as Report;
    expect(report.repositories.map((x) => x.name)).toEqual(['acme/child-waits']);
    expect(report.repositories[0]!.verdict).toBe('ready');
    expect(report.repositories[0]!.head).toBe((await git(work, home, 'rev-parse', 'HEAD')).trim());
    expect(r.exitCode).toBe(0);
  });

  it('with --only still reads the parent from the fleet: the child waits on it as in the whole audit', async () => {
    await bareRepo(path.join(tmp.path, 'git2'), home, 'acme/acme-parent', [{ files: { 'pom.xml': parentPom('1', 'https://oss.sonatype.org/content/repositories/releases/') }, tag: 'acme-parent-1' }]);
    await bareRepo(path.join(tmp.path, 'git2'), home, 'acme/late', [{ files: { 'pom.xml': childPom('late', '1') } }]);
    const file = path.join(tmp.path, 'git2', 'repos.txt');
    // A relative path is read from the repos file's folder.
    await writeFile(file, `acme/acme-parent ${fleet.bare('acme/acme-parent')}\nacme/late acme/late.git\n`);
    const r = await runCli(['fleet', 'audit', '--repos', file, '--workdir', path.join(tmp.path, 'work2'), '--offline', '--json', '--only', 'late'], { cwd: tmp.path, home, env: gitEnv(home) });
    const report = JSON.parse(r.stdout) as Report;
    expect(report.repositories.map((x) => [x.name, x.verdict, x.fixIn])).toEqual([['acme/late', 'waits-on-parent', ['acme/acme-parent']]]);
  });

  it('reports a workspace folder it did not clone instead of overwriting it', async () => {
    const dir = path.join(workdir, 'acme', 'site');
    await rm(dir, { recursive: true, force: true });
    await writeFile(path.join(workdir, 'acme', 'keep.txt'), 'mine');
    await git(path.join(workdir, 'acme'), home, 'init', '-q', 'site');
    const r = await audit('--json', '--only', 'acme/site');
    const repo = (JSON.parse(r.stdout) as Report).repositories[0]!;
    expect(repo.verdict).toBe('error');
    expect(repo.error?.code).toBe('workspace-foreign');
    expect(await readFile(path.join(workdir, 'acme', 'keep.txt'), 'utf8')).toBe('mine');
    await rm(dir, { recursive: true, force: true });
  });

  it('refuses a bad repos file with exit 2, naming the line', async () => {
    const bad = path.join(tmp.path, 'bad-repos.txt');
    await writeFile(bad, 'acme/ok\nnot a repo line\nacme/ok\n');
    const r = await runCli(['fleet', 'audit', '--repos', bad, '--workdir', workdir, '--offline'], { cwd: tmp.path, home });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/line 2: "not a repo line" does not start with OWNER\/NAME/);
    expect(r.stderr).toMatch(/line 3: acme\/ok is already listed \(.*line 1\)/);
    const none = await runCli(['fleet', 'list'], { cwd: tmp.path, home });
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toMatch(/No repositories selected/);
    // A file of comments only: the file is named, not filters that were never given.
    const empty = path.join(tmp.path, 'empty-repos.txt');
    await writeFile(empty, '# nothing yet\n');
    const blank = await runCli(['fleet', 'list', '--repos', empty], { cwd: tmp.path, home });
    expect(blank.exitCode).toBe(2);
    expect(blank.stderr).toContain(`The selection is empty: --repos ${empty} lists no repository.`);
    expect(blank.stderr).not.toContain('filters');
  });

  it('lists the selection for a CI matrix, from the config file too', async () => {
    await writeFile(path.join(tmp.path, 'relctl.config.json'), JSON.stringify({ fleet: { repos: [`acme/site ${fleet.bare('acme/site')}`, 'acme/other'] } }));
    const r = await runCli(['fleet', 'list', '--json', '--github-url', 'https://ghe.example.org/api/v3'], { cwd: tmp.path, home });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([
      { name: 'acme/other', url: 'https://ghe.example.org/acme/other.git', branch: null },
      { name: 'acme/site', url: fleet.bare('acme/site'), branch: null },
    ]);
  });
});
