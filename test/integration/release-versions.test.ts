import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { git, tempDir, type TempDir } from '../helpers/temp.js';
import { demoRepo, fakePublicRepo, recorded, releaseEnv, tags } from './release-fixture.js';

/**
 * `--release-version X --next-version Y` (issue 27 item 7) with the fake mvn: what reaches the
 * release plugin, the orphan-tag rule from X, the journal for --resume, and every bad input refused
 * (exit 2) before any build tool runs. The real plugin runs the same flags in
 * test/e2e/maven-release/chosen-versions.test.ts.
 */
const props = (v: string, next: string, tag: string): string[] => ['-DautoVersionSubmodules=true', `-DreleaseVersion=${v}`, `-DdevelopmentVersion=${next}`, `-Dtag=${tag}`];

describe('release --release-version / --next-version', () => {
  let published: Set<string>;
  let repo: Awaited<ReturnType<typeof fakePublicRepo>>;
  beforeAll(async () => {
    published = new Set();
    repo = await fakePublicRepo(published);
  });
  afterAll(() => repo.close());
  beforeEach(() => published.clear());

  async function setup(t: TempDir): Promise<{ dir: string; home: string; log: string; env: Record<string, string> }> {
    const dir = path.join(t.path, 'project');
    const home = path.join(t.path, 'home');
    await mkdir(home);
    await demoRepo(dir, home);
    // Not a first release (one goal invocation): an earlier, published release tag.
    await git(dir, home, 'tag', 'relctl-demo-0.9.0');
    published.add('org/example/relctl/relctl-demo/0.9.0/relctl-demo-0.9.0.pom');
    const log = path.join(t.path, 'tools.log');
    return { dir, home, log, env: releaseEnv(home, log, { RELCTL_PUBLIC_REPO_URL: repo.url, RELCTL_FAKE_PERFORM_DEPLOY: '0' }) };
  }

  it('passes X and Y to the release plugin as releaseVersion and developmentVersion', async () => {
    await using t = await tempDir();
    const { dir, home, log, env } = await setup(t);
    const r = await runCli(['run', 'build', '--json', '--release-version', '2.0.0', '--next-version', '2.0.1-SNAPSHOT', '--cwd', dir], { home, env });
    expect(r.exitCode, r.stderr).toBe(0);
    expect((await recorded(log)).map((c) => [c.tool, ...c.args])).toEqual([['mvn', '-B', 'release:clean', 'release:prepare', 'release:perform', ...props('2.0.0', '2.0.1-SNAPSHOT', 'relctl-demo-2.0.0')]]);
    expect(JSON.parse(r.stdout)).toMatchObject({ ok: true, context: { version: '2.0.0', nextVersion: '2.0.1-SNAPSHOT', tag: 'relctl-demo-2.0.0' } });
  });

  it('without --next-version, the development version counts from X', async () => {
    await using t = await tempDir();
    const { dir, home, log, env } = await setup(t);
    const r = await runCli(['run', 'build', '--release-version', '2.0', '--cwd', dir], { home, env });
    expect(r.exitCode, r.stderr).toBe(0);
    expect((await recorded(log))[0]!.args).toEqual(['-B', 'release:clean', 'release:prepare', 'release:perform', ...props('2.0', '2.1-SNAPSHOT', 'relctl-demo-2.0')]);
  });

  it('X tagged but never published: the orphan-tag rule releases the next patch; a Y not above it is refused', async () => {
    await using t = await tempDir();
    const { dir, home, log, env } = await setup(t);
    await git(dir, home, 'tag', 'relctl-demo-2.0.0');
    const low = await runCli(['run', 'build', '--release-version', '2.0.0', '--next-version', '2.0.1-SNAPSHOT', '--cwd', dir], { home, env });
    expect(low.exitCode, low.stderr).toBe(2);
    expect(low.stderr).toContain('--next-version 2.0.1-SNAPSHOT is not above 2.0.1');
    expect(await recorded(log)).toEqual([]);

    const r = await runCli(['run', 'build', '--release-version', '2.0.0', '--next-version', '2.1.0-SNAPSHOT', '--cwd', dir], { home, env });
    expect(r.exitCode, r.stderr).toBe(0);
    expect((await recorded(log))[0]!.args).toEqual(['-B', 'release:clean', 'release:prepare', 'release:perform', ...props('2.0.1', '2.1.0-SNAPSHOT', 'relctl-demo-2.0.1')]);
    expect(await tags(dir, home)).toContain('relctl-demo-2.0.0');
  });

  it.each([
    [['--release-version', '2.0.0', '--next-version', '2.0.1'], 'not a snapshot'],
    [['--release-version', '2.0.0', '--next-version', '1.9.0-SNAPSHOT'], 'is not above --release-version 2.0.0'],
    [['--release-version', '2.0.0', '--next-version', '2.0.0-SNAPSHOT'], 'is not above --release-version 2.0.0'],
    [['--release-version', '2.0.0-SNAPSHOT'], 'it is a snapshot, not a release'],
    [['--release-version', '0.9.0'], 'is already published ('],
    [['--release-version', '2.0.0', '--interactive'], 'cannot be combined with --interactive'],
  ])('refuses %j before anything runs (exit 2)', async (flags, cause) => {
    await using t = await tempDir();
    const { dir, home, log, env } = await setup(t);
    const r = await runCli(['release', '--yes', '--offline', ...flags, '--cwd', dir], { home, env });
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toContain(cause);
    expect(r.stderr).toMatch(/--release-version|--next-version|--interactive/);
    expect(await recorded(log)).toEqual([]);
  });

  it('a chain without build refuses the version flags', async () => {
    await using t = await tempDir();
    const { dir, home, env } = await setup(t);
    const r = await runCli(['run', 'verify', '--release-version', '2.0.0', '--cwd', dir], { home, env });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('this chain has no build step');
  });

  it('--resume builds the versions the first run named (journaled); other flags then are refused', async () => {
    await using t = await tempDir();
    const { dir, home, log, env } = await setup(t);
    const failed = await runCli(['run', 'build', '--release-version', '3.0.0', '--next-version', '3.1.0-SNAPSHOT', '--cwd', dir], { home, env: { ...env, RELCTL_FAKE_MVN_FAIL: 'release:clean' } });
    expect(failed.exitCode).toBe(1);
    const journal = JSON.parse(await readFile(path.join(dir, '.relctl', 'journal.json'), 'utf8')) as { chosenVersions?: unknown };
    expect(journal.chosenVersions).toEqual({ release: '3.0.0', next: '3.1.0-SNAPSHOT' });

    const other = await runCli(['run', 'build', '--resume', '--release-version', '3.0.1', '--cwd', dir], { home, env });
    expect(other.exitCode).toBe(2);
    expect(other.stderr).toContain('started with --release-version 3.0.0 --next-version 3.1.0-SNAPSHOT');

    const resumed = await runCli(['run', 'build', '--resume', '--cwd', dir], { home, env });
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    expect((await recorded(log)).at(-1)!.args).toEqual(['-B', 'release:clean', 'release:prepare', 'release:perform', ...props('3.0.0', '3.1.0-SNAPSHOT', 'relctl-demo-3.0.0')]);
  });
});
