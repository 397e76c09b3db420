import { symlink } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { git, gitRepo, tempDir, writeTree } from '../helpers/temp.js';
import { codes, completeHome, fixtureCopy, preflight } from './preflight-gradle-fixture.js';

/**
 * Gradle layouts set in settings (TestNG's per-project script names, projectDir remaps) and the
 * `skipped` list: every check that did not run says why (DESIGN §3), in text, json and github.
 */

// TestNG's shape (testng-team/testng settings.gradle.kts): each child's script is `<name>-build.gradle.kts`,
// publishing and signing come from the project's own scripts.
const testngLike = {
  'settings.gradle.kts': `rootProject.name = "testng-root"

include(":testng-core")
include(":testng-asserts")

for (project in rootProject.children) {
    project.apply {
        buildFileName = "\${project.name}-build.gradle.kts"
    }
}
`,
  'gradle.properties': 'group=org.testng\nversion=7.9.0-SNAPSHOT\n',
  'build.gradle.kts': '// the root configures nothing itself\n',
  'testng-core/testng-core-build.gradle.kts': `plugins {
    \`java-library\`
    \`maven-publish\`
    signing
}

publishing {
    repositories {
        maven {
            url = uri("https://s01.oss.sonatype.org/service/local/staging/deploy/maven2/")
        }
    }
}
`,
  'testng-asserts/testng-asserts-build.gradle.kts': 'plugins {\n    `java-library`\n}\n',
};

async function emptyHome(): Promise<{ path: string } & AsyncDisposable> {
  return tempDir('relctl-empty-home-');
}

describe('Gradle layout from settings', () => {
  it("reads TestNG's <name>-build.gradle.kts scripts: their repositories and the signing they need are checked", async () => {
    await using dir = await fixtureCopy(undefined, { git: false });
    await writeTree(dir.path, testngLike);
    await using home = await emptyHome();
    const r = await preflight(dir.path, { home: home.path });
    expect(r.findings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ code: 'legacy-staging-host', file: 'testng-core/testng-core-build.gradle.kts', line: 10, module: ':testng-core' }),
        // No user gradle.properties: no token, no signing key. Before, nothing was read and preflight passed.
        expect.objectContaining({ code: 'gradle-properties-missing' }),
      ]),
    );
    expect(r.findings.find((f) => f.code === 'gradle-properties-missing')!.message).toContain('signing.secretKeyRingFile');
    expect(r.skipped.filter((s) => s.check !== 'dirty-worktree' && s.check !== 'detached-head' && s.check !== 'orphan-tag')).toEqual([]);
  });

  it('honours project(":x").projectDir and .buildFileName remaps', async () => {
    await using dir = await fixtureCopy(undefined, { git: false });
    await writeTree(dir.path, {
      'settings.gradle.kts': `rootProject.name = "remapped"
include(":core")
project(":core").projectDir = file("libs/core-impl")
project(":core").buildFileName = "core.gradle.kts"
`,
      'gradle.properties': 'group=org.example\nversion=1.0.0-SNAPSHOT\n',
      'libs/core-impl/core.gradle.kts': 'plugins { `maven-publish` }\npublishing { repositories { maven { url = uri("https://oss.sonatype.org/service/local/staging/deploy/maven2/") } } }\n',
    });
    const r = await preflight(dir.path);
    expect(r.findings).toEqual([expect.objectContaining({ code: 'legacy-staging-host', file: 'libs/core-impl/core.gradle.kts', line: 2, module: ':core' })]);
  });

  it('a build file the settings name but that is missing is a skipped fact, in --json, text and --verbose, never a silent pass', async () => {
    await using dir = await fixtureCopy(undefined, { git: true });
    await writeTree(dir.path, {
      'settings.gradle.kts': 'rootProject.name = "gone"\ninclude(":api")\nproject(":api").buildFileName = "api.gradle.kts"\n',
      'gradle.properties': 'group=org.example\nversion=1.0.0-SNAPSHOT\n',
      'api/src/main/java/A.java': 'class A {}\n',
    });
    await git(dir.path, dir.path, 'add', '-A');
    await git(dir.path, dir.path, 'commit', '-q', '-m', 'layout');
    await using home = await emptyHome();
    const r = await preflight(dir.path, { home: home.path });
    expect(r.findings).toEqual([]);
    const why = 'no build file for :api: settings.gradle.kts names its build file api.gradle.kts, which does not exist';
    expect(r.skipped).toEqual([
      { check: 'legacy-staging-host', why, module: ':api' },
      { check: 'distribution-url', why, module: ':api' },
      expect.objectContaining({ check: 'gradle-properties-missing', why: expect.stringContaining('the build files of :api were not found') }),
      { check: 'developer-empty', why, module: ':api' },
      { check: 'license-empty', why, module: ':api' },
    ]);
    const text = await runCli(['preflight', '--offline', '--verbose', '--cwd', dir.path], { home: home.path, env: { GRADLE_USER_HOME: undefined } });
    expect(text.stdout).toContain(`skipped: legacy-staging-host on :api (${why})`);
    expect(text.stdout).toMatch(/skipped: gradle-properties-missing \(no plugin that uploads or signs is visible/);
    expect(text.stderr).toContain('no build file for project :api: settings.gradle.kts names its build file api.gradle.kts, which does not exist (looked for api/api.gradle.kts)');
    // Each skipped check once: the github format adds one notice per entry.
    const github = await runCli(['preflight', '--offline', '--format', 'github', '--cwd', dir.path], { home: home.path, env: { GRADLE_USER_HOME: undefined } });
    expect(github.stdout.split('\n').filter((l) => l.startsWith('::notice::skipped: '))).toHaveLength(5);
  });
});

describe('versions and tags relctl cannot compute are said, not passed over', () => {
  it('names axion-release, a condition and an environment variable as what computes the version', async () => {
    const cases: [string, RegExp][] = [
      ["plugins {\n    id 'maven-publish'\n    id 'pl.allegro.tech.build.axion-release' version '1.18.2'\n}\nversion = scmVersion.version\n", /^version computed by the axion-release plugin \(pl\.allegro\.tech\.build\.axion-release, build\.gradle:3\)$/],
      ["plugins { id 'maven-publish' }\ndef release = hasProperty('release')\nversion = release ? '2.1.0' : '2.1.0-SNAPSHOT'\n", /^version computed by a condition \(if \.\.\. else \.\.\.\) \(build\.gradle:3\)$/],
      ["plugins { id 'maven-publish' }\nversion = System.getenv('RELEASE_VERSION')\n", /^version computed by the environment variable RELEASE_VERSION \(build\.gradle:2\)$/],
    ];
    for (const [script, why] of cases) {
      await using dir = await fixtureCopy(undefined, { git: true });
      await writeTree(dir.path, { 'settings.gradle': "rootProject.name = 'computed'\n", 'build.gradle': script });
      await git(dir.path, dir.path, 'add', '-A');
      await git(dir.path, dir.path, 'commit', '-q', '-m', 'build');
      const r = await preflight(dir.path);
      expect(codes(r)).not.toContain('not-snapshot');
      expect(r.skipped.map((s) => s.check)).toEqual(['not-snapshot', 'orphan-tag']);
      expect(r.skipped[0]!.why).toMatch(why);
    }
  });

  it('without rootProject.name the tag is named after the folder Gradle sees (a symlink’s target), and --verbose says so', async () => {
    await using dir = await fixtureCopy(undefined, { git: false });
    await using links = await tempDir('relctl-link-');
    const real = path.join(dir.path, 'real-name');
    await gitRepo(real, dir.path, { 'build.gradle': "plugins { id 'maven-publish' }\nversion = '5.1.0-SNAPSHOT'\ngroup = 'org.example'\n" });
    const link = path.join(links.path, 'p');
    await symlink(real, link);
    const r = await runCli(['preflight', '--offline', '--verbose', '--cwd', link], { home: completeHome, env: { GRADLE_USER_HOME: undefined } });
    expect(r.stderr).toContain('release tag real-name-5.1.0');
    expect(r.stderr).toContain("tag name from real-name: the root folder's name (no settings file: Gradle names the root project after its folder)");
  });

  it('a Maven tagNameFormat gives the release tag for any version shape, and an unknown format is a skipped orphan-tag', async () => {
    await using dir = await tempDir('relctl-tagformat-');
    const pom = (version: string, format: string): string => `<project><modelVersion>4.0.0</modelVersion>
  <groupId>org.example</groupId><artifactId>demo</artifactId><version>${version}</version>
  <build><plugins><plugin><artifactId>maven-release-plugin</artifactId>
    <configuration><tagNameFormat>${format}</tagNameFormat></configuration></plugin></plugins></build>
</project>
`;
    await gitRepo(dir.path, dir.path, { 'pom.xml': pom('2.0.0-RC1-jre-SNAPSHOT', 'v@{project.version}') });
    await git(dir.path, dir.path, 'tag', 'v2.0.0-RC1-jre');
    const r = await runCli(['preflight', '--offline', '--verbose', '--json', '--cwd', dir.path], { home: dir.path });
    expect(r.stderr).toContain('release tag v2.0.0-RC1-jre (exists)');
    expect(r.stderr).toContain('tag name from demo: the artifactId of pom.xml');
    const doc = JSON.parse(r.stdout) as { findings: { code: string; message: string }[]; skipped: unknown[] };
    expect(doc.findings.find((f) => f.code === 'orphan-tag')?.message).toContain('v2.0.0-RC1-jre');
    expect(doc.skipped).toEqual([]);

    await writeTree(dir.path, { 'pom.xml': pom('1.2-SNAPSHOT', '@{project.groupId}-@{project.version}') });
    await git(dir.path, dir.path, 'commit', '-qam', 'format');
    const unknown = await runCli(['preflight', '--offline', '--verbose', '--json', '--cwd', dir.path], { home: dir.path });
    expect(unknown.stderr).toContain('release tag unknown (the tag format @{project.groupId}-@{project.version} has placeholders relctl cannot fill)');
    expect(JSON.parse(unknown.stdout).skipped).toEqual([
      { check: 'orphan-tag', why: 'the tag format @{project.groupId}-@{project.version} has placeholders relctl cannot fill, so the release tag is unknown' },
    ]);
  });

  it('a parent found nowhere lists the checks it keeps from judging once per check, not once per module', async () => {
    await using dir = await tempDir('relctl-parent-');
    const module = (name: string): string =>
      `<project><modelVersion>4.0.0</modelVersion><parent><groupId>org.example</groupId><artifactId>demo-parent</artifactId><version>1.0.0-SNAPSHOT</version></parent><artifactId>${name}</artifactId><packaging>jar</packaging></project>\n`;
    await gitRepo(dir.path, dir.path, {
      'pom.xml': `<project><modelVersion>4.0.0</modelVersion>
  <parent><groupId>com.elsewhere</groupId><artifactId>corp-parent</artifactId><version>7</version></parent>
  <groupId>org.example</groupId><artifactId>demo-parent</artifactId><version>1.0.0-SNAPSHOT</version><packaging>pom</packaging>
  <modules><module>a</module><module>b</module></modules>
</project>
`,
      'a/pom.xml': module('a'),
      'b/pom.xml': module('b'),
    });
    const r = await runCli(['preflight', '--offline', '--json', '--cwd', dir.path], { home: dir.path });
    const doc = JSON.parse(r.stdout) as { skipped: { check: string; why: string; module?: string }[] };
    expect(doc.skipped.map((s) => s.check)).toEqual(['missing-developers', 'missing-distribution', 'missing-pom-metadata', 'unresolved-property', 'plugin-version-missing', 'published-repositories']);
    expect(doc.skipped[0]).toEqual({ check: 'missing-developers', why: 'the parent com.elsewhere:corp-parent:7 was not found, so the values it passes on to 3 modules are unknown' });
    // --skip leaves the group's skipped checks out too.
    const only = await runCli(['preflight', '--offline', '--json', '--only', 'repository', '--cwd', dir.path], { home: dir.path });
    expect(JSON.parse(only.stdout).skipped).toEqual([]);
  });
});
