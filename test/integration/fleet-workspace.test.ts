import { existsSync, readdirSync } from 'node:fs';
import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeFleet, type Fleet } from '../helpers/fleet.js';
import { git, gitEnv, tempDir, type TempDir } from '../helpers/temp.js';

interface Repo {
  name: string;
  verdict: string;
  error?: { code: string; message: string };
}

/** DESIGN §13 Safety: a clone with local work is never reset; one run per workspace. */
describe('relctl fleet audit and the workspace it shares with people and other runs', () => {
  let tmp: TempDir;
  let fleet: Fleet;
  let home: string;
  const audit = (workdir: string, ...args: string[]) =>
    runCli(['fleet', 'audit', '--repos', fleet.reposFile, '--workdir', workdir, '--offline', '--json', ...args], { cwd: tmp.path, home, env: gitEnv(home) });
  const verdicts = (stdout: string) => Object.fromEntries((JSON.parse(stdout) as { repositories: Repo[] }).repositories.map((r) => [r.name, r.verdict]));
  const errorOf = (stdout: string, name: string) => (JSON.parse(stdout) as { repositories: Repo[] }).repositories.find((r) => r.name === name)?.error;
  const expected = { 'acme/acme-parent': 'ready', 'acme/child-fixed': 'ready', 'acme/child-own': 'blocked', 'acme/child-waits': 'waits-on-parent', 'acme/site': 'not-published', 'acme/gone': 'error' };

  beforeAll(async () => {
    tmp = await tempDir('relctl-fleet-ws-');
    home = path.join(tmp.path, 'home');
    fleet = await makeFleet(path.join(tmp.path, 'git'), home);
  });
  afterAll(async () => {
    await tmp[Symbol.asyncDispose]();
  });

  it('never resets a clone with local work: workspace-dirty, naming what is there, every file and commit kept', async () => {
    const workdir = path.join(tmp.path, 'src');
    const clone = (name: string) => path.join(workdir, ...name.split('/'));
    expect((await audit(workdir)).exitCode).toBe(1);
    // Someone works in the clones: an edit and a new file in one, a local commit in another.
    const fixed = clone('acme/child-fixed');
    const edited = (await readFile(path.join(fixed, 'pom.xml'), 'utf8')).replace('<name>child-fixed</name>', '<name>my edit</name>');
    await writeFile(path.join(fixed, 'pom.xml'), edited);
    await writeFile(path.join(fixed, 'notes.txt'), 'mine\n');
    const own = clone('acme/child-own');
    await writeFile(path.join(own, 'CHANGES.md'), 'unreleased\n');
    await git(own, home, 'add', 'CHANGES.md');
    await git(own, home, 'commit', '-q', '-m', 'local work');
    const localCommit = (await git(own, home, 'rev-parse', 'HEAD')).trim();
    // Ignored files are not local work: build output in a clone relctl made is removed (below), and a clone the user made (not relctl) keeps its ignored files (an IDE's, a local secret).
    const site = clone('acme/site');
    await rm(site, { recursive: true, force: true });
    await git(tmp.path, home, 'clone', '-q', fleet.bare('acme/site'), site);
    await writeFile(path.join(site, '.git', 'info', 'exclude'), '.env\n');
    await writeFile(path.join(site, '.env'), 'TOKEN=local\n');
    await mkdir(path.join(clone('acme/acme-parent'), 'target'), { recursive: true });
    await writeFile(path.join(clone('acme/acme-parent'), '.git', 'info', 'exclude'), 'target/\n');
    await writeFile(path.join(clone('acme/acme-parent'), 'target', 'out.jar'), 'built');

    const r = await audit(workdir);
    expect(r.exitCode, r.stderr).toBe(1);
    expect(verdicts(r.stdout)).toEqual({ ...expected, 'acme/child-fixed': 'error', 'acme/child-own': 'error' });
    const dirty = errorOf(r.stdout, 'acme/child-fixed')!;
    expect(dirty.code).toBe('workspace-dirty');
    expect(dirty.message).toContain('modified: pom.xml');
    expect(dirty.message).toContain('untracked: notes.txt');
    const committed = errorOf(r.stdout, 'acme/child-own')!;
    expect(committed.code).toBe('workspace-dirty');
    expect(committed.message).toContain(`local commits not on the remote: ${localCommit.slice(0, 12)}`);
    // Untouched: the edit, the new file, the commit on the checked-out branch.
    expect(await readFile(path.join(fixed, 'pom.xml'), 'utf8')).toBe(edited);
    expect(await readFile(path.join(fixed, 'notes.txt'), 'utf8')).toBe('mine\n');
    expect((await git(own, home, 'rev-parse', 'HEAD')).trim()).toBe(localCommit);
    expect(await readFile(path.join(site, '.env'), 'utf8')).toBe('TOKEN=local\n');
    expect(existsSync(path.join(clone('acme/acme-parent'), 'target'))).toBe(false);
    // Two whole audits of six repositories: more than the default minute on a loaded machine.
  }, 180_000);

  it('lets one run at a time use a workspace: the second exits 2 naming the first; a killed holder\'s lock and half clones are taken over', async () => {
    // A slow machine: the first run's git clones, then waits for the test's word (bounded) before it exits.
    const slow = path.join(tmp.path, 'slow-bin');
    await mkdir(slow, { recursive: true });
    const go = path.join(tmp.path, 'go');
    const reached = path.join(tmp.path, 'reached');
    const realGit = (await git(tmp.path, home, '--exec-path')).trim() + '/git';
    await writeFile(
      path.join(slow, 'git'),
      `#!/bin/sh\ncase " $* " in\n*" clone "*) '${realGit}' "$@"; s=$?; echo $$ >> '${reached}'; i=0; while [ ! -e '${go}' ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done; exit $s;;\nesac\nexec '${realGit}' "$@"\n`,
    );
    await chmod(path.join(slow, 'git'), 0o755);
    const reposFile = fleet.reposFile;
    const workdir = path.join(tmp.path, 'shared');
    const env = { ...gitEnv(home), PATH: `${slow}:${process.env.PATH ?? ''}` };
    const run = (extraEnv: Record<string, string>) =>
      runCli(['fleet', 'audit', '--repos', reposFile, '--workdir', workdir, '--offline', '--json', '--jobs', '2'], { cwd: tmp.path, home, env: extraEnv });
    const waitFor = async (file: string): Promise<void> => {
      for (let i = 0; i < 600 && !existsSync(file); i++) await new Promise((r) => setTimeout(r, 100));
      expect(existsSync(file), `${file} never appeared`).toBe(true);
    };
    const { spawnCli } = await import('../helpers/cli.js');
    const first = spawnCli(['fleet', 'audit', '--repos', reposFile, '--workdir', workdir, '--offline', '--json', '--jobs', '2'], { cwd: tmp.path, env: { ...process.env, ...env, HOME: home } });
    await waitFor(reached);
    const second = await run(gitEnv(home));
    expect(second.exitCode, second.stdout).toBe(2);
    expect(second.stderr).toContain(`pid ${first.pid}`);
    expect(second.stderr).toContain(workdir);

    // The holder is killed mid-clone: its lock and its half clones are left behind.
    first.kill('SIGKILL');
    await first;
    for (const pid of (await readFile(reached, 'utf8')).split('\n').filter((p) => p !== '')) {
      try {
        process.kill(Number(pid), 'SIGKILL');
      } catch {
        // already gone
      }
    }
    await writeFile(go, '');
    expect(existsSync(path.join(workdir, '.relctl', 'lock'))).toBe(true);
    const cloning = path.join(workdir, '.relctl', 'cloning');
    expect(readdirSync(cloning).length).toBeGreaterThan(0);
    const third = await run(gitEnv(home));
    expect(third.exitCode, third.stderr).toBe(1);
    expect(verdicts(third.stdout)).toEqual(expected);
    expect(existsSync(path.join(workdir, '.relctl', 'lock'))).toBe(false);
    expect(readdirSync(cloning)).toEqual([]);
  }, 180_000);

  it("never prunes or moves a tag in someone's own clone: a local-only tag stays; one that differs from the remote's is workspace-dirty", async () => {
    const workdir = path.join(tmp.path, 'own-tags');
    const site = path.join(workdir, 'acme', 'site');
    await mkdir(path.dirname(site), { recursive: true });
    await git(tmp.path, home, 'clone', '-q', fleet.bare('acme/site'), site);
    // A release tagged here and not pushed yet.
    await git(site, home, 'tag', 'v9-unpushed');
    const first = await audit(workdir, '--only', 'acme/site');
    expect(verdicts(first.stdout)['acme/site'], first.stdout).toBe('not-published');
    expect((await git(site, home, 'tag', '--list')).split('\n')).toContain('v9-unpushed');
    // The remote gets a tag the owner also made here, on purpose, as another object.
    const other = path.join(tmp.path, 'own-tags-pusher');
    await git(tmp.path, home, 'clone', '-q', fleet.bare('acme/site'), other);
    await git(other, home, 'tag', 'moved');
    await git(other, home, 'push', '-q', 'origin', 'moved');
    await git(site, home, 'tag', '-a', 'moved', '-m', 'mine');
    const mine = (await git(site, home, 'rev-parse', 'refs/tags/moved')).trim();
    const second = await audit(workdir, '--only', 'acme/site');
    const error = errorOf(second.stdout, 'acme/site');
    expect(error?.code, second.stdout).toBe('workspace-dirty');
    expect(error?.message).toContain("local tags differ from the remote's (moved)");
    expect((await git(site, home, 'rev-parse', 'refs/tags/moved')).trim()).toBe(mine);
    expect((await git(site, home, 'tag', '--list')).split('\n')).toContain('v9-unpushed');
  });

  it('does not take a git that could not run for a fact about the clone: git-failed, not workspace-foreign', async () => {
    const workdir = path.join(tmp.path, 'killed-git');
    expect((await audit(workdir, '--only', 'acme/child-fixed')).exitCode).toBe(0);
    // A loaded machine: the git asking for the clone's origin is killed before it answers.
    const bin = path.join(tmp.path, 'killing-bin');
    await mkdir(bin, { recursive: true });
    const realGit = (await git(tmp.path, home, '--exec-path')).trim() + '/git';
    await writeFile(path.join(bin, 'git'), `#!/bin/sh\ncase " $* " in\n*" get-url "*) kill -9 $$;;\nesac\nexec '${realGit}' "$@"\n`);
    await chmod(path.join(bin, 'git'), 0o755);
    const r = await runCli(['fleet', 'audit', '--repos', fleet.reposFile, '--workdir', workdir, '--offline', '--json', '--only', 'acme/child-fixed'], {
      cwd: tmp.path,
      home,
      env: { ...gitEnv(home), PATH: `${bin}:${process.env.PATH ?? ''}` },
    });
    const error = errorOf(r.stdout, 'acme/child-fixed');
    expect(error?.code, r.stdout).toBe('git-failed');
    expect(error?.message).not.toContain('a clone of');
  });
});
