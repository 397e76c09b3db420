import { tokenize, type Token } from './lexer.js';
import { constantStrings, startsWith, statements, type Statement } from './statements.js';

export interface IncludedProject {
  /** Gradle project path, `:a:b`. */
  path: string;
  /** Project folder relative to the root, forward slashes (`a/b`; `../x` for includeFlat). */
  dir: string;
  line: number;
  /** A parent Gradle creates implicitly: `include 'a:b'` also makes `:a`. */
  implicit: boolean;
  /** `project(':a').buildFileName = 'a.gradle.kts'`: the script's name (or path) in the project folder. */
  buildFileName?: string;
}

export interface GradleSettings {
  rootProjectName?: string;
  projects: IncludedProject[];
  /** `includeBuild("build-logic")`, also inside `pluginManagement {}`: folders of included builds. */
  includedBuilds: string[];
  /**
   * `rootProject.children.each { p -> p.buildFileName = "${p.name}.gradle" }` (Spring Framework,
   * JUnit 5, Hibernate, Mockito), `for (project in rootProject.children) { project.apply {
   * buildFileName = "${project.name}-build.gradle.kts" } }` (TestNG): each child's script name,
   * `{name}` standing for the project's name.
   */
  childBuildFileTemplate?: string;
  /** `rootProject.buildFileName = "build.ohos.gradle.kts"`. */
  rootBuildFileName?: string;
  /** The line of a `buildFileName` assignment whose value cannot be known without running Gradle. */
  buildFileNameUnread?: number;
  /** `p.projectDir = new File(settingsDir, "subprojects/${p.name}")` in that loop: `subprojects/{name}`. */
  childDirTemplate?: string;
}

// `${project.name}`, `$it.name`, `${p.name}`, and `$name` inside `project.apply { }`: the loop
// variable's project name in a string template.
const loopName = /\$\{\s*(?:\w+\.)?name\s*\}|\$(?:\w+\.)?name\b/g;

/** Settings written inside `rootProject.children.each { ... }` / `.forEach { ... }` / `for (p in rootProject.children) { ... }`. */
function childLoopSetting(s: Statement, result: GradleSettings, locals: Map<string, string>, forLoops: ReadonlySet<number>): void {
  if (!s.path.some((b) => b.name === 'each' || b.name === 'forEach' || (b.name === 'for' && forLoops.has(b.line)))) return;
  const texts = s.tokens.map((t) => t.text);
  const eq = texts.indexOf('=');
  if (eq < 1) return;
  const rhs = s.tokens.slice(eq + 1);
  const literal = rhs.find((t) => t.kind === 'string' && t.dynamic === true && new RegExp(loopName.source).test(t.text))?.text;
  // `String projectDirName = "subprojects/$project.name"` then `projectDir = new File(settingsDir, projectDirName)`.
  const value = literal ?? rhs.map((t) => (t.kind === 'ident' ? locals.get(t.text) : undefined)).find((v) => v !== undefined);
  if (value === undefined) {
    // `it.buildFileName = dest`, `buildFileName = scriptFor(it)`: set, but to what only Gradle knows.
    if (texts[eq - 1] === 'buildFileName') result.buildFileNameUnread ??= s.line;
    return;
  }
  const target = texts[eq - 1];
  if (target === 'buildFileName') {
    const template = value.replace(loopName, '{name}').replace(/\\/g, '/');
    if (template.includes('$')) result.buildFileNameUnread ??= s.line;
    else result.childBuildFileTemplate = template;
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
  const tokens = tokenize(text);
  const forLoops = childForLoops(tokens);
  const buildFileOverrides: [string, string][] = [];
  for (const s of statements(tokens)) {
    childLoopSetting(s, result, loopLocals, forLoops);
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
    if (texts[0] === 'rootProject' && texts[1] === '.' && texts[2] === 'buildFileName') {
      if (strings[0] !== undefined) result.rootBuildFileName = strings[0].text.replace(/\\/g, '/');
      else result.buildFileNameUnread ??= s.line;
      continue;
    }
    // `project(':a').projectDir = file('libs/a')`, `findProject(":a")?.buildFileName = "a.gradle.kts"`.
    const named = startsWith(s, 'project') || startsWith(s, 'findProject');
    const setting = texts.includes('projectDir') ? dirOverrides : texts.includes('buildFileName') ? buildFileOverrides : undefined;
    if (named && setting !== undefined) {
      const path = strings.length >= 2 ? normaliseProjectPath(strings[0]!.text) : undefined;
      if (path !== undefined) setting.push([path, strings[strings.length - 1]!.text.replace(/\\/g, '/').replace(/\/+$/, '')]);
      else if (setting === buildFileOverrides) result.buildFileNameUnread ??= s.line;
    } else if (setting === buildFileOverrides && !s.path.some((b) => b.name === 'each' || b.name === 'forEach' || b.name === 'for')) {
      result.buildFileNameUnread ??= s.line;
    }
  }
  if (result.childDirTemplate !== undefined && !result.childDirTemplate.includes('$')) {
    for (const p of result.projects) if (!p.path.slice(1).includes(':')) p.dir = result.childDirTemplate.replace('{name}', p.path.slice(1));
  }
  for (const [path, dir] of dirOverrides) {
    const p = byPath.get(path);
    if (p !== undefined) p.dir = dir;
  }
  for (const [path, name] of buildFileOverrides) {
    const p = byPath.get(path);
    if (p !== undefined) p.buildFileName = name;
  }
  return result;
}

/** Lines of the `{` of every `for (x in rootProject.children) {` (Kotlin): a loop over the child projects. */
function childForLoops(tokens: readonly Token[]): Set<number> {
  const lines = new Set<number>();
  for (let i = 0; i + 8 < tokens.length; i++) {
    if (tokens[i]!.text !== 'for' || tokens[i + 1]!.text !== '(' || tokens[i + 3]!.text !== 'in') continue;
    const over = tokens.slice(i + 4, i + 9).map((t) => t.text).join('');
    if (over === 'rootProject.children){') {
      const brace = tokens.slice(i + 4, i + 12).find((t) => t.text === '{');
      if (brace !== undefined) lines.add(brace.line);
    }
  }
  return lines;
}
