import { chmod, mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { childPom, legacyUrl, makeFleet } from '../helpers/fleet.js';
import { git, gitEnv, tempDir, writeTree, type TempDir } from '../helpers/temp.js';

interface Repo {
  name: string;
  change?: { action: string; why?: string; files?: string[]; commit?: string; diff?: string };
  findings: { code: string; severity: string; file?: string; message: string }[];
}

const ownDistribution = `\n  <distributionManagement>\n    <repository><id>central</id><url>${legacyUrl}</url></repository>\n  </distributionManagement>`;

/** issue 41 item 5: a fix commit holds the edit and nothing else, as git keeps the file (symlink, mode, line endings). */
describe('relctl fleet fix keeps what git keeps', () => {
  let tmp: TempDir;
  let home: string;
  let workdir: string;
  let reposFile: string;
  let outsidePom: string;
  const fix = (...args: string[]) => runCli(['fleet', 'fix', '--repos', reposFile, '--workdir', workdir, '--offline', '--json', ...args], { cwd: tmp.path, home, env: gitEnv(home) });
  const repo = (stdout: string, name: string) => (JSON.parse(stdout) as { repositories: Repo[] }).repositories.find((r) => r.name === name)!;
  const clone = (name: string) => path.join(workdir, ...name.split('/'));

  /** A bare repository from a working tree the test lays out itself (symlinks, modes, attributes). */
  async function repoFrom(name: string, lay: (work: string) => Promise<void>): Promise<string> {
    const work = path.join(tmp.path, 'work', name);
    await mkdir(work, { recursive: true });
    await git(work, home, 'init', '-q', '-b', 'main');
    await lay(work);
    await git(work, home, 'add', '-A');
    await git(work, home, 'commit', '-q', '-m', 'initial');
    const bare = path.join(tmp.path, 'git', `${name}.git`);
    await git(tmp.path, home, 'clone', '-q', '--bare', work, bare);
    return bare;
  }

  beforeAll(async () => {
    tmp = await tempDir('relctl-fleet-fix-files-');
    home = path.join(tmp.path, 'home');
    workdir = path.join(tmp.path, 'ws');
    const fleet = await makeFleet(path.join(tmp.path, 'git'), home);
    // pom.xml is a symlink to the real POM in build/.
    const linked = await repoFrom('acme/linked', async (work) => {
      await writeTree(work, { 'build/pom.xml': childPom('linked', '2-SNAPSHOT', ownDistribution) });
      await symlink('build/pom.xml', path.join(work, 'pom.xml'));
    });
    // pom.xml is a symlink out of the repository.
    outsidePom = path.join(tmp.path, 'shared', 'pom.xml');
    await writeTree(tmp.path, { 'shared/pom.xml': childPom('outside', '2-SNAPSHOT', ownDistribution) });
    const outside = await repoFrom('acme/outside', async (work) => {
      await symlink(outsidePom, path.join(work, 'pom.xml'));
    });
    // Every text file checked out with CRLF, stored with LF; the POM executable (odd, but the repository's own).
    const crlf = await repoFrom('acme/crlf', async (work) => {
      await writeTree(work, { '.gitattributes': '* text eol=crlf\n', 'pom.xml': childPom('crlf', '2-SNAPSHOT', ownDistribution) });
      await chmod(path.join(work, 'pom.xml'), 0o755);
    });
    reposFile = path.join(tmp.path, 'repos.txt');
    await writeFile(reposFile, [`acme/acme-parent ${fleet.bare('acme/acme-parent')}`, `acme/linked ${linked}`, `acme/outside ${outside}`, `acme/crlf ${crlf}`].join('\n') + '\n');
  });
  afterAll(async () => {
    await tmp[Symbol.asyncDispose]();
  });

  it('--dry-run shows the edit in the file a symlink points to, and skips a symlink out of the repository with a finding', async () => {
    const r = await fix('--dry-run');
    expect(r.exitCode, r.stderr).toBe(0);
    const linked = repo(r.stdout, 'acme/linked').change!;
    expect(linked).toMatchObject({ action: 'dry-run', files: ['build/pom.xml'] });
    expect(linked.diff).toContain('+++ b/build/pom.xml');
    const outside = repo(r.stdout, 'acme/outside');
    expect(outside.change?.action).toBe('none');
    expect(outside.findings.find((f) => f.code === 'fix-unreadable')).toMatchObject({ severity: 'warning', file: 'pom.xml' });
    expect(outside.findings.find((f) => f.code === 'fix-unreadable')?.message).toContain(outsidePom);
    // One line out, one line in: the edit, whatever the line endings on disk.
    const crlf = repo(r.stdout, 'acme/crlf').change!;
    expect(crlf.diff!.split('\n').filter((l) => /^[-+][^-+]/.test(l))).toHaveLength(2);
  });

  it('commits exactly the edit: to the symlink\'s target, the mode kept, the line endings git stores', async () => {
    const r = await fix();
    expect(r.exitCode, r.stderr).toBe(0);

    const linked = repo(r.stdout, 'acme/linked').change!;
    expect(linked).toMatchObject({ action: 'committed', files: ['build/pom.xml'] });
    const linkedDir = clone('acme/linked');
    expect(await git(linkedDir, home, 'diff', '--numstat', 'main', linked.commit!)).toBe('1\t1\tbuild/pom.xml');
    // The link is still the link.
    expect(await git(linkedDir, home, 'ls-tree', linked.commit!, 'pom.xml')).toBe(await git(linkedDir, home, 'ls-tree', 'main', 'pom.xml'));
    expect(await git(linkedDir, home, 'show', `${linked.commit!}:build/pom.xml`)).toContain('ossrh-staging-api.central.sonatype.com');

    expect(repo(r.stdout, 'acme/outside').change?.action).toBe('none');
    expect(await readFile(outsidePom, 'utf8')).toContain(legacyUrl);

    const crlf = repo(r.stdout, 'acme/crlf').change!;
    expect(crlf.action).toBe('committed');
    const crlfDir = clone('acme/crlf');
    expect(await git(crlfDir, home, 'diff', '--numstat', 'main', crlf.commit!)).toBe('1\t1\tpom.xml');
    expect(await git(crlfDir, home, 'diff', '--summary', 'main', crlf.commit!)).toBe('');
    expect((await git(crlfDir, home, 'ls-tree', crlf.commit!, 'pom.xml')).split(' ')[0]).toBe('100755');
    expect(await git(crlfDir, home, 'show', `${crlf.commit!}:pom.xml`)).not.toContain('\r');
  }, 180_000);
});
