import { tokenize } from './lexer.js';
import { constantStrings, startsWith, statements } from './statements.js';

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

  for (const s of statements(tokenize(text))) {
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
  for (const [path, dir] of dirOverrides) {
    const p = byPath.get(path);
    if (p !== undefined) p.dir = dir;
  }
  return result;
}
