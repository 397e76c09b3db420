import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { bareRepo } from '../helpers/fleet.js';
import { gitEnv, tempDir, writeTree, type TempDir } from '../helpers/temp.js';

/**
 * DESIGN §13 Safety (issue 41 item 1): nothing is written outside the workspace, whatever a
 * repository declares. A fleet repository whose POM's artifactId climbs out with `../`, tagged for
 * the version a child asks for, once made `fleet audit` write that tag's POM over the user's
 * `~/.m2/repository/org/apache/apache/33/apache-33.pom`. The HOME here is the test's own: its
 * files are compared before and after every run.
 */
interface Repo {
  name: string;
  verdict: string;
  error?: { code: string; message: string; fix?: string };
  parents: { coordinates: string; repository: string | null }[];
}

const trusted = '<project><!-- the POM Maven trusts --></project>\n';

function pom(groupId: string, artifactId: string, version: string, parent = ''): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>${parent}
  <groupId>${groupId}</groupId>
  <artifactId>${artifactId}</artifactId>
  <version>${version}</version>
  <packaging>pom</packaging>
  <name>HOSTILE ${version}</name>
</project>
`;
}

const parentOf = (groupId: string, artifactId: string, version: string) =>
  `\n  <parent>\n    <groupId>${groupId}</groupId>\n    <artifactId>${artifactId}</artifactId>\n    <version>${version}</version>\n  </parent>`;

/** Every file under `dir` with its content (folders as names only), for a before/after comparison. */
async function snapshot(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const e of await readdir(dir, { recursive: true, withFileTypes: true })) {
    const file = path.join(e.parentPath, e.name);
    out[path.relative(dir, file)] = e.isFile() ? await readFile(file, 'utf8') : e.isDirectory() ? '<dir>' : '<other>';
  }
  return out;
}

describe('fleet commands never write outside the workspace, whatever a repository declares', () => {
  let tmp: TempDir;
  let home: string;
  let workdir: string;
  let reposFile: string;
  const target = () => path.join(home, '.m2', 'repository', 'org', 'apache', 'apache', '33', 'apache-33.pom');

  beforeAll(async () => {
    tmp = await tempDir('relctl-fleet-hostile-');
    home = path.join(tmp.path, 'home');
    workdir = path.join(tmp.path, 'work');
    await writeTree(home, { '.m2/repository/org/apache/apache/33/apache-33.pom': trusted, '.m2/settings.xml': '<settings/>\n' });
    // Climbs past the filesystem's root, then down to the target: the folder and the file name both land there.
    const climbing = `${'../'.repeat(40)}${home.slice(1)}/.m2/repository/org/apache/apache/33/apache`;
    const root = path.join(tmp.path, 'git');
    await bareRepo(root, home, 'evil/parent', [{ files: { 'pom.xml': pom('org.evil', climbing, '33') }, tag: 'v33' }, { files: { 'pom.xml': pom('org.evil', climbing, '34-SNAPSHOT') } }]);
    // The child deploys to the retired OSSRH host itself (blocked): no repository is ready, so fleet rehearse builds nothing.
    const retired = '\n  <distributionManagement><repository><id>central</id><url>https://oss.sonatype.org/service/local/staging/deploy/maven2/</url></repository></distributionManagement>';
    await bareRepo(root, home, 'evil/child', [{ files: { 'pom.xml': pom('org.evil', 'child', '1.0.0-SNAPSHOT', parentOf('org.evil', climbing, '33') + retired) } }]);
    // Other characters Maven refuses in coordinates: a backslash, a control character (as an XML character reference), a slash in the version.
    await bareRepo(root, home, 'evil/backslash', [{ files: { 'pom.xml': pom('org.evil', 'lib\\..\\..\\x', '1') } }]);
    await bareRepo(root, home, 'evil/control', [{ files: { 'pom.xml': pom('org.evil', 'lib&#9;x', '1') } }]);
    await bareRepo(root, home, 'evil/version', [{ files: { 'pom.xml': pom('org.evil', 'versioned', '1/2') } }]);
    reposFile = path.join(root, 'repos.txt');
    const names = ['evil/parent', 'evil/child', 'evil/backslash', 'evil/control', 'evil/version'];
    await writeFile(reposFile, names.map((n) => `${n} ${path.join(root, `${n}.git`)}`).join('\n') + '\n');
  });
  afterAll(async () => {
    await tmp[Symbol.asyncDispose]();
  });

  it('fleet audit: a hostile coordinate is an error of its repository, named in clear words, never a write', async () => {
    const before = await snapshot(home);
    const r = await runCli(['fleet', 'audit', '--repos', reposFile, '--workdir', workdir, '--offline', '--json', '--verbose'], { cwd: tmp.path, home, env: gitEnv(home) });
    expect(await readFile(target(), 'utf8')).toBe(trusted);
    expect(await snapshot(home)).toEqual(before);
    expect(r.exitCode, r.stderr).toBe(1);
    const repos = (JSON.parse(r.stdout) as { repositories: Repo[] }).repositories;
    const byName = (name: string) => repos.find((x) => x.name === name)!;
    const parent = byName('evil/parent');
    expect(parent.verdict).toBe('error');
    expect(parent.error?.code).toBe('invalid-coordinates');
    expect(parent.error?.message).toMatch(/^pom\.xml declares the artifactId "(\.\.\/)+.*apache", which Maven refuses: /);
    expect(parent.error?.fix).toMatch(/pom\.xml/);
    for (const [name, field] of [['evil/backslash', 'artifactId'], ['evil/control', 'artifactId'], ['evil/version', 'version']] as const) {
      expect(byName(name).error?.code, name).toBe('invalid-coordinates');
      expect(byName(name).error?.message, name).toContain(`declares the ${field} "`);
    }
    // A control character is shown escaped, not sent raw to the terminal or the report.
    expect(byName('evil/control').error?.message).toContain('"lib\\tx"');
    // The child's parent is not the fleet's to read: never taken from the hostile repository.
    expect(byName('evil/child').parents[0]?.repository).toBeNull();
    expect(r.stderr).not.toMatch(/read from evil\/parent/);
  });

  it('fleet audit in its text form says why in words', async () => {
    const r = await runCli(['fleet', 'audit', '--repos', reposFile, '--workdir', workdir, '--offline', '--only', 'evil/parent'], { cwd: tmp.path, home, env: gitEnv(home) });
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toMatch(/invalid-coordinates/);
    expect(r.stdout).toMatch(/which Maven refuses/);
    expect(await readFile(target(), 'utf8')).toBe(trusted);
  });

  it('fleet rehearse: the same repositories are not rehearsed and the fleet repository writes nothing outside the workspace', async () => {
    const before = await snapshot(home);
    const r = await runCli(['fleet', 'rehearse', '--repos', reposFile, '--workdir', workdir, '--offline', '--json'], { cwd: tmp.path, home, env: gitEnv(home) });
    expect(await readFile(target(), 'utf8')).toBe(trusted);
    expect(await snapshot(home)).toEqual(before);
    const repos = (JSON.parse(r.stdout) as { repositories: (Repo & { rehearsal: { verdict: string } | null })[] }).repositories;
    expect(repos.find((x) => x.name === 'evil/parent')?.rehearsal?.verdict).toBe('skipped');
    expect(repos.find((x) => x.name === 'evil/parent')?.error?.code).toBe('invalid-coordinates');
  });
});
