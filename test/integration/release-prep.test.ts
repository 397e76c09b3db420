import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { git, gitRepo, tempDir } from '../helpers/temp.js';
import { demoRepo, recorded, releaseEnv, subjects } from './release-fixture.js';

/** The prep step (seed 4.7 item 4): configured goals only, the diff shown, one commit, then install. */
describe('relctl run prep', () => {
  async function setup(t: { path: string }): Promise<{ dir: string; home: string; log: string; env: Record<string, string> }> {
    const dir = path.join(t.path, 'p');
    const home = path.join(t.path, 'h');
    await mkdir(home);
    await demoRepo(dir, home);
    const log = path.join(t.path, 'tools.log');
    // The fake javadoc:fix edits a file, as a real fix would.
    return { dir, home, log, env: releaseEnv(home, log, { RELCTL_FAKE_PREP_TOUCH: path.join(dir, 'core', 'pom.xml') }) };
  }

  it('shows the changes and commits them as "chore: pre-release prep" with --yes, then installs', async () => {
    await using t = await tempDir();
    const { dir, home, log, env } = await setup(t);
    const r = await runCli(['run', 'prep', '--yes', '--cwd', dir], { home, env });
    expect(r.exitCode, r.stderr).toBe(0);
    expect((await recorded(log)).map((c) => c.args)).toEqual([['-B', 'javadoc:fix', '-Dforce=true'], ['-B', 'install']]);
    expect(r.stderr).toContain('The prep goals changed 1 file(s)');
    expect(r.stderr).toContain('+<!-- javadoc:fix -->');
    expect((await subjects(dir, home))[0]).toBe('chore: pre-release prep');
    expect(await git(dir, home, 'status', '--porcelain')).toBe('');
    expect(await readFile(path.join(dir, 'core', 'pom.xml'), 'utf8')).toContain('<!-- javadoc:fix -->');
  });

  it('asks for --yes when no one can be asked, and commits nothing', async () => {
    await using t = await tempDir();
    const { dir, home, log, env } = await setup(t);
    const r = await runCli(['run', 'prep', '--cwd', dir], { home, env });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('fix: Review the prep changes, then pass --yes to commit them.');
    expect((await subjects(dir, home))[0]).toBe('initial');
    expect((await recorded(log)).map((c) => c.args[1])).toEqual(['javadoc:fix']);
  });

  it('runs no prep goal the project does not configure, and is skipped for Gradle', async () => {
    await using t = await tempDir();
    const { dir, home, log } = await setup(t);
    const pom = path.join(dir, 'pom.xml');
    const { writeFile } = await import('node:fs/promises');
    await writeFile(pom, (await readFile(pom, 'utf8')).replace(/<plugin>\s*<groupId>org.apache.maven.plugins<\/groupId>\s*<artifactId>maven-javadoc-plugin<\/artifactId>[\s\S]*?<\/plugin>/, ''));
    await git(dir, home, 'commit', '-q', '-am', 'no javadoc');
    const r = await runCli(['run', 'prep', '--cwd', dir], { home, env: releaseEnv(home, log) });
    expect(r.exitCode, r.stderr).toBe(0);
    expect((await recorded(log)).map((c) => c.args)).toEqual([['-B', 'install']]);

    const gradle = path.join(t.path, 'g');
    await gitRepo(gradle, home, { 'settings.gradle': "rootProject.name = 'lib'\n", 'gradle.properties': 'group=org.example\nversion=1.0.0-SNAPSHOT\n' });
    await writeFile(log, '');
    const g = await runCli(['run', 'prep', '--cwd', gradle], { home, env: releaseEnv(home, log) });
    expect(g.exitCode, g.stderr).toBe(0);
    expect(g.stdout).toContain('prep       skipped (Gradle builds: review notices and license headers by hand)');
    expect(await recorded(log)).toEqual([]);
  });
});
