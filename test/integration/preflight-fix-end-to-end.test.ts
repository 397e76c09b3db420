/**
 * `relctl preflight --fix` end to end on projects written here (the built CLI, temp git repos,
 * an isolated HOME): the Gradle URL fixes, the next snapshot of a `${revision}` reactor, the report
 * formats, a published read repository on a retired host, and idempotence with every fixable
 * Maven code at once. Maven itself (`mvn -o -q validate`) reads what was written.
 */
import { execFileSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { runMaven } from '../helpers/maven.js';
import { git, gitEnv, gitRepo, tempDir, writeTree, type TempDir } from '../helpers/temp.js';

const snapshots = 'https://central.sonatype.com/repository/maven-snapshots/';
const staging = 'https://ossrh-staging-api.central.sonatype.com';
const temps: TempDir[] = [];
afterEach(async () => {
  for (const t of temps.splice(0)) await t[Symbol.asyncDispose]();
});

interface Project {
  dir: string;
  home: string;
  env: Record<string, string>;
}

interface FixDoc {
  ok: boolean;
  findings: { code: string; file?: string; line?: number }[];
  fixed: { file: string; line: number; code: string; before: string; after: string }[];
  declined: { code: string; file?: string; line?: number; why: string }[];
  written: string[];
  skipped?: { check: string; why: string }[];
  diff?: string;
}

/** A committed repository of `files`, tagged with `tags`, and a HOME whose settings are `settings`. */
async function project(files: Record<string, string>, opts: { settings?: string; tags?: string[] } = {}): Promise<Project> {
  const t = await tempDir('relctl-fix-e2e-');
  temps.push(t);
  const dir = path.join(t.path, 'project');
  const home = path.join(t.path, 'home');
  await writeTree(home, opts.settings === undefined ? { '.keep': '' } : { '.m2/settings.xml': opts.settings });
  await gitRepo(dir, home, files);
  for (const tag of opts.tags ?? []) await git(dir, home, 'tag', tag);
  // Development went on after the release (a tag at HEAD alone is a release under way, which --fix does not bump).
  if ((opts.tags ?? []).length > 0) await git(dir, home, 'commit', '-q', '--allow-empty', '-m', 'development after the release');
  const { HOME: _h, ...env } = gitEnv(home);
  return { dir, home, env: { ...env, CENTRAL_TOKEN_USERNAME: 'e2e-user', CENTRAL_TOKEN_PASSWORD: 'e2e-pass' } };
}

const cli = (p: Project, ...args: string[]) => runCli(['preflight', '--offline', '--cwd', p.dir, ...args], { home: p.home, env: p.env });
const json = async (p: Project, ...args: string[]): Promise<FixDoc> => JSON.parse((await cli(p, '--json', ...args)).stdout) as FixDoc;
const read = (p: Project, file: string) => readFile(path.join(p.dir, file), 'utf8');

async function validate(p: Project): Promise<{ exitCode: number; output: string }> {
  const global = path.join(p.home, 'global-settings.xml');
  await writeFile(global, '<settings><mirrors><mirror><id>debian</id><mirrorOf>*</mirrorOf><url>file:///usr/share/maven-repo</url></mirror></mirrors></settings>\n');
  return runMaven(['-o', '-q', '-gs', global, 'validate'], { cwd: p.dir, settings: path.join(p.home, '.m2', 'settings.xml'), localRepo: path.join(p.home, '.m2', 'repository'), timeoutMs: 60_000 });
}

const settings = (servers: string) => `<?xml version="1.0" encoding="UTF-8"?>\n<settings>\n  <servers>\n${servers}  </servers>\n</settings>\n`;
const central = '    <server>\n      <id>central</id>\n      <username>${env.CENTRAL_TOKEN_USERNAME}</username>\n      <password>${env.CENTRAL_TOKEN_PASSWORD}</password>\n    </server>\n';
const metadata = `  <name>Demo</name>
  <description>Demo component</description>
  <url>https://example.org/demo</url>
  <licenses><license><name>Apache-2.0</name><url>https://www.apache.org/licenses/LICENSE-2.0.txt</url></license></licenses>
  <developers><developer><name>Ada</name><organization>Ex</organization><organizationUrl>https://example.org</organizationUrl></developer></developers>
  <scm><url>https://example.org/git/demo</url></scm>`;
const pom = (head: string, body: string) => `<?xml version="1.0" encoding="UTF-8"?>\n<project xmlns="http://maven.apache.org/POM/4.0.0">\n  <modelVersion>4.0.0</modelVersion>\n${head}\n${body}\n</project>\n`;
const stagingDm = `  <distributionManagement>\n    <repository>\n      <id>central</id>\n      <url>${staging}/service/local/staging/deploy/maven2/</url>\n    </repository>\n  </distributionManagement>`;

describe('relctl preflight --fix, end to end', () => {
  it('Gradle: a publishing URL literal and a gradle-nexus nexusUrl on s01 are rewritten; the dry-run diff applies', async () => {
    const script = [
      'plugins {',
      '    `java-library`',
      '    `maven-publish`',
      '    id("io.github.gradle-nexus.publish-plugin") version "2.0.0"',
      '}',
      'group = "io.github.example"',
      'version = "1.0.0-SNAPSHOT"',
      'publishing {',
      '    repositories {',
      '        maven {',
      '            name = "ossrh"',
      '            url = uri("https://s01.oss.sonatype.org/service/local/staging/deploy/maven2/")',
      '        }',
      '    }',
      '}',
      'nexusPublishing {',
      '    repositories {',
      '        sonatype {',
      '            nexusUrl.set(uri("https://s01.oss.sonatype.org/service/local/"))',
      '        }',
      '    }',
      '}',
      '',
    ].join('\n');
    const files = { 'settings.gradle.kts': 'rootProject.name = "demo"\n', 'build.gradle.kts': script };
    const dry = await project(files);
    const plan = await json(dry, '--fix', '--dry-run');
    // The dry run's findings are what would remain after the fix: both URLs fixed by the plan.
    expect(plan.findings.filter((f) => f.code === 'legacy-staging-host')).toEqual([]);
    // The nexusUrl's block writes no snapshotRepositoryUrl (its default is a retired host): one is added on the next line.
    expect(plan.fixed.map((e) => [e.file, e.line, e.code])).toEqual([
      ['build.gradle.kts', 12, 'legacy-staging-host'],
      ['build.gradle.kts', 19, 'legacy-staging-host'],
      ['build.gradle.kts', 20, 'legacy-staging-host'],
    ]);
    await writeFile(path.join(dry.dir, '..', 'fix.diff'), plan.diff!);
    execFileSync('git', ['apply', '--check', '../fix.diff'], { cwd: dry.dir });
    expect(await read(dry, 'build.gradle.kts')).toBe(script);

    const p = await project(files);
    const r = await cli(p, '--fix');
    expect(r.stdout).toContain('wrote build.gradle.kts');
    expect(await read(p, 'build.gradle.kts')).toBe(
      script
        .replace('https://s01.oss.sonatype.org/service/local/staging/deploy/maven2/', `${staging}/service/local/staging/deploy/maven2/`)
        .replace(
          'nexusUrl.set(uri("https://s01.oss.sonatype.org/service/local/"))',
          `nexusUrl.set(uri("${staging}/service/local/"))\n            snapshotRepositoryUrl.set(uri("https://central.sonatype.com/repository/maven-snapshots/"))`,
        ),
    );
    await git(p.dir, p.home, 'commit', '-qam', 'fix');
    expect((await json(p)).findings.map((f) => f.code)).not.toContain('legacy-staging-host');
  });

  it('not-snapshot after a release in a ${revision} reactor: revision moves to the next snapshot, and Maven reads it', async () => {
    const head = '  <groupId>io.github.example</groupId>\n  <artifactId>demo-parent</artifactId>\n  <version>${revision}</version>\n  <packaging>pom</packaging>';
    const files = {
      'pom.xml': pom(head, `${metadata}\n  <modules>\n    <module>core</module>\n  </modules>\n  <properties>\n    <revision>1.3.0</revision>\n  </properties>\n${stagingDm}`),
      'core/pom.xml': pom('  <parent>\n    <groupId>io.github.example</groupId>\n    <artifactId>demo-parent</artifactId>\n    <version>${revision}</version>\n  </parent>', '  <artifactId>demo-core</artifactId>'),
    };
    const p = await project(files, { settings: settings(central), tags: ['v1.3.0'] });
    const r = await json(p, '--fix');
    expect(r.fixed).toEqual([{ file: 'pom.xml', line: 18, code: 'not-snapshot', before: '1.3.0', after: '1.3.1-SNAPSHOT' }]);
    expect(await read(p, 'pom.xml')).toBe(files['pom.xml'].replace('<revision>1.3.0</revision>', '<revision>1.3.1-SNAPSHOT</revision>'));
    // The ${revision} expressions stay: only the property moved.
    expect(await read(p, 'core/pom.xml')).toBe(files['core/pom.xml']);
    expect(r.findings.map((f) => f.code)).not.toContain('not-snapshot');
    const mvn = await validate(p);
    expect(mvn.output.replace(/\u001b\[[0-9;]*m/g, '').trim()).toBe('');
    expect(mvn.exitCode).toBe(0);
  }, 90_000);

  const legacyFiles = () => ({
    'pom.xml': pom('  <groupId>io.github.example</groupId>\n  <artifactId>demo</artifactId>\n  <version>1.0.0-SNAPSHOT</version>', `${metadata}\n  <distributionManagement>\n    <repository>\n      <id>central</id>\n      <url>https://oss.sonatype.org/service/local/staging/deploy/maven2/</url>\n    </repository>\n  </distributionManagement>`),
  });

  it.each(['sarif', 'junit', 'gitlab'])('--fix with --format %s is a usage error naming the conflict; nothing is written', async (format) => {
    const p = await project(legacyFiles(), { settings: settings(central) });
    const r = await cli(p, '--fix', '--format', format);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`--fix and --format ${format} cannot be used together`);
    expect(r.stderr).toContain(`relctl preflight --format ${format}`);
    expect(r.stdout).toBe('');
    expect(await read(p, 'pom.xml')).toBe(legacyFiles()['pom.xml']);
  });

  it('online, a service that could not be asked makes --fix exit 3 as plain preflight does, never a pass over unanswered lookups', async () => {
    const down = 'http://127.0.0.1:9';
    const p = await project(legacyFiles(), { settings: settings(central) });
    const env = { ...p.env, RELCTL_STAGING_API_URL: down, RELCTL_PORTAL_URL: down, RELCTL_PUBLIC_REPO_URL: down, RELCTL_KEYSERVER_URL: down, RELCTL_SECONDARY_KEYSERVER_URL: down };
    const run = (...args: string[]) => runCli(['preflight', '--cwd', p.dir, '--skip', 'signing', ...args], { home: p.home, env });
    const plain = await run('--json');
    expect(plain.exitCode).toBe(3);
    const dry = await run('--fix', '--dry-run', '--json');
    expect(dry.exitCode, dry.stderr).toBe(3);
    const doc = JSON.parse(dry.stdout) as FixDoc & { error: { code: string } };
    expect(doc.ok).toBe(false);
    expect(doc.error.code).toBe('service-unreachable');
    expect(doc.fixed.map((e) => e.code)).toContain('legacy-staging-host');
    const text = await run('--fix');
    expect(text.exitCode).toBe(3);
    expect(text.stderr).toContain('could not be asked');
    expect(text.stdout).toContain('wrote pom.xml');
  });

  it('the audit after --fix (and the dry run) keeps the skipped list: a check that did not run still says why', async () => {
    const script = [
      'plugins {',
      '    `java-library`',
      '    `maven-publish`',
      '    id("pl.allegro.tech.build.axion-release") version "1.18.0"',
      '}',
      'group = "io.github.example"',
      'version = scmVersion.version',
      'publishing {',
      '    repositories {',
      '        maven { url = uri("https://s01.oss.sonatype.org/service/local/staging/deploy/maven2/") }',
      '    }',
      '}',
      '',
    ].join('\n');
    const files = { 'settings.gradle.kts': 'rootProject.name = "demo"\n', 'build.gradle.kts': script };
    const dry = await json(await project(files), '--fix', '--dry-run');
    expect(dry.skipped?.map((s) => s.check)).toEqual(['not-snapshot', 'orphan-tag']);
    const p = await project(files);
    const doc = await json(p, '--fix');
    expect(doc.written).toEqual(['build.gradle.kts']);
    expect(doc.skipped?.map((s) => s.check)).toEqual(['not-snapshot', 'orphan-tag']);
    const text = await cli(await project(files), '--fix');
    expect(text.stdout).toMatch(/^skipped: not-snapshot \(version computed by the axion-release plugin/m);
  });

  it('--fix --format github prints the files written, then annotations of what is left; --fix --json has fixed, declined, written', async () => {
    const noDevelopers = legacyFiles()['pom.xml'].replace(/ {2}<developers>.*<\/developers>\n/, '');
    const gh = await cli(await project({ 'pom.xml': noDevelopers }, { settings: settings(central) }), '--fix', '--format', 'github');
    expect(gh.stdout).toMatch(/^wrote pom\.xml\n::error file=pom\.xml,line=\d+::.*developers/);
    expect(gh.exitCode).toBe(1);

    // A project in a subfolder of its repository: annotations name files from the repository root.
    const nested = await project({ 'lib/pom.xml': noDevelopers }, { settings: settings(central) });
    const sub = await runCli(['preflight', '--offline', '--cwd', path.join(nested.dir, 'lib'), '--fix', '--format', 'github'], { home: nested.home, env: nested.env });
    expect(sub.stdout).toMatch(/^wrote pom\.xml\n::error file=lib\/pom\.xml,line=\d+::.*developers/);

    const doc = await json(await project({ 'pom.xml': noDevelopers }, { settings: settings(central) }), '--fix');
    expect(Object.keys(doc)).toEqual(expect.arrayContaining(['ok', 'findings', 'route', 'fixed', 'declined', 'written']));
    expect(doc.written).toEqual(['pom.xml']);
    expect(doc.fixed).toEqual([{ file: 'pom.xml', line: 15, code: 'legacy-staging-host', before: 'https://oss.sonatype.org/service/local/staging/deploy/maven2/', after: `${staging}/service/local/staging/deploy/maven2/` }]);
    expect(doc.declined).toEqual([expect.objectContaining({ code: 'missing-developers', file: 'pom.xml', why: expect.stringContaining("a person's fact") })]);
    expect(doc.findings.map((f) => f.code)).toEqual(['missing-developers']);
    expect(doc.ok).toBe(false);
  });

  it('a published snapshot <repository> on a retired host moves to Central snapshots; distributionManagement is untouched; Maven reads it', async () => {
    const repositories = `  <repositories>
    <repository>
      <id>sonatype-nexus-snapshots</id>
      <url>https://oss.sonatype.org/content/repositories/snapshots</url>
      <releases><enabled>false</enabled></releases>
      <snapshots><enabled>true</enabled></snapshots>
    </repository>
    <repository><id>old-releases</id><url>https://s01.oss.sonatype.org/content/groups/public</url></repository>
  </repositories>`;
    const text = pom('  <groupId>io.github.example</groupId>\n  <artifactId>demo</artifactId>\n  <version>1.0.0-SNAPSHOT</version>', `${metadata}\n${repositories}\n${stagingDm}`);
    const p = await project({ 'pom.xml': text }, { settings: settings(central) });
    const r = await json(p, '--fix');
    expect(r.fixed).toEqual([{ file: 'pom.xml', line: 16, code: 'legacy-staging-host', before: 'https://oss.sonatype.org/content/repositories/snapshots', after: snapshots }]);
    expect(r.declined).toEqual([expect.objectContaining({ code: 'legacy-staging-host', file: 'pom.xml', line: 20, why: expect.stringContaining('serves releases') })]);
    expect(await read(p, 'pom.xml')).toBe(text.replace('https://oss.sonatype.org/content/repositories/snapshots', snapshots));
    // What is left: the release repository (declined) and, on the staging route, the general rule
    // on a published <repository> (Central's snapshots are still a host every consumer asks).
    expect(r.findings.map((f) => `${f.code}:${f.line}`).sort()).toEqual(['legacy-staging-host:20', 'published-repositories:14']);
    const mvn = await validate(p);
    expect(mvn.exitCode).toBe(0);
  }, 90_000);

  it('with every fixable Maven code at once, a second --fix writes nothing and says so', async () => {
    const parent = '  <parent>\n    <groupId>io.github.example</groupId>\n    <artifactId>demo-parent</artifactId>\n    <version>2.0.0</version>\n  </parent>';
    const files = {
      'pom.xml': pom(
        '  <groupId>io.github.example</groupId>\n  <artifactId>demo-parent</artifactId>\n  <version>2.0.0</version>\n  <packaging>pom</packaging>',
        `${metadata}\n  <modules>\n    <module>lib</module>\n    <module>web</module>\n  </modules>\n  <distributionManagement>\n    <repository>\n      <id>ossrh</id>\n      <url>https://oss.sonatype.org/service/local/staging/deploy/maven2/</url>\n    </repository>\n    <snapshotRepository>\n      <id>ossrh</id>\n      <url>https://s01.oss.sonatype.org/content/repositories/snapshots</url>\n    </snapshotRepository>\n  </distributionManagement>`,
      ),
      'lib/pom.xml': pom(parent, '  <artifactId>demo-lib</artifactId>\n  <name>Demo lib</name>\n  <description>The library</description>\n  <repositories>\n    <repository>\n      <id>snapshots</id>\n      <url>https://s01.oss.sonatype.org/content/repositories/snapshots/</url>\n    </repository>\n  </repositories>'),
      'web/pom.xml': pom(parent, '  <artifactId>demo-web</artifactId>\n  <name>Demo web</name>\n  <description>The web module</description>'),
      'web/src/main/webapp/index.html': '<p>demo</p>\n',
    };
    // No <server> yet: the credentials fix adds it under the id the POM has after the fix.
    const p = await project(files, { settings: settings(''), tags: ['v2.0.0'] });
    const before = await json(p);
    const fixable = ['legacy-staging-host', 'legacy-staging-id', 'not-snapshot', 'packaging-mismatch', 'server-id-mismatch'];
    expect([...new Set(before.findings.map((f) => f.code))].sort()).toEqual(expect.arrayContaining(fixable));
    const planned = await json(p, '--fix', '--dry-run');
    const first = await json(p, '--fix');
    // The dry run said what would remain, and it is what the fix left.
    expect(planned.findings).toEqual(first.findings);
    expect([...new Set(first.fixed.map((e) => e.code))].sort()).toEqual(fixable.sort());
    // Left: the general rule on lib's published <repository>, now at Central's snapshots (a person's call to remove).
    expect(first.findings.map((f) => `${f.code} ${f.file}`)).toEqual(['published-repositories lib/pom.xml', 'snapshots-need-enabling pom.xml']);
    await git(p.dir, p.home, 'commit', '-qam', 'fix');
    const written = await Promise.all(['pom.xml', 'lib/pom.xml', 'web/pom.xml'].map((f) => read(p, f)));
    const settingsAfter = await readFile(path.join(p.home, '.m2', 'settings.xml'), 'utf8');
    const second = await cli(p, '--fix');
    expect(second.stdout).toContain('preflight --fix: nothing to fix mechanically; no file was written.');
    expect(second.exitCode).toBe(0);
    expect(await Promise.all(['pom.xml', 'lib/pom.xml', 'web/pom.xml'].map((f) => read(p, f)))).toEqual(written);
    expect(await readFile(path.join(p.home, '.m2', 'settings.xml'), 'utf8')).toBe(settingsAfter);
    expect((await json(p, '--fix')).fixed).toEqual([]);
    expect((await validate(p)).exitCode).toBe(0);
  }, 120_000);

  it('a UTF-16 POM is declined as fix-unreadable, named, and left byte for byte', async () => {
    // Preflight reads it (and finds the retired host); relctl edits only UTF-8 and ISO-8859-1 text.
    const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(legacyFiles()['pom.xml'].replace('encoding="UTF-8"', 'encoding="UTF-16"'), 'utf16le')]);
    const t = await tempDir('relctl-fix-e2e-');
    temps.push(t);
    const p: Project = { dir: path.join(t.path, 'project'), home: path.join(t.path, 'home'), env: {} };
    await writeTree(p.home, { '.m2/settings.xml': settings(central) });
    await gitRepo(p.dir, p.home, { 'pom.xml': bytes });
    const { HOME: _h, ...env } = gitEnv(p.home);
    p.env = { ...env, CENTRAL_TOKEN_USERNAME: 'u', CENTRAL_TOKEN_PASSWORD: 'p' };
    const r = await json(p, '--fix');
    expect(r.written).toEqual([]);
    expect(r.declined).toEqual(expect.arrayContaining([expect.objectContaining({ code: 'fix-unreadable', file: 'pom.xml', why: expect.stringContaining('is UTF-16') })]));
    expect(r.findings.map((f) => f.code)).toContain('legacy-staging-host');
    expect(await readFile(path.join(p.dir, 'pom.xml'))).toEqual(bytes);
  });
});
