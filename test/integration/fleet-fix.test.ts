import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeFleet, type Fleet } from '../helpers/fleet.js';
import { git, gitEnv, tempDir, type TempDir } from '../helpers/temp.js';

interface Repo {
  name: string;
  change?: { action: string; why?: string; files?: string[]; commit?: string };
}

/** `relctl fleet fix` without a host: diffs, then one commit per repository on relctl's branch of its clone. */
describe('relctl fleet fix on the clones (offline)', () => {
  let tmp: TempDir;
  let fleet: Fleet;
  let home: string;
  let workdir: string;
  const fix = (...args: string[]) => runCli(['fleet', 'fix', '--repos', fleet.reposFile, '--workdir', workdir, '--offline', ...args], { cwd: tmp.path, home, env: gitEnv(home) });
  const changes = (stdout: string) => Object.fromEntries((JSON.parse(stdout) as { repositories: Repo[] }).repositories.map((r) => [r.name, r.change]));
  const clone = (name: string) => path.join(workdir, ...name.split('/'));

  beforeAll(async () => {
    tmp = await tempDir('relctl-fleet-fix-');
    home = path.join(tmp.path, 'home');
    workdir = path.join(tmp.path, 'work');
    fleet = await makeFleet(path.join(tmp.path, 'git'), home);
  });
  afterAll(async () => {
    await tmp[Symbol.asyncDispose]();
  });

  it('--dry-run prints each repository\'s diff and writes nothing', async () => {
    const r = await fix('--dry-run');
    expect(r.stdout).toContain('# acme/child-own: Publish through the Central Portal (legacy-staging-host)');
    expect(r.stdout).toContain('+    <repository><id>central</id><url>https://ossrh-staging-api.central.sonatype.com/service/local/staging/deploy/maven2/</url></repository>');
    expect(r.stdout).not.toContain('acme/child-waits:');
    // Then the plan in the report's order, and who is left alone and why.
    expect(r.stdout).toMatch(/\nNext steps \(the plan needs \d+ releases?; \d+ of \d+ left this month\):\n {2}1\. Release acme\/acme-parent \(its default branch already has the fixes\) → unblocks 1\n {2}2\. Fix and release acme\/child-own/);
    expect(r.stdout).toMatch(/\nLeft alone:\n(.*\n)* {2}- acme\/site \(the verdict is not-published\)/);
    expect(await git(clone('acme/child-own'), home, 'branch', '--list', 'relctl/*')).toBe('');
    expect(await git(clone('acme/child-own'), home, 'status', '--porcelain')).toBe('');
    // With --json the diff is in the one document, not before it.
    const json = await fix('--dry-run', '--json');
    const own = changes(json.stdout)['acme/child-own'] as { action: string; diff?: string };
    expect(own.action).toBe('dry-run');
    expect(own.diff).toContain('+    <repository><id>central</id><url>https://ossrh-staging-api.central.sonatype.com/');
  });

  it('commits the fix once on relctl/central-portal, leaves the checkout alone, and makes no second commit', async () => {
    const first = await fix('--json');
    const done = changes(first.stdout);
    expect(done['acme/child-own']).toMatchObject({ action: 'committed', files: ['pom.xml'] });
    // It waits on its parent, whose newest release (its tag) is the version it already uses.
    expect(done['acme/child-waits']?.action).toBe('waiting');
    expect(done['acme/child-waits']?.why).toMatch(/acme\/acme-parent's newest release, 1, is the version it already uses/);
    expect(done['acme/site']?.action).toBe('none');
    const commit = done['acme/child-own']!.commit!;
    expect(await git(clone('acme/child-own'), home, 'rev-parse', 'relctl/central-portal')).toBe(commit);
    expect(await git(clone('acme/child-own'), home, 'show', `${commit}:pom.xml`)).toContain('ossrh-staging-api.central.sonatype.com');
    // The checkout (what the audit reads) is still the default branch's tip, unchanged.
    expect(await git(clone('acme/child-own'), home, 'rev-parse', '--abbrev-ref', 'HEAD')).toBe('main');
    expect(await git(clone('acme/child-own'), home, 'status', '--porcelain')).toBe('');
    const second = changes((await fix('--json')).stdout);
    expect(second['acme/child-own']).toMatchObject({ action: 'unchanged', commit });
  });

  it('refuses --open-prs offline (exit 2)', async () => {
    const r = await fix('--open-prs');
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/--open-prs needs the network/);
  });
});
