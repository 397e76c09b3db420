import { readFileSync } from 'node:fs';
import { chmod, cp, mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll } from 'vitest';
import { startSandbox, type RunningSandbox, type SandboxUser } from '../../../src/sandbox/server.js';
import { publishKeyConfirmed } from '../../integration/sandbox-fixture.js';
import { repoRoot, runCli, type CliResult } from '../../helpers/cli.js';
import { createTestKey, type TestKey } from '../../helpers/gpg.js';
import { git, gitEnv, tempDir, type TempDir } from '../../helpers/temp.js';

/**
 * The real-plugin release tests' project: test/fixtures/maven-release (an ecosystem parent that
 * only the local repository holds, with <developers> and the gpg `release` profile; a reactor of a
 * parent, a jar and a war) in a git repository whose remote is a bare repository on disk, so the
 * real maven-release-plugin pushes its commits and tag and release:perform clones the tag back.
 */

const fixtureDir = path.join(repoRoot, 'test', 'fixtures', 'maven-release');

/** The plugin versions these tests run (plugin-versions.properties, which scripts/maven-cache.sh pre-fetches). */
export const pluginVersions: Record<string, string> = Object.fromEntries(
  readFileSync(path.join(fixtureDir, 'plugin-versions.properties'), 'utf8')
    .split('\n')
    .filter((l) => /^[A-Z_]+=/.test(l))
    .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1).trim()]),
);

/** The project-local Maven repository: filled from Maven Central once (scripts/maven-cache.sh), git-ignored. */
export const mavenCache = path.join(repoRoot, '.cache', 'm2');


export interface ReleaseProject {
  dir: string;
  home: string;
  remote: string;
  groupId: string;
  /** The portal namespace the sandbox keys its repositories and deployments by: shorter than groupId. */
  namespace: string;
  /** The branch the project releases from (and the bare remote's HEAD). */
  branch: string;
  /** The argv of every `mvn` relctl started (the PATH wrapper's record). */
  calls(): Promise<string[][]>;
  env: Record<string, string>;
  relctl(args: string[], extra?: { env?: Record<string, string | undefined>; timeoutMs?: number }): Promise<CliResult>;
}

function substitute(text: string, values: Record<string, string>): string {
  return text.replace(/@([A-Z_]+)@/g, (m, k: string) => values[k] ?? m);
}

async function realMaven(): Promise<string> {
  return String((await execa('bash', ['-c', 'command -v mvn'])).stdout).trim();
}

/**
 * A thin `mvn` first on PATH: records relctl's exact argv, then execs the real Maven. (The release
 * plugin forks `${maven.home}/bin/mvn` itself, so only relctl's own command lines are recorded.)
 */
async function writeMavenWrapper(dir: string): Promise<string> {
  const bin = path.join(dir, 'bin');
  await mkdir(bin, { recursive: true });
  const file = path.join(bin, 'mvn');
  await writeFile(
    file,
    `#!/usr/bin/env bash\n{ printf '%s' "$PWD"; for a in "$@"; do printf '\\x1f%s' "$a"; done; printf '\\n'; } >> "$RELCTL_E2E_MVN_LOG"\nexec "$RELCTL_E2E_REAL_MVN" "$@"\n`,
  );
  await chmod(file, 0o755);
  return bin;
}

/** Maven settings: the sandbox token (unless the token comes from the environment) and no metadata refresh. */
export function settingsXml(server?: { username: string; password: string }): string {
  // RELCTL_E2E_MAVEN_MIRROR (e.g. a dead http://127.0.0.1:9/) replaces Central's URL under the same
  // repository id (the local repository files what it holds by id), proving a run needs no network.
  const url = process.env.RELCTL_E2E_MAVEN_MIRROR ?? 'https://repo.maven.apache.org/maven2';
  const repo = (tag: string): string =>
    `<${tag}><id>central</id><url>${url}</url><releases><updatePolicy>never</updatePolicy></releases><snapshots><enabled>false</enabled></snapshots></${tag}>`;
  // updatePolicy never: once .cache/m2 holds everything, a run needs no network at all.
  return `<settings>
  <profiles><profile><id>cached</id><repositories>${repo('repository')}</repositories><pluginRepositories>${repo('pluginRepository')}</pluginRepositories></profile></profiles>
  <activeProfiles><activeProfile>cached</activeProfile></activeProfiles>
  ${server === undefined ? '' : `<servers><server><id>central</id><username>${server.username}</username><password>${server.password}</password></server></servers>`}
</settings>
`;
}

export interface ProjectOptions {
  name: string;
  /** Extra XML for the reactor parent (e.g. the central-publishing plugin). */
  build?: string;
  /** Put the token in ~/.m2/settings.xml (default) or leave it to RELCTL_TOKEN_* in the environment. */
  tokenInSettings?: boolean;
  /** Where the ecosystem parent is "published" (the sandbox's seed repository). */
  seedRepo: string;
  /** The branch to release from (default main; most Apereo repositories: master). */
  branch?: string;
}

export async function releaseProject(root: string, sandbox: RunningSandbox, key: Pick<TestKey, 'env'>, o: ProjectOptions): Promise<ReleaseProject> {
  // Below its own namespace (the sandbox account holds the reverse domain, org.e2e<name>), as most
  // projects on the portal are; one namespace per project keeps the projects' deployments apart.
  const namespace = `org.e2e${o.name}`;
  const groupId = `${namespace}.lib`;
  const base = path.join(root, o.name);
  const dir = path.join(base, 'project');
  const home = path.join(base, 'home');
  const remote = path.join(base, 'remote.git');
  const log = path.join(base, 'mvn-argv.log');
  const values: Record<string, string> = {
    GROUP: groupId,
    REMOTE: remote,
    STAGING: sandbox.urls.stagingApiUrl,
    PORTAL: sandbox.urls.portalUrl,
    ...pluginVersions,
    BUILD: '',
  };

  values.BUILD = substitute(o.build ?? '', values);
  // The ecosystem parent: installed in the local repository and published in the sandbox.
  const parentText = substitute(await readFile(path.join(fixtureDir, 'eco-parent', 'pom.xml'), 'utf8'), values);
  const parentPath = path.join(...`${groupId}.eco`.split('.'), 'eco-parent', '7');
  for (const repo of [mavenCache, o.seedRepo]) {
    await mkdir(path.join(repo, parentPath), { recursive: true });
    await writeFile(path.join(repo, parentPath, 'eco-parent-7.pom'), parentText);
  }

  await cp(path.join(fixtureDir, 'project'), dir, { recursive: true });
  for (const entry of await readdir(dir, { recursive: true })) {
    if (!entry.endsWith('pom.xml')) continue;
    const file = path.join(dir, entry);
    await writeFile(file, substitute(await readFile(file, 'utf8'), values));
  }
  await writeFile(path.join(dir, '.gitignore'), 'target/\n');
  await mkdir(path.join(home, '.m2'), { recursive: true });
  await writeFile(path.join(home, '.m2', 'settings.xml'), settingsXml(o.tokenInSettings === false ? undefined : { username: 'sandbox', password: 'sandbox' }));

  const branch = o.branch ?? 'main';
  await execa('git', ['init', '-q', '--bare', '-b', branch, remote]);
  await git(base, home, 'init', '-q', '-b', branch, dir);
  await git(dir, home, 'add', '-A');
  await git(dir, home, 'commit', '-q', '-m', 'initial');
  await git(dir, home, 'remote', 'add', 'origin', remote);
  await git(dir, home, 'push', '-q', '-u', 'origin', branch);

  const env: Record<string, string> = {
    ...gitEnv(home),
    ...key.env,
    PATH: `${await writeMavenWrapper(base)}:${process.env.PATH ?? ''}`,
    RELCTL_E2E_MVN_LOG: log,
    RELCTL_E2E_REAL_MVN: await realMaven(),
    RELCTL_STAGING_API_URL: sandbox.urls.stagingApiUrl,
    RELCTL_PORTAL_URL: sandbox.urls.portalUrl,
    RELCTL_PUBLIC_REPO_URL: sandbox.urls.publicRepoUrl,
    RELCTL_KEYSERVER_URL: sandbox.urls.keyserverUrl,
    RELCTL_SECONDARY_KEYSERVER_URL: sandbox.urls.secondaryKeyserverUrl,
    RELCTL_MAVEN_LOCAL_REPO: mavenCache,
  };
  return {
    dir,
    home,
    remote,
    groupId,
    namespace,
    branch,
    env,
    async calls() {
      const text = await readFile(log, 'utf8').catch(() => '');
      return text
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => l.split('\x1f').slice(1));
    },
    relctl: (args, extra = {}) => runCli([...args, '--cwd', dir], { home, env: { ...env, ...extra.env }, timeoutMs: extra.timeoutMs ?? 420_000 }),
  };
}

/** The exact argv relctl passes after the goals: the settings file and the local repository. */
export function tail(p: ReleaseProject): string[] {
  return ['-s', path.join(p.home, '.m2', 'settings.xml'), `-Dmaven.repo.local=${mavenCache}`];
}

export const releaseProps = (version: string, next: string, tag: string): string[] => [
  '-DautoVersionSubmodules=true',
  `-DreleaseVersion=${version}`,
  `-DdevelopmentVersion=${next}`,
  `-Dtag=${tag}`,
];

export async function remoteTags(p: ReleaseProject): Promise<string[]> {
  return (await git(p.remote, p.home, 'tag', '--list')).split('\n').filter((t) => t !== '');
}

export async function remoteSubjects(p: ReleaseProject): Promise<string[]> {
  return (await git(p.remote, p.home, 'log', '--format=%s', p.branch)).split('\n').filter((t) => t !== '');
}

export interface SandboxState {
  repositories: { key: string; state: string; namespace: string }[];
  deployments: { id: string; state: string; namespace: string; name?: string }[];
}

export async function sandboxState(sandbox: RunningSandbox): Promise<SandboxState> {
  return (await (await fetch(`${new URL(sandbox.urls.stagingApiUrl).origin}/sandbox/state`)).json()) as SandboxState;
}

/** What a test file shares: a temp folder, the sandbox (its seed repository) and a confirmed key. */
export interface World {
  t: TempDir;
  sandbox: RunningSandbox;
  key: TestKey;
  seedRepo: string;
  project(o: Omit<ProjectOptions, 'seedRepo'>): Promise<ReleaseProject>;
}

/** Registers the hooks that start and stop the world; read its fields inside tests. */
export function useWorld(users?: SandboxUser[]): World {
  const world = {} as World;
  beforeAll(async () => {
    world.t = await tempDir('relctl-e2e-');
    world.seedRepo = path.join(world.t.path, 'seed');
    await mkdir(world.seedRepo);
    world.sandbox = await startSandbox({ seedRepo: world.seedRepo, ...(users === undefined ? {} : { users }) });
    world.key = await createTestKey();
    await publishKeyConfirmed(world.sandbox, world.key);
    world.project = (o) => releaseProject(world.t.path, world.sandbox, world.key, { ...o, seedRepo: world.seedRepo });
  });
  afterAll(async () => {
    await world.sandbox?.close();
    await world.key?.cleanup();
    await world.t?.[Symbol.asyncDispose]();
  });
  return world;
}
