import { tokenize } from './lexer.js';
import { constantStrings, startsWith, statements, type Statement } from './statements.js';

export interface IncludedProject {
  /** Gradle project path, `:a:b`. */
  path: string;
  /** Project folder relative to the root, forward slashes (`a/b`; `../x` for includeFlat). */
  dir: string;
  line: number;
  /** A parent Gradle creates implicitly: `include 'a:b'` also makes `:a`. */
  implicit: boolean;
}

export interface GradleSettings {
  rootProjectName?: string;
  projects: IncludedProject[];
  /** `includeBuild("build-logic")`, also inside `pluginManagement {}`: folders of included builds. */
  includedBuilds: string[];
  /**
   * `rootProject.children.each { p -> p.buildFileName = "${p.name}.gradle" }` (Spring Framework,
   * JUnit 5, Hibernate, Mockito): each child's build script is named after the project.
   */
  childBuildFileNamed?: boolean;
  /** `p.projectDir = new File(settingsDir, "subprojects/${p.name}")` in that loop: `subprojects/{name}`. */
  childDirTemplate?: string;
}

// `${project.name}`, `$it.name`, `${p.name}`: the loop variable's project name in a GString.
const loopName = /\$\{?\s*\w+\.name\s*\}?/;

/** Settings written inside `rootProject.children.each { ... }` / `.forEach { ... }`. */
function childLoopSetting(s: Statement, result: GradleSettings, locals: Map<string, string>): void {
  if (!s.path.some((b) => b.name === 'each' || b.name === 'forEach')) return;
  const texts = s.tokens.map((t) => t.text);
  const eq = texts.indexOf('=');
  if (eq < 1) return;
  const rhs = s.tokens.slice(eq + 1);
  const literal = rhs.find((t) => t.kind === 'string' && t.dynamic === true && loopName.test(t.text))?.text;
  // `String projectDirName = "subprojects/$project.name"` then `projectDir = new File(settingsDir, projectDirName)`.
  const value = literal ?? rhs.map((t) => (t.kind === 'ident' ? locals.get(t.text) : undefined)).find((v) => v !== undefined);
  if (value === undefined) return;
  const target = texts[eq - 1];
  if (target === 'buildFileName') {
    if (/^\.gradle(\.kts)?$/.test(value.replace(loopName, ''))) result.childBuildFileNamed = true;
  } else if (target === 'projectDir') {
    result.childDirTemplate = value.replace(loopName, '{name}').replace(/\\/g, '/').replace(/\/+$/, '');
  } else if (eq === 2 && /^(def|String|val|var)$/.test(texts[0]!) && s.tokens[1]?.kind === 'ident') {
    locals.set(texts[1]!, value);
  }
}

export function normaliseProjectPath(raw: string): string | undefined {
  const parts = raw.split(':').filter((p) => p !== '');
  if (parts.length === 0 || parts.some((p) => /[\s/\\]/.test(p))) return undefined;
  return ':' + parts.join(':');
}

/**
 * Reads settings.gradle / settings.gradle.kts: `include 'a', ':b:c'`, `include(":a")`,
 * `include("a", "b")`, `includeFlat 'x'`, `rootProject.name = ...` and
 * `project(':a').projectDir = file('libs/a')` (also `new File(settingsDir, 'x')`).
 * Dynamic includes (loops, interpolated names) cannot be known without running Gradle and are skipped.
 */
export function parseSettings(text: string): GradleSettings {
  const result: GradleSettings = { projects: [], includedBuilds: [] };
  const byPath = new Map<string, IncludedProject>();
  const add = (path: string, dir: string, line: number, implicit: boolean): void => {
    const existing = byPath.get(path);
    if (existing !== undefined) {
      if (existing.implicit && !implicit) existing.implicit = false;
      return;
    }
    const p: IncludedProject = { path, dir, line, implicit };
    byPath.set(path, p);
    result.projects.push(p);
  };
  const dirOverrides: [string, string][] = [];

  const loopLocals = new Map<string, string>();
  for (const s of statements(tokenize(text))) {
    childLoopSetting(s, result, loopLocals);
    const strings = constantStrings(s.tokens);
    if (startsWith(s, 'includeBuild')) {
      const dir = strings[0]?.text.replace(/\\/g, '/').replace(/\/+$/, '');
      if (dir !== undefined && dir !== '' && !result.includedBuilds.includes(dir)) result.includedBuilds.push(dir);
      continue;
    }
    if (startsWith(s, 'include') || startsWith(s, 'includeFlat')) {
      const flat = startsWith(s, 'includeFlat');
      for (const str of strings) {
        const path = normaliseProjectPath(str.text);
        if (path === undefined) continue;
        const parts = path.slice(1).split(':');
        if (flat) {
          add(path, `../${parts.join('/')}`, str.line, false);
          continue;
        }
        for (let k = 1; k < parts.length; k++) add(':' + parts.slice(0, k).join(':'), parts.slice(0, k).join('/'), str.line, true);
        add(path, parts.join('/'), str.line, false);
      }
      continue;
    }
    const texts = s.tokens.map((t) => (t.kind === 'string' ? '"' : t.text));
    if (texts[0] === 'rootProject' && texts[1] === '.' && texts[2] === 'name' && strings[0] !== undefined) {
      result.rootProjectName = strings[0].text;
      continue;
    }
    if (startsWith(s, 'project') && texts.includes('projectDir') && strings.length >= 2) {
      const path = normaliseProjectPath(strings[0]!.text);
      if (path !== undefined) dirOverrides.push([path, strings[strings.length - 1]!.text.replace(/\\/g, '/').replace(/\/+$/, '')]);
    }
  }
  if (result.childDirTemplate !== undefined && !result.childDirTemplate.includes('$')) {
    for (const p of result.projects) if (!p.path.slice(1).includes(':')) p.dir = result.childDirTemplate.replace('{name}', p.path.slice(1));
  }
  for (const [path, dir] of dirOverrides) {
    const p = byPath.get(path);
    if (p !== undefined) p.dir = dir;
  }
  return result;
}
