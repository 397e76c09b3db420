/**
 * Issue 37 item 8: `preflight --fix` on real projects (test/fixtures/real-projects: feign's shape,
 * inspektr's and person-directory's build files), each cloned into a temp git repository with a
 * HOME of its own (the parents they inherit in its local repository), then `relctl preflight
 * --offline --fix --json` (the built bundle) as a maintainer runs it.
 */
import { cp, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { gitIsolation, realWorldWorkspace } from '../helpers/real-world.js';
import { git } from '../helpers/temp.js';

const projects = path.resolve(import.meta.dirname, '../fixtures/real-projects');
const work = await realWorldWorkspace();
afterAll(() => work.dispose());

interface FixDoc {
  findings: { code: string; file?: string; message: string }[];
  fixed: { file: string; line: number; code: string; before: string; after: string }[];
  declined: { code: string; file?: string; why: string }[];
  written?: string[];
}

interface Clone {
  dir: string;
  home: string;
  fix(...args: string[]): Promise<FixDoc>;
  read(file: string): Promise<string>;
}

/** `project` as a maintainer's clone, with a HOME holding the parents it inherits (and no settings file). */
async function clone(project: string, name = project): Promise<Clone> {
  const root = path.join(work.dir, name);
  const dir = path.join(root, project);
  const home = path.join(root, 'home');
  await cp(path.join(projects, project), dir, { recursive: true });
  await cp(path.join(projects, 'home'), home, { recursive: true });
  await git(dir, root, 'init', '-q', '-b', 'main');
  await git(dir, root, 'add', '-A');
  await git(dir, root, 'commit', '-q', '-m', 'initial');
  const env = gitIsolation(root);
  return {
    dir,
    home,
    fix: async (...args) => {
      const r = await runCli(['preflight', '--offline', '--json', '--fix', '--cwd', dir, ...args], { home, env });
      return JSON.parse(r.stdout) as FixDoc;
    },
    read: (file) => readFile(path.isAbsolute(file) ? file : path.join(dir, file), 'utf8'),
  };
}

describe('feign: the CI deploys with -pl -:feign-benchmark (every module but the benchmark)', () => {
  it('the parent POM is deployed, so its retired host and legacy id are fixed, with the server in the -s file the release job passes', async () => {
    const c = await clone('feign');
    const doc = await c.fix();
    expect(doc.declined.filter((d) => d.why.includes('never deploys')), JSON.stringify(doc.declined)).toEqual([]);
    expect(doc.fixed.map((e) => [e.file, e.code, e.before, e.after])).toEqual([
      ['pom.xml', 'legacy-staging-id', 'ossrh', 'central'],
      ['pom.xml', 'legacy-staging-host', 'https://oss.sonatype.org/service/local/staging/deploy/maven2/', 'https://ossrh-staging-api.central.sonatype.com/service/local/staging/deploy/maven2/'],
      ['pom.xml', 'legacy-staging-id', 'ossrh', 'central'],
      ['pom.xml', 'legacy-staging-host', 'https://oss.sonatype.org/content/repositories/snapshots', 'https://central.sonatype.com/repository/maven-snapshots/'],
      // The release job (tags only, -P release) passes -s .circleci/settings.xml: its <server> moves with the id.
      ['.circleci/settings.xml', 'legacy-staging-id', 'ossrh', 'central'],
    ]);
    expect(await c.read('.circleci/settings.xml')).toContain('<id>central</id>\n      <username>${env.SONATYPE_USER}</username>');
    // Left: only the credentials the CI's secrets give (unset here), named by their variables.
    expect(doc.findings.map((f) => f.code)).toEqual(['server-id-mismatch', 'snapshots-need-enabling']);
  });
});

describe('inspektr and person-directory: the CI deploys only snapshots with its own settings file; releases are made locally', () => {
  it.each(['inspektr', 'person-directory'])("%s: the release id's <server> goes to ~/.m2/settings.xml, the CI file keeps its snapshot server and gets nothing", async (project) => {
    const c = await clone(project);
    const ciFile = '.github/workflows/settings.xml';
    const ciBefore = await c.read(ciFile);
    const userSettings = path.join(c.home, '.m2', 'settings.xml');
    const doc = await c.fix();
    // The top POM shadows the retired hosts it inherits from oss-parent 9; the snapshot id is kept, its server is in the CI file.
    expect(doc.fixed.find((e) => e.file === 'pom.xml' && e.after.startsWith('<distributionManagement>'))?.after).toBe(
      '<distributionManagement><repository><id>central</id><url>https://ossrh-staging-api.central.sonatype.com/service/local/staging/deploy/maven2/</url></repository>' +
        '<snapshotRepository><id>sonatype-nexus-snapshots</id><url>https://central.sonatype.com/repository/maven-snapshots/</url></snapshotRepository></distributionManagement>',
    );
    expect(doc.fixed.filter((e) => e.file === ciFile)).toEqual([]);
    expect(doc.fixed.filter((e) => e.file === userSettings).map((e) => [e.code, e.after])).toEqual([
      ['server-id-mismatch', '<server><id>central</id><username>${env.CENTRAL_TOKEN_USERNAME}</username><password>${env.CENTRAL_TOKEN_PASSWORD}</password></server>'],
    ]);
    expect(await c.read(ciFile)).toBe(ciBefore);
    expect(await c.read(userSettings)).toContain('<id>central</id>');
    expect((await stat(userSettings)).mode & 0o777).toBe(0o600);
    // What is left of the credentials is the maintainer's token in the variables the new server names.
    expect(doc.findings.find((f) => f.code === 'server-id-mismatch')?.message).toContain('CENTRAL_TOKEN_USERNAME, CENTRAL_TOKEN_PASSWORD are not set');
  });
});

describe('a POM with lone-CR line ends is declined whole, and with it the settings change that belongs to it', () => {
  it('inspektr with a classic-Mac pom.xml: neither the POM nor ~/.m2/settings.xml changes, and the <server> is declined with the POM\'s reason', async () => {
    const c = await clone('inspektr', 'inspektr-cr');
    await writeFile(path.join(c.dir, 'pom.xml'), (await c.read('pom.xml')).replace(/\n/g, '\r'));
    await git(c.dir, path.dirname(c.dir), 'commit', '-q', '-am', 'classic Mac line ends');
    const userSettings = path.join(c.home, '.m2', 'settings.xml');
    const doc = await c.fix();
    expect(doc.fixed).toEqual([]);
    expect(doc.written).toEqual([]);
    await expect(stat(userSettings)).rejects.toThrow();
    const server = doc.declined.find((d) => d.file === userSettings);
    expect(server?.code).toBe('server-id-mismatch');
    expect(server?.why).toContain('for the repository id the change to pom.xml declares, and that change is not made: ');
    expect(server?.why).toContain('pom.xml ends lines with a lone CR');
    expect(server?.why).toContain(`A fix is made whole or not at all, so ${userSettings} is not changed either.`);
  });
});
