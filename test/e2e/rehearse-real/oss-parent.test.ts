import { cp, mkdir, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { binPath, repoRoot, runCli } from '../../helpers/cli.js';
import { git, gitEnv, tempDir, type TempDir } from '../../helpers/temp.js';
import { mavenCache, settingsXml } from '../maven-release/fixture.js';
import type { Rehearsal } from './fixture.js';

/**
 * A library on org.sonatype.oss:oss-parent:9 (test/fixtures/oss-parent-9): maven-release-plugin 2.1
 * (forked-path) whose release:perform forks `mvn deploy --no-plugin-updates --batch-mode
 * -Psonatype-oss-release -f pom.xml` with neither relctl's `-s` nor `-Dmaven.repo.local`. The
 * sandbox's token and the local repository reach that fork only through relctl's private Maven
 * user home (MAVEN_OPTS -Duser.home): without it the deploy gets 401 and the fork resolves into
 * ~/.m2/repository. The version it releases already exists in the local repository (a planted
 * marker, other bytes, Central's metadata): the rehearsal leaves all of it as it was.
 */
const fixture = path.join(repoRoot, 'test', 'fixtures', 'oss-parent-9');
const artifactDir = path.join(mavenCache, 'org', 'example', 'relctl', 'oss9', 'oss9-greeting');

interface Project {
  dir: string;
  home: string;
  tmp: string;
}

async function ossProject(root: string): Promise<Project> {
  const dir = path.join(root, 'project');
  const home = path.join(root, 'home');
  const tmp = path.join(root, 'tmp');
  await cp(fixture, dir, { recursive: true });
  await mkdir(path.join(home, '.m2'), { recursive: true });
  await mkdir(tmp);
  await writeFile(path.join(home, '.m2', 'settings.xml'), settingsXml());
  await git(root, home, 'init', '-q', '-b', 'main', dir);
  await git(dir, home, 'add', '-A');
  await git(dir, home, 'commit', '-q', '-m', 'oss-parent 9 library');
  return { dir, home, tmp };
}

const args = (p: Project): string[] => ['rehearse', '--sign', '--local-repo', mavenCache, '--json', '--cwd', p.dir];
const env = (p: Project): Record<string, string | undefined> => ({ ...gitEnv(p.home), JAVA_HOME: undefined, TMPDIR: p.tmp });

/** The existing 1.0.0 in the local repository, as a maintainer's earlier install left it. */
async function plant(): Promise<Record<string, string>> {
  const files = {
    '1.0.0/oss9-greeting-1.0.0.pom': '<project>the 1.0.0 that was here before</project>\n',
    '1.0.0/planted-marker.txt': 'planted before the rehearsal\n',
    'maven-metadata-central.xml': '<metadata><versioning><release>1.0.0</release></versioning></metadata>\n',
  };
  await rm(artifactDir, { recursive: true, force: true });
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(artifactDir, name)), { recursive: true });
    await writeFile(path.join(artifactDir, name), text);
  }
  return files;
}

/** Every file under the artifact folder, with its content. */
async function contents(): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const e of await readdir(artifactDir, { recursive: true, withFileTypes: true })) {
    if (!e.isFile()) continue;
    const file = path.join(e.parentPath, e.name);
    out[path.relative(artifactDir, file)] = await readFile(file, 'utf8');
  }
  return out;
}

const relctlFolders = async (tmp: string): Promise<string[]> => (await readdir(tmp)).filter((n) => n.startsWith('relctl-')).sort();

async function gpgAgents(dir: string): Promise<string> {
  return String((await execa('pgrep', ['-f', `gpg-agent --homedir ${dir}`], { reject: false })).stdout);
}

describe('rehearse: oss-parent 9 with maven-release-plugin 2.1', () => {
  let t: TempDir;
  beforeAll(async () => {
    t = await tempDir('relctl-oss9-');
  });
  afterAll(async () => {
    await rm(artifactDir, { recursive: true, force: true });
    await t?.[Symbol.asyncDispose]();
  });

  it("reaches the portal's verdict: the forked deploy gets the sandbox's token; the existing 1.0.0 in the local repository is untouched", async () => {
    const p = await ossProject(path.join(t.path, 'one'));
    const planted = await plant();
    const r = await runCli(args(p), { home: p.home, env: env(p), timeoutMs: 480_000 });
    const result = JSON.parse(r.stdout) as Rehearsal;
    expect(r.exitCode, `${r.stderr}\n${JSON.stringify(result.build?.failure ?? result.error)}`).toBe(0);
    expect(result.verdict).toBe('VALIDATED');
    expect(result.project).toMatchObject({ version: '1.0.0', nextVersion: '1.0.1-SNAPSHOT' });
    expect(result.build!.parents).toEqual(['org/sonatype/oss/oss-parent/9/oss-parent-9.pom']);
    expect(result.chain!.steps.map((s) => `${s.id}:${s.status}`)).toEqual(['verify:done', 'upload:done', 'status:done']);
    expect(await contents()).toEqual(planted);
    // Nothing went to the user's own ~/.m2/repository (the fork used the local repository relctl names).
    expect(await stat(path.join(p.home, '.m2', 'repository')).catch(() => undefined)).toBeUndefined();
    expect(await relctlFolders(p.tmp)).toEqual([]);
  }, 600_000);

  it('a SIGKILLed rehearsal leaves its folders and agent; the next rehearsal restores the local repository and removes them', async () => {
    const p = await ossProject(path.join(t.path, 'killed'));
    const planted = await plant();
    const child = execa('node', [binPath, ...args(p)], { env: { ...process.env, CI: 'true', NO_COLOR: '1', HOME: p.home, ...env(p) }, extendEnv: false, detached: true, reject: false, buffer: false, stdio: 'ignore' });
    // Killed once release:perform has installed its 1.0.0 over the planted one (the marker goes with it).
    const started = Date.now();
    while (!(await readFile(path.join(artifactDir, '1.0.0', 'oss9-greeting-1.0.0.pom'), 'utf8').catch(() => '')).includes('<artifactId>oss9-greeting</artifactId>')) {
      expect(Date.now() - started, 'release:perform never installed 1.0.0').toBeLessThan(420_000);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    process.kill(-child.pid!, 'SIGKILL');
    await child;
    const left = await relctlFolders(p.tmp);
    expect(left.map((n) => n.replace(/-[^-]+$/, ''))).toEqual(expect.arrayContaining(['relctl-gpg', 'relctl-rehearse', 'relctl-settings']));
    expect(await contents()).not.toEqual(planted);

    const r = await runCli(args(p), { home: p.home, env: env(p), timeoutMs: 480_000 });
    expect(r.exitCode, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as Rehearsal).verdict).toBe('VALIDATED');
    expect(await contents()).toEqual(planted);
    expect(await relctlFolders(p.tmp)).toEqual([]);
    for (const name of left) expect(await gpgAgents(path.join(p.tmp, name))).toBe('');
  }, 600_000);
});
