/**
 * relctl init (DESIGN §1, §12) through the built CLI, on real git repositories: the files, their
 * statuses (written / unchanged / refused), --force, --dry-run, --json, the answers taken from the
 * project or demanded by flag in CI, and GitLab's include file. The written workflows are linted
 * in ci-workflows.test.ts.
 */
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { binPath, repoRoot, runCli } from '../helpers/cli.js';
import { actionlint, lintLines } from '../helpers/actionlint.js';
import { git, gitRepo, tempDir, type TempDir } from '../helpers/temp.js';

let temp: TempDir;
let home: string;
beforeEach(async () => {
  temp = await tempDir('relctl-init-');
  home = path.join(temp.path, 'home');
  await mkdir(home);
});
afterEach(async () => temp[Symbol.asyncDispose]());

/** examples/demo as a git repository whose origin is on `host`. */
async function demo(host = 'https://github.com/jane/demo.git', sub = ''): Promise<{ root: string; project: string }> {
  const root = path.join(temp.path, 'repo');
  const project = path.join(root, sub);
  await cp(path.join(repoRoot, 'examples', 'demo'), project, { recursive: true });
  await gitRepo(root, home, {});
  await git(root, home, 'remote', 'add', 'origin', host);
  return { root, project };
}

const init = (project: string, ...args: string[]) => runCli(['init', ...args], { cwd: project, home });
const read = (root: string, rel: string) => readFile(path.join(root, rel), 'utf8');

describe('relctl init on GitHub', () => {
  it('writes the config and both workflows, prints the secrets, and is idempotent', async () => {
    const { root, project } = await demo();
    const first = await init(project);
    expect(first.exitCode).toBe(0);
    expect(first.stdout).toMatch(/^written {2}relctl\.config\.json$/m);
    expect(first.stdout).toMatch(/^written {2}\.github\/workflows\/relctl-preflight\.yml$/m);
    expect(first.stdout).toMatch(/^written {2}\.github\/workflows\/relctl-release\.yml$/m);
    for (const name of ['CENTRAL_TOKEN_USERNAME', 'CENTRAL_TOKEN_PASSWORD', 'GPG_PRIVATE_KEY', 'GPG_PASSPHRASE']) expect(first.stdout).toMatch(new RegExp(`^ {2}${name} `, 'm'));
    expect(first.stdout).toContain('Settings → Secrets and variables → Actions');
    expect(first.stderr).toContain('CI host: github (origin is https://github.com/jane/demo; --ci to choose otherwise)');
    expect(first.stderr).toContain('route: staging-api (read from the build at pom.xml:54; --route to choose otherwise)');
    expect(first.stderr).toContain("groupId: org.example.relctl (the project's; the portal commands find the namespace holding it; --namespace to choose otherwise)");

    const config = JSON.parse(await read(root, 'relctl.config.json')) as Record<string, unknown>;
    expect(config).toEqual({ $schema: 'https://raw.githubusercontent.com/relctl/relctl/v0.1.0/schema/relctl.config.schema.json', groupId: 'org.example.relctl' });
    const schema = JSON.parse(await readFile(path.join(repoRoot, 'schema', 'relctl.config.schema.json'), 'utf8')) as object;
    const ajv = new Ajv2020({ allErrors: true });
    (addFormats as unknown as (a: Ajv2020) => void)(ajv);
    expect(ajv.validate(schema, config), JSON.stringify(ajv.errors)).toBe(true);

    for (const file of ['.github/workflows/relctl-preflight.yml', '.github/workflows/relctl-release.yml']) {
      expect(lintLines(await actionlint(await read(root, file), file))).toEqual([]);
    }
    const release = parse(await read(root, '.github/workflows/relctl-release.yml')) as { jobs: { release: { steps: { uses?: string; run?: string; env?: Record<string, string> }[] } } };
    // The release plugin pushes to <scm><developerConnection>: an SSH address there goes over the
    // checkout's HTTPS credentials once the step has run (git expands the rewrite without a network).
    const push = release.jobs.release.steps.find((s) => s.run?.includes('insteadOf') === true);
    const gitHome = path.join(root, '..', 'push-home');
    await mkdir(gitHome, { recursive: true });
    const gitEnv = { HOME: gitHome, XDG_CONFIG_HOME: gitHome, GIT_CONFIG_NOSYSTEM: '1', PATH: process.env.PATH };
    await execa('bash', ['-e', '-c', push!.run!], { env: gitEnv, extendEnv: false });
    for (const address of ['git@github.com:o/r.git', 'ssh://git@github.com/o/r.git']) {
      const { stdout } = await execa('git', ['ls-remote', '--get-url', address], { env: gitEnv, extendEnv: false });
      expect(stdout).toBe('https://github.com/o/r.git');
    }
    const step = release.jobs.release.steps.find((s) => s.uses?.startsWith('relctl/relctl@'));
    expect(step?.env).toMatchObject({
      RELCTL_TOKEN_USERNAME: '${{ secrets.CENTRAL_TOKEN_USERNAME }}',
      RELCTL_TOKEN_PASSWORD: '${{ secrets.CENTRAL_TOKEN_PASSWORD }}',
      RELCTL_GPG_PRIVATE_KEY: '${{ secrets.GPG_PRIVATE_KEY }}',
      RELCTL_GPG_PASSPHRASE: '${{ secrets.GPG_PASSPHRASE }}',
    });

    const second = await init(project, '--json');
    expect(second.exitCode).toBe(0);
    const doc = JSON.parse(second.stdout) as { ok: boolean; files: { path: string; status: string }[] };
    expect(doc.ok).toBe(true);
    expect(doc.files.map((f) => [f.path, f.status])).toEqual([
      ['relctl.config.json', 'unchanged'],
      ['.github/workflows/relctl-preflight.yml', 'unchanged'],
      ['.github/workflows/relctl-release.yml', 'unchanged'],
    ]);
  });

  it('refuses a differing file without --force, writing nothing; --force replaces it and keeps other config keys', async () => {
    const { root, project } = await demo();
    await mkdir(path.join(root, '.github', 'workflows'), { recursive: true });
    await writeFile(path.join(root, '.github', 'workflows', 'relctl-release.yml'), 'name: mine\n');
    await writeFile(path.join(project, 'relctl.config.json'), '{ "timeout": 90 }\n');

    const refused = await init(project);
    expect(refused.exitCode).toBe(2);
    expect(refused.stdout).toMatch(/^not written {2}\.github\/workflows\/relctl-preflight\.yml$/m);
    expect(refused.stdout).toMatch(/^refused {6}\.github\/workflows\/relctl-release\.yml$/m);
    expect(refused.stderr).toContain('already exist and differ from what relctl init writes; nothing was written');
    expect(refused.stderr).toContain('--force');
    await expect(read(root, '.github/workflows/relctl-preflight.yml')).rejects.toThrow();
    expect(await read(root, '.github/workflows/relctl-release.yml')).toBe('name: mine\n');

    const json = await init(project, '--json');
    expect(json.exitCode).toBe(2);
    const doc = JSON.parse(json.stdout) as { ok: boolean; error: { code: string }; files: { path: string; status: string }[] };
    expect(doc.ok).toBe(false);
    expect(doc.error.code).toBe('init-file-exists');
    expect(doc.files.find((f) => f.path === '.github/workflows/relctl-release.yml')?.status).toBe('refused');

    const forced = await init(project, '--force');
    expect(forced.exitCode).toBe(0);
    expect(forced.stdout).toMatch(/^replaced {2}\.github\/workflows\/relctl-release\.yml$/m);
    expect(await read(root, '.github/workflows/relctl-release.yml')).toMatch(/^# Written by relctl init/);
    expect(JSON.parse(await read(root, 'relctl.config.json'))).toMatchObject({ timeout: 90, groupId: 'org.example.relctl' });
  });

  it('--dry-run prints the files and writes nothing', async () => {
    const { root, project } = await demo();
    const r = await init(project, '--dry-run', '--namespace', 'io.github.jane');
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('--- .github/workflows/relctl-release.yml (would write)');
    expect(r.stdout).toContain('"namespace": "io.github.jane"');
    expect(r.stdout).not.toContain('"groupId"');
    expect(r.stdout).toMatch(/^would write {2}relctl\.config\.json$/m);
    expect(r.stderr).toContain('! write .github/workflows/relctl-preflight.yml');
    await expect(read(root, 'relctl.config.json')).rejects.toThrow();
    await expect(read(root, '.github')).rejects.toThrow();
  });

  it('a project in a sub-folder: workflows at the repository root, the project as working-directory', async () => {
    const { root, project } = await demo('https://github.com/jane/mono.git', 'libs/demo');
    const r = await init(project);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^written {2}libs\/demo\/relctl\.config\.json$/m);
    const preflight = await read(root, '.github/workflows/relctl-preflight.yml');
    expect(preflight).toContain('working-directory: "libs/demo"');
    expect(await read(root, '.github/workflows/relctl-release.yml')).toContain('            libs/demo/.relctl/\n            libs/demo/release.properties');
    expect(lintLines(await actionlint(preflight))).toEqual([]);
  });
});

describe('relctl init: values from the repository and the flags', () => {
  it('refuses a project folder named with ${{ }} (GitHub would evaluate it in working-directory), writing nothing', async () => {
    const { root, project } = await demo('https://github.com/jane/mono.git', 'libs/${{ github.token }}');
    const r = await init(project, '--json');
    expect(r.exitCode).toBe(2);
    expect(JSON.parse(r.stdout)).toMatchObject({ ok: false, error: { code: 'init-unsafe-value', message: expect.stringContaining('${{'), fix: expect.stringContaining('Rename the folder') } });
    await expect(read(root, '.github/workflows/relctl-preflight.yml')).rejects.toThrow('ENOENT');
  });

  it('a default branch named "!x" is written as that branch, escaped, and the workflow passes actionlint', async () => {
    const { root, project } = await demo();
    await git(root, home, 'branch', '-m', '!x');
    const r = await init(project);
    expect(r.exitCode).toBe(0);
    const preflight = await read(root, '.github/workflows/relctl-preflight.yml');
    expect(preflight).toContain('branches: ["\\\\!x"]');
    expect(lintLines(await actionlint(preflight))).toEqual([]);
  });

  it('--repository OWNER/NAME --ref REF pin a fork or a commit; bad values are exit 2 naming the flag', async () => {
    const { root, project } = await demo();
    const sha = 'a'.repeat(40);
    const r = await init(project, '--repository', 'my-org/relctl', '--ref', sha);
    expect(r.exitCode).toBe(0);
    expect(await read(root, '.github/workflows/relctl-release.yml')).toContain(`uses: my-org/relctl@${sha}`);
    for (const [flag, value] of [['--repository', 'my-org/relctl\nx'], ['--repository', 'relctl'], ['--repository', '${{ github.repository }}/x'], ['--ref', '-x'], ['--ref', 'v1 ; x'], ['--ref', '${{ x }}'], ['--ref', 'a..b']]) {
      const bad = await init(project, '--force', flag!, value!);
      expect(bad.exitCode, `${flag} ${value}`).toBe(2);
      expect(bad.stderr).toContain(flag!);
    }
  });
});

describe('relctl init answers in CI', () => {
  it('a CI host the project does not show is a usage error naming --ci', async () => {
    const { project } = await demo('https://git.example.org/jane/demo.git');
    const r = await init(project);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('relctl init needs the CI host');
    expect(r.stderr).toContain('Pass --ci github|gitlab');
  });

  it('a build that deploys with nexus-staging-maven-plugin: the route is read from the build and the release workflow says so', async () => {
    const root = path.join(temp.path, 'nexus');
    const pom = `<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>
  <groupId>io.github.jane</groupId><artifactId>lib</artifactId><version>1.0.0-SNAPSHOT</version>
  <build><plugins><plugin><groupId>org.sonatype.plugins</groupId><artifactId>nexus-staging-maven-plugin</artifactId><version>1.7.0</version><extensions>true</extensions>
    <configuration><serverId>central</serverId><nexusUrl>https://ossrh-staging-api.central.sonatype.com/</nexusUrl></configuration></plugin></plugins></build>
</project>
`;
    await gitRepo(root, home, { 'pom.xml': pom });
    const r = await init(root, '--ci', 'github');
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/route: nexus-staging \(read from the build at pom\.xml:\d+/);
    expect(await read(root, '.github/workflows/relctl-release.yml')).toContain('nexus-staging-maven-plugin stage and close through the Nexus 2 staging API');
  });

  it('a route the build does not show is a usage error naming --route; a bad namespace is exit 2 too', async () => {
    const root = path.join(temp.path, 'gradle');
    await gitRepo(root, home, {
      'settings.gradle': "rootProject.name = 'lib'\n",
      'build.gradle': "plugins { id 'java-library' }\n",
      'gradle.properties': 'group=io.github.jane\nversion=1.0.0-SNAPSHOT\n',
    });
    const r = await init(root, '--ci', 'github');
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('Pass --route staging-api|portal-plugin|nexus-staging');
    const bad = await init(root, '--ci', 'github', '--route', 'portal-plugin', '--namespace', 'not..valid');
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('--namespace: "not..valid" is not a Maven group id');
    const ok = await init(root, '--ci', 'github', '--route', 'portal-plugin');
    expect(ok.exitCode).toBe(0);
    expect(await read(root, '.github/workflows/relctl-release.yml')).toContain('cache: gradle');
  });
});

describe('relctl init on a terminal', () => {
  it('asks for what the project does not show (a real pty through script(1)); Enter takes the first choice', async () => {
    const { root, project } = await demo('https://git.example.org/jane/demo.git');
    const env: Record<string, string | undefined> = { ...process.env, HOME: home, TERM: 'xterm', CI: undefined, GITHUB_ACTIONS: undefined, NO_COLOR: '1' };
    for (const k of Object.keys(env)) if (k.startsWith('RELCTL_')) delete env[k];
    const child = execa('script', ['-qec', `stty cols 100 rows 40; node ${binPath} init`, '/dev/null'], { cwd: project, env, extendEnv: false, reject: false, timeout: 30_000 });
    let seen = '';
    let answered = false;
    child.stdout!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      if (!answered && seen.includes('Which CI runs relctl?')) {
        answered = true;
        child.stdin!.write('\r');
      }
    });
    const r = await child;
    expect(r.exitCode).toBe(0);
    expect(answered).toBe(true);
    expect(await read(root, '.github/workflows/relctl-release.yml')).toMatch(/^# Written by relctl init/);
  });
});

describe('relctl init on GitLab', () => {
  it('writes .gitlab-ci.yml with the two jobs', async () => {
    const { root, project } = await demo('git@gitlab.com:jane/demo.git');
    const r = await init(project);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^written {2}\.gitlab-ci\.yml$/m);
    expect(r.stdout).toContain('Settings → CI/CD → Variables');
    const jobs = parse(await read(root, '.gitlab-ci.yml')) as Record<string, { stage: string; script: string[] }>;
    expect(Object.keys(jobs)).toEqual(['relctl-preflight', 'relctl-release']);
    expect((await init(project, '--json')).stdout).toContain('"status": "unchanged"');
  });

  it('judges the host, not the path, and never prints the credentials of an https origin', async () => {
    const { project } = await demo('https://jane:glpat-SECRET123@gitlab.example.com/jane/github-tools.git');
    const r = await init(project, '--dry-run');
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain('CI host: gitlab (origin is https://gitlab.example.com/jane/github-tools;');
    expect(r.stdout).toContain('.gitlab-ci.yml');
    expect(r.stdout + r.stderr).not.toContain('glpat-SECRET123');
  });

  it("never replaces the project's own .gitlab-ci.yml: writes relctl.gitlab-ci.yml and prints the include", async () => {
    const { root, project } = await demo('git@gitlab.com:jane/demo.git');
    const own = 'build:\n  script:\n    - mvn -B verify\n';
    await writeFile(path.join(root, '.gitlab-ci.yml'), own);
    const r = await init(project, '--force');
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^written {2}relctl\.gitlab-ci\.yml$/m);
    expect(r.stdout).toContain('include:\n  - local: "/relctl.gitlab-ci.yml"');
    expect(await read(root, '.gitlab-ci.yml')).toBe(own);
    // The include lines, added to the project's file, make a valid pipeline file still.
    expect(parse(`${own}${'include:\n  - local: "/relctl.gitlab-ci.yml"'}\n`)).toMatchObject({ include: [{ local: '/relctl.gitlab-ci.yml' }] });
  });
});
