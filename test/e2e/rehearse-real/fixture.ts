import { cp, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { repoRoot, runCli } from '../../helpers/cli.js';
import { git, gitEnv } from '../../helpers/temp.js';
import { mavenCache, settingsXml } from '../maven-release/fixture.js';

/**
 * Real projects rehearsed end to end (issue 19 item 5): test/fixtures/realworld-src (full sources,
 * real parents and plugins from Maven Central, into the project-local cache .cache/m2, which
 * scripts/maven-cache.sh pre-fills) copied into a temp folder as a git repository of its own.
 */
export const realworldSrc = process.env.RELCTL_REALWORLD_SRC ?? path.join(repoRoot, 'test', 'fixtures', 'realworld-src');

/** What `rehearse --json` prints, as far as these tests read it. */
export interface Rehearsal {
  ok: boolean;
  verdict: string;
  project: { version: string; nextVersion?: string; tag: string };
  build?: {
    commands: string[];
    redirect: string[];
    javaHome?: string;
    notes: string[];
    parents: string[];
    failure?: { command: string; goal?: string; errors: string[]; forked?: { command: string }; cause?: { code: string; message: string; fix: string } };
  };
  chain?: { steps: { id: string; status: string }[] };
  error?: { kind: string; message: string; fix?: string };
}

export interface RealProject {
  dir: string;
  home: string;
}

/**
 * `name` from realworld-src as a fresh repository. `mavenConfig` is a `.mvn/maven.config` the
 * maintainer commits (a JDK 17 workaround), as a real project would carry it; `branch` the one it
 * releases from (most Apereo repositories: `master`).
 */
export async function realProject(root: string, name: string, mavenConfig?: string, branch = 'main'): Promise<RealProject> {
  const base = path.join(root, name);
  const dir = path.join(base, 'project');
  const home = path.join(base, 'home');
  await cp(path.join(realworldSrc, name), dir, { recursive: true });
  if (mavenConfig !== undefined) {
    await mkdir(path.join(dir, '.mvn'), { recursive: true });
    await writeFile(path.join(dir, '.mvn', 'maven.config'), `${mavenConfig}\n`);
  }
  await mkdir(path.join(home, '.m2'), { recursive: true });
  // Central with updatePolicy never: once .cache/m2 holds everything, a run needs no network.
  await writeFile(path.join(home, '.m2', 'settings.xml'), settingsXml());
  await git(base, home, 'init', '-q', '-b', branch, dir);
  await git(dir, home, 'add', '-A');
  await git(dir, home, 'commit', '-q', '-m', 'the project as vendored');
  return { dir, home };
}

/** `relctl rehearse --sign --json` of the project: JAVA_HOME unset, as on this machine's shell. */
export async function rehearse(p: RealProject, extra: string[] = []): Promise<{ exitCode: number; result: Rehearsal; stderr: string }> {
  const r = await runCli(['rehearse', '--sign', '--local-repo', mavenCache, '--json', ...extra, '--cwd', p.dir], {
    home: p.home,
    env: { ...gitEnv(p.home), JAVA_HOME: undefined },
    timeoutMs: 480_000,
  });
  if (r.stdout.trim() === '') throw new Error(`no result (exit ${r.exitCode}):\n${r.stderr}`);
  return { exitCode: r.exitCode, result: JSON.parse(r.stdout) as Rehearsal, stderr: r.stderr };
}

