import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile, copyFile, chmod } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openMavenSession } from '../../src/build-tools/maven-release.js';
import { runCli } from '../helpers/cli.js';
import { git, gitRepo, tempDir, writeTree, type TempDir } from '../helpers/temp.js';
import { demoRepo, fakeBin, fakePublicRepo, recorded, releaseEnv, subjects, tags } from './release-fixture.js';

const props = (v: string, next: string, tag: string): string[] => [
  '-DautoVersionSubmodules=true',
  `-DreleaseVersion=${v}`,
  `-DdevelopmentVersion=${next}`,
  `-Dtag=${tag}`,
];

describe('release build: the token never lands in a file relctl writes', () => {
  it('the generated Maven settings name the token through ${env.…}; the values travel in the child environment', async () => {
    await using t = await tempDir();
    const session = await openMavenSession(
      { root: t.path, env: { HOME: t.path }, token: { username: 'canary-user-7f3', password: 'canary-pass-9d1', serverId: 'central' } },
      false,
    );
    try {
      const text = await readFile(session.common.settingsFile!, 'utf8');
      expect(text).not.toContain('canary-user-7f3');
      expect(text).not.toContain('canary-pass-9d1');
      expect(text).toContain('<id>central</id><username>${env.RELCTL_MAVEN_TOKEN_USERNAME}</username><password>${env.RELCTL_MAVEN_TOKEN_PASSWORD}</password>');
      expect(session.env).toEqual({
        RELCTL_MAVEN_TOKEN_USERNAME: 'canary-user-7f3',
        RELCTL_MAVEN_TOKEN_PASSWORD: 'canary-pass-9d1',
        // The release plugin's own resolved-settings copy for its fork lands in the private folder.
        // gpg.useagent: maven-gpg-plugin 1.x in batch mode needs it (and reaches the forks as a system property).
        // user.home: the private Maven home whose .m2/settings.xml this is (the release plugin's forks read it).
        // checksums=required: .md5/.sha1 only (the default `checksums` setting), for every fork too.
        MAVEN_OPTS: `-Dchecksums=required -Duser.home=${path.dirname(path.dirname(session.common.settingsFile!))} -Djava.io.tmpdir=${path.dirname(path.dirname(session.common.settingsFile!))} -Dgpg.useagent=true`,
      });
    } finally {
      await session.dispose();
    }
  });
});

describe('release build: the exact build tool command lines', () => {
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
    const log = path.join(t.path, 'tools.log');
    return { dir, home, log, env: releaseEnv(home, log, { RELCTL_PUBLIC_REPO_URL: repo.url, RELCTL_FAKE_PERFORM_DEPLOY: '0' }) };
  }

  it('runs the three goals separately for a first release, then one invocation for the next', async () => {
    await using t = await tempDir();
    const { dir, home, log, env } = await setup(t);
    const first = await runCli(['run', 'build', '--json', '--cwd', dir], { home, env });
    expect(first.exitCode, first.stderr).toBe(0);
    const p1 = props('1.0.0', '1.0.1-SNAPSHOT', 'relctl-demo-1.0.0');
    expect((await recorded(log)).map((r) => [r.tool, ...r.args])).toEqual([
      ['mvn', '-B', 'release:clean', ...p1],
      ['mvn', '-B', 'release:prepare', ...p1],
      ['mvn', '-B', 'release:perform', ...p1],
    ]);
    expect(await tags(dir, home)).toEqual(['relctl-demo-1.0.0']);
    const summary = JSON.parse(first.stdout) as { ok: boolean; context: Record<string, unknown> };
    expect(summary.context).toMatchObject({ version: '1.0.0', tag: 'relctl-demo-1.0.0', nextVersion: '1.0.1-SNAPSHOT', firstRelease: true });

    // 1.0.0 reached the public repository: the next release is an ordinary one.
    published.add('org/example/relctl/relctl-demo/1.0.0/relctl-demo-1.0.0.pom');
    await writeFile(log, '');
    const second = await runCli(['run', 'build', '--cwd', dir], { home, env });
    expect(second.exitCode, second.stderr).toBe(0);
    expect((await recorded(log)).map((r) => [r.tool, ...r.args])).toEqual([
      ['mvn', '-B', 'release:clean', 'release:prepare', 'release:perform', ...props('1.0.1', '1.0.2-SNAPSHOT', 'relctl-demo-1.0.1')],
    ]);
    expect(second.stdout).toContain('version: 1.0.1 (tag relctl-demo-1.0.1, next 1.0.2-SNAPSHOT)');
    expect((await subjects(dir, home)).slice(0, 4)).toEqual([
      '[maven-release-plugin] prepare for next development iteration',
      '[maven-release-plugin] prepare release relctl-demo-1.0.1',
      '[maven-release-plugin] prepare for next development iteration',
      '[maven-release-plugin] prepare release relctl-demo-1.0.0',
    ]);
  });

  it('releases the next version when the tag exists but the version never reached the public repository', async () => {
    await using t = await tempDir();
    const { dir, home, log, env } = await setup(t);
    await git(dir, home, 'tag', 'relctl-demo-1.0.0');
    const r = await runCli(['run', 'build', '--json', '--cwd', dir], { home, env });
    expect(r.exitCode, r.stderr).toBe(0);
    const [call] = await recorded(log);
    // An earlier release tag exists, so this is not a first release: one invocation.
    expect(call!.args).toEqual(['-B', 'release:clean', 'release:prepare', 'release:perform', ...props('1.0.1', '1.0.2-SNAPSHOT', 'relctl-demo-1.0.1')]);
    expect(r.stderr).toContain('relctl-demo-1.0.0 was tagged but never published');
    expect(await tags(dir, home)).toEqual(['relctl-demo-1.0.0', 'relctl-demo-1.0.1']);
    const journal = JSON.parse(await readFile(path.join(dir, '.relctl', 'journal.json'), 'utf8')) as { release: Record<string, unknown> };
    expect(journal.release).toEqual({ version: '1.0.1', tag: 'relctl-demo-1.0.1', nextVersion: '1.0.2-SNAPSHOT', buildTool: 'maven', skippedVersions: ['1.0.0'] });
  });

  it('the portal-plugin route in a dry run: the bundle-only argument, then the Publisher API upload', async () => {
    await using t = await tempDir();
    const { dir, home, log, env } = await setup(t);
    const pom = path.join(dir, 'pom.xml');
    const plugin = '<plugin><groupId>org.sonatype.central</groupId><artifactId>central-publishing-maven-plugin</artifactId><version>0.12.0</version><extensions>true</extensions></plugin>';
    await writeFile(pom, (await readFile(pom, 'utf8')).replace('<plugins>', `<plugins>${plugin}`));
    const r = await runCli(['run', 'build', 'verify', 'upload', '--dry-run', '--cwd', dir], { home, env: { ...env, RELCTL_PORTAL_URL: 'http://127.0.0.1:9/portal' } });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain(`! mvn -B release:clean ${props('1.0.0', '1.0.1-SNAPSHOT', 'relctl-demo-1.0.0').join(' ')} -Darguments=-DskipUpload=true`);
    expect(r.stderr).toContain('! POST http://127.0.0.1:9/portal/api/v1/publisher/upload?publishingType=USER_MANAGED&name=relctl-demo-1.0.0 (bundle target/checkout/target/central-publishing/central-bundle.zip)');
    expect(r.stderr).not.toContain('/manual/upload/');
    expect(await recorded(log)).toEqual([]);
  });

  it('stops before anything changes when the tag exists and the version is published', async () => {
    await using t = await tempDir();
    const { dir, home, log, env } = await setup(t);
    published.add('org/example/relctl/relctl-demo/1.0.0/relctl-demo-1.0.0.pom');
    await git(dir, home, 'tag', 'relctl-demo-1.0.0');
    const r = await runCli(['run', 'build', '--cwd', dir], { home, env });
    published.delete('org/example/relctl/relctl-demo/1.0.0/relctl-demo-1.0.0.pom');
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('The tag relctl-demo-1.0.0 exists and 1.0.0 is already published (public repository).');
    expect(r.stderr).toContain('fix: Set the version to 1.0.1-SNAPSHOT');
    expect(await recorded(log)).toEqual([]);
  });

  it('runs mvn, saying why, when the committed mvnw is not executable and has no .mvn/wrapper (as a maintainer would)', async () => {
    await using t = await tempDir();
    const { dir, home, log, env } = await setup(t);
    await copyFile(path.join(fakeBin, 'mvn'), path.join(dir, 'mvnw'));
    await chmod(path.join(dir, 'mvnw'), 0o644);
    await git(dir, home, 'add', 'mvnw');
    await git(dir, home, 'commit', '-q', '-m', 'a wrapper script without its configuration');
    const r = await runCli(['run', 'build', '--cwd', dir], { home, env });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain('./mvnw is not executable: running mvn from PATH instead, as a maintainer would');
    expect((await recorded(log)).map((c) => c.tool)).toEqual(['mvn', 'mvn', 'mvn']);
  });

  it('uses ./mvnw when the project ships it, and drops -B and the properties with --interactive', async () => {
    await using t = await tempDir();
    const { dir, home, log, env } = await setup(t);
    await copyFile(path.join(fakeBin, 'mvn'), path.join(dir, 'mvnw'));
    await chmod(path.join(dir, 'mvnw'), 0o755);
    await writeTree(dir, { '.mvn/wrapper/maven-wrapper.properties': 'distributionUrl=https://example.invalid/maven.zip\n' });
    await git(dir, home, 'add', 'mvnw', '.mvn');
    await git(dir, home, 'commit', '-q', '-m', 'wrapper');
    const r = await runCli(['run', 'build', '--interactive', '--cwd', dir], { home, env });
    expect(r.exitCode, r.stderr).toBe(0);
    expect((await recorded(log)).map((c) => [c.tool, ...c.args])).toEqual([
      ['mvnw', 'release:clean'],
      ['mvnw', 'release:prepare'],
      ['mvnw', 'release:perform'],
    ]);
  });

  it('passes the user settings file, never the token, on the Maven command line', async () => {
    await using t = await tempDir();
    const { dir, home, log, env } = await setup(t);
    const r = await runCli(['run', 'build', '--cwd', dir], {
      home,
      env: { ...env, RELCTL_TOKEN_USERNAME: 'canary-user-Q7x', RELCTL_TOKEN_PASSWORD: 'canary-pass-Z9!k' },
    });
    expect(r.exitCode, r.stderr).toBe(0);
    const calls = await recorded(log);
    for (const c of calls) {
      const argv = c.args.join(' ');
      expect(argv).not.toContain('canary');
      expect(c.args[c.args.length - 2]).toBe('-s');
      // The generated settings file held the token only while Maven ran.
      expect(existsSync(c.args[c.args.length - 1]!)).toBe(false);
    }
    expect(r.stderr + r.stdout).not.toContain('canary-');
    expect(await readFile(path.join(dir, '.relctl', 'journal.json'), 'utf8')).not.toContain('canary-');
  });
  it('stops at a failing goal with the tool output, the cause and the fix; --resume runs the build again', async () => {
    await using t = await tempDir();
    const { dir, home, log, env } = await setup(t);
    const failed = await runCli(['run', 'build', '--cwd', dir], { home, env: { ...env, RELCTL_FAKE_MVN_FAIL: 'release:prepare' } });
    expect(failed.exitCode).toBe(1);
    expect(failed.stderr).toContain('mvn release:prepare failed (exit 1).');
    expect(failed.stderr).toContain('[ERROR] release:prepare failed (fake)');
    expect(failed.stderr).toContain('fix: Fix the cause shown above, then run `relctl release --resume`.');
    expect((await recorded(log)).map((c) => c.args[1])).toEqual(['release:clean', 'release:prepare']);
    const resumed = await runCli(['run', 'build', '--resume', '--cwd', dir], { home, env });
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    expect(await tags(dir, home)).toEqual(['relctl-demo-1.0.0']);
  });
  it('a dry run works without a token or a signing key, says where a real run would stop (exit 1), and changes nothing', async () => {
    await using t = await tempDir();
    const { dir, home, log, env } = await setup(t);
    const head = await git(dir, home, 'rev-parse', 'HEAD');
    const r = await runCli(['release', '--dry-run', '--json', '--cwd', dir], {
      home,
      env: { ...env, GNUPGHOME: path.join(t.path, 'no-gnupg'), RELCTL_STAGING_API_URL: 'http://127.0.0.1:9/staging' },
    });
    expect(r.exitCode, r.stderr).toBe(1);
    const summary = JSON.parse(r.stdout) as { ok: boolean; dryRun: boolean; steps: { id: string; status: string }[] };
    expect(summary).toMatchObject({ ok: false, dryRun: true, error: { code: 'preflight-failed' } });
    const statuses = Object.fromEntries(summary.steps.map((s) => [s.id, s.status]));
    // The post-release chores are only offered once a deployment is PUBLISHED: a dry run skips them.
    expect(statuses).toEqual({
      // After a would-stop, later steps show their plan but are not reached: no green tick.
      preflight: 'would-stop', keys: 'would-stop', prep: 'not-reached', build: 'not-reached', verify: 'not-reached', upload: 'not-reached', status: 'not-reached',
      notes: 'skipped', distribute: 'skipped', smoke: 'skipped', image: 'skipped', notify: 'skipped',
    });
    expect(r.stderr).toContain('a real run would stop here');
    expect(r.stderr).toContain('- Release build: not reached (a real run stops at preflight)');
    expect(r.stderr).not.toMatch(/✔ Release build/);
    expect(r.stderr).toContain('! mvn -B release:clean');
    expect(r.stderr).toContain('! POST http://127.0.0.1:9/staging/manual/upload/defaultRepository/org.example.relctl?publishing_type=user_managed');
    expect(await recorded(log)).toEqual([]);
    expect(await git(dir, home, 'rev-parse', 'HEAD')).toBe(head);
    expect(await git(dir, home, 'status', '--porcelain', '--ignored')).toBe('');
  });
});

describe('release build: Gradle', () => {
  async function gradleProject(t: TempDir): Promise<{ dir: string; home: string; log: string }> {
    const dir = path.join(t.path, 'lib');
    const home = path.join(t.path, 'home');
    await mkdir(home);
    await gitRepo(dir, home, {
      'settings.gradle': "rootProject.name = 'lib'\n",
      'gradle.properties': 'group=org.example.lib\nversion=2.0.0-SNAPSHOT\n',
      'build.gradle': "plugins { id 'java-library' }\n",
    });
    return { dir, home, log: path.join(t.path, 'tools.log') };
  }

  it('passes the release plugin properties in CI', async () => {
    await using t = await tempDir();
    const { dir, home, log } = await gradleProject(t);
    const repo = await fakePublicRepo(new Set());
    const token = { RELCTL_TOKEN_USERNAME: 'canary-user-Q7x', RELCTL_TOKEN_PASSWORD: 'canary-pass-Z9!k' };
    const r = await runCli(['run', 'build', '--cwd', dir], { home, env: releaseEnv(home, log, { RELCTL_PUBLIC_REPO_URL: repo.url, ...token }) });
    await repo.close();
    expect(r.exitCode, r.stderr).toBe(0);
    // The token reaches Gradle as ORG_GRADLE_PROJECT_* variables, never on the command line.
    const [call] = await recorded(log);
    expect(call!.args.join(' ')).not.toContain('canary');
    expect((call as unknown as { projectProperties: string[] }).projectProperties).toEqual(
      expect.arrayContaining(['ORG_GRADLE_PROJECT_mavenCentralPassword', 'ORG_GRADLE_PROJECT_mavenCentralUsername', 'ORG_GRADLE_PROJECT_ossrhPassword']),
    );
    // vanniktech publishes .md5/.sha1 only, as relctl's Maven runs (-Dchecksums=required); the arguments are unchanged.
    expect((call as unknown as { checksums?: string }).checksums).toBe('md5,sha1');
    expect((await recorded(log)).map((c) => [c.tool, ...c.args])).toEqual([
      ['gradle', 'clean', 'release', '--no-parallel', '-Prelease.useAutomaticVersion=true', '-Prelease.releaseVersion=2.0.0', '-Prelease.newVersion=2.0.1-SNAPSHOT'],
    ]);
    expect(await tags(dir, home)).toEqual(['lib-2.0.0']);
  });

  it('with checksums "all", vanniktech is asked for .sha256/.sha512 as well', async () => {
    await using t = await tempDir();
    const { dir, home, log } = await gradleProject(t);
    const repo = await fakePublicRepo(new Set());
    const r = await runCli(['run', 'build', '--cwd', dir], { home, env: releaseEnv(home, log, { RELCTL_PUBLIC_REPO_URL: repo.url, RELCTL_CHECKSUMS: 'all' }) });
    await repo.close();
    expect(r.exitCode, r.stderr).toBe(0);
    const [call] = await recorded(log);
    expect((call as unknown as { checksums?: string }).checksums).toBe('md5,sha1,sha256,sha512');
  });

  it('answers the version prompts on stdin outside CI, with the wrapper when present', async () => {
    await using t = await tempDir();
    const { dir, home, log } = await gradleProject(t);
    await copyFile(path.join(fakeBin, 'gradle'), path.join(dir, 'gradlew'));
    await chmod(path.join(dir, 'gradlew'), 0o755);
    await writeTree(dir, { 'gradle/wrapper/gradle-wrapper.properties': 'distributionUrl=https://example.invalid/gradle.zip\n' });
    await git(dir, home, 'add', 'gradlew', 'gradle');
    await git(dir, home, 'commit', '-q', '-m', 'wrapper');
    const repo = await fakePublicRepo(new Set());
    const r = await runCli(['run', 'build', '--cwd', dir], { home, env: { ...releaseEnv(home, log, { RELCTL_PUBLIC_REPO_URL: repo.url }), CI: undefined as unknown as string } });
    await repo.close();
    expect(r.exitCode, r.stderr).toBe(0);
    const [call] = await recorded(log);
    expect(call).toMatchObject({ tool: 'gradlew', args: ['clean', 'release', '--no-parallel'], stdin: '2.0.0\n2.0.1-SNAPSHOT\n' });
    expect(await tags(dir, home)).toEqual(['lib-2.0.0']);
  });
});
