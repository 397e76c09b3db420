import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseSettings } from './settings.js';

describe('parseSettings', () => {
  it('reads Groovy include forms, nested paths (with implicit parents) and rootProject.name', () => {
    const s = parseSettings(`rootProject.name = 'demo'
// include 'commented'
include 'core', ':web'
include ':libs:util'
includeFlat 'sibling'
`);
    expect(s.rootProjectName).toBe('demo');
    expect(s.projects).toEqual([
      { path: ':core', dir: 'core', line: 3, implicit: false },
      { path: ':web', dir: 'web', line: 3, implicit: false },
      { path: ':libs', dir: 'libs', line: 4, implicit: true },
      { path: ':libs:util', dir: 'libs/util', line: 4, implicit: false },
      { path: ':sibling', dir: '../sibling', line: 5, implicit: false },
    ]);
  });

  it('reads Kotlin DSL include(...) over several lines and projectDir overrides', () => {
    const s = parseSettings(`rootProject.name = "demo-kts"
include(
    "app",
    ":server"
)
include(":a")
project(":a").projectDir = file("modules/a")
project(':server').projectDir = new File(settingsDir, 'srv/')
`);
    expect(s.rootProjectName).toBe('demo-kts');
    expect(s.projects.map((p) => [p.path, p.dir, p.line])).toEqual([
      [':app', 'app', 3],
      [':server', 'srv', 4],
      [':a', 'modules/a', 6],
    ]);
  });

  it('skips includes it cannot know without running Gradle', () => {
    expect(parseSettings(`["a", "b"].each { include "\${it}" }\ninclude(name)`).projects).toEqual([]);
  });

  it('never throws on mutated settings files', () => {
    const frags = ['include', "'a'", '"b"', ',', '(', ')', ':', 'rootProject.name =', 'project(', '.projectDir = file(', '\n', '{', '}', '/*', "'''"];
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.constantFrom(...frags), fc.string()), { maxLength: 40 }), (parts) => {
        for (const p of parseSettings(parts.join(' ')).projects) expect(p.path.startsWith(':')).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

describe('parseSettings: scripts and folders set in a children loop', () => {
  it('reads buildFileName = "${project.name}.gradle" and a projectDir template, also through a local variable', () => {
    const s = parseSettings(`include 'testng', 'android'
rootProject.children.each { project ->
    String projectDirName = "subprojects/$project.name"
    project.projectDir = new File(settingsDir, projectDirName)
    project.buildFileName = "\${project.name}.gradle"
}`);
    expect(s.childBuildFileTemplate).toBe('{name}.gradle');
    expect(s.projects.map((p) => [p.path, p.dir])).toEqual([
      [':testng', 'subprojects/testng'],
      [':android', 'subprojects/android'],
    ]);
  });

  it("reads TestNG's for-loop with apply { buildFileName = \"${project.name}-build.gradle.kts\" }", () => {
    const s = parseSettings(`include(":testng-core")
for (project in rootProject.children) {
    project.apply {
        buildFileName = "\${project.name}-build.gradle.kts"
    }
}`);
    expect(s.childBuildFileTemplate).toBe('{name}-build.gradle.kts');
    expect(parseSettings(`rootProject.children.each { it.buildFileName = "\${it.name}-build.gradle" }`).childBuildFileTemplate).toBe('{name}-build.gradle');
    const relocated = parseSettings(`include("prj1")
for (project in rootProject.children) {
    project.apply {
        buildFileName = "../master/projects/$name.gradle.kts"
        projectDir = file("../$name")
    }
}`);
    expect(relocated.childBuildFileTemplate).toBe('../master/projects/{name}.gradle.kts');
    expect(relocated.projects.map((p) => p.dir)).toEqual(['../prj1']);
  });

  it('reads the root and per-project names, and notes a name it cannot know', () => {
    const s = parseSettings(`rootProject.buildFileName = "build.ohos.gradle.kts"
include(":shared", ":brouter-util")
project(":shared").buildFileName = "build.ohos.gradle.kts"
project(":brouter-util").projectDir = file("third_party/brouter/brouter-util")
findProject(":brouter-util")?.buildFileName = "util.gradle.kts"`);
    expect(s.rootBuildFileName).toBe('build.ohos.gradle.kts');
    expect(s.projects.map((p) => [p.path, p.dir, p.buildFileName])).toEqual([
      [':shared', 'shared', 'build.ohos.gradle.kts'],
      [':brouter-util', 'third_party/brouter/brouter-util', 'util.gradle.kts'],
    ]);
    expect(s.buildFileNameUnread).toBeUndefined();
    const dynamic = parseSettings(`include(":app")
val dest = computeDest()
rootProject.children.forEach {
    if (it.name == "app") { it.buildFileName = dest }
}`);
    expect(dynamic.buildFileNameUnread).toBe(4);
  });
});
