/**
 * Convention plugins and version-catalog aliases: a project often gets the war or publishing
 * plugin from a precompiled script plugin in `buildSrc` or an included build (`build-logic`),
 * or names a plugin through `alias(libs.plugins.x)`. This resolves both into plain plugin ids.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { normalisePluginId, type BuildScript } from '../../core/gradle/build-script.js';
import { catalogLibraryVersion, catalogVersions, parseCatalogPlugins, type CatalogPlugin } from '../../core/gradle/catalog.js';
import { loadScript, readText, rel, type LoadedScript, type LocatedPlugin } from './scripts.js';

// Convention folders are small; these bounds keep a stray huge tree from costing time.
const maxFiles = 200;
const maxDepth = 10;

// Build output and tool folders never hold convention plugins.
const skipDirs = new Set(['build', '.gradle', 'node_modules', '.git', 'out']);

// Kotlin classes of the build logic (`*.kt`): binary convention plugins configure publishing in code.
const codeFile = /\.kt$/;

/** `*.gradle(.kts)` and `*.kt` files under any `src/main/{groovy,kotlin}` of a build (its subprojects included). */
async function scriptFiles(dir: string, code: boolean, depth = 0, out: string[] = [], inSources = false): Promise<string[]> {
  if (depth > maxDepth || out.length >= maxFiles) return out;
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (skipDirs.has(e.name)) continue;
      const sources = inSources || ((e.name === 'groovy' || e.name === 'kotlin') && dir.endsWith(`${path.sep}src${path.sep}main`));
      await scriptFiles(p, code, depth + 1, out, sources);
    } else if (inSources && (/\.gradle(\.kts)?$/.test(e.name) || (code && codeFile.test(e.name))) && out.length < maxFiles) out.push(p);
  }
  return out;
}

/**
 * Precompiled script plugins of `buildSrc` and the included builds, by plugin id: the file name
 * without `.gradle`/`.gradle.kts`, prefixed with its Kotlin `package` when it declares one.
 */
export async function loadConventionPlugins(
  root: string,
  buildDirs: readonly string[],
  urlProps: ReadonlyMap<string, string>,
  notes: string[],
): Promise<Map<string, LoadedScript>> {
  const byId = new Map<string, LoadedScript>();
  for (const buildDir of buildDirs) {
    const base = path.resolve(root, buildDir);
    if (rel(root, base).startsWith('..')) continue; // an included build outside the project
    // The build's own script names the plugins it compiles against (with their versions).
    let buildLogic = path.basename(base) === 'buildSrc';
    for (const name of ['build.gradle.kts', 'build.gradle']) {
      const r = await readText(path.join(base, name));
      if ('text' in r) {
        const own = await loadScript(root, path.join(base, name), r.text, base, urlProps, notes);
        byId.set(`${buildDir}:build`, own);
        buildLogic ||= own.plugins.some((p) => pluginDevelopment.has(p.id));
        break;
      }
    }
    {
      // Kotlin classes only of build logic: an included build of library code is not read as such.
      for (const file of await scriptFiles(base, buildLogic)) {
        const r = await readText(file);
        if (!('text' in r)) continue;
        if (codeFile.test(file)) {
          // Not a plugin id of its own: what the code applies and configures counts for the build.
          byId.set(`${codePrefix}${rel(root, file)}`, await loadScript(root, file, r.text, root, urlProps, notes));
          continue;
        }
        const name = path.basename(file).replace(/\.gradle(\.kts)?$/, '');
        const pkg = /^\s*package\s+([\w.]+)/m.exec(r.text)?.[1];
        const loaded = await loadScript(root, file, r.text, root, urlProps, notes);
        byId.set(pkg === undefined ? name : `${pkg}.${name}`, loaded);
        if (!byId.has(name)) byId.set(name, loaded);
      }
    }
  }
  return byId;
}

// Plugins a build-logic build applies to compile Gradle plugins.
const pluginDevelopment = new Set(['kotlin-dsl', 'java-gradle-plugin', 'groovy-gradle-plugin']);

/** Keys of the Kotlin classes in the map loadConventionPlugins returns. */
export const codePrefix = 'code:';

export interface Catalog {
  plugins: Map<string, CatalogPlugin>;
  /** `[versions]` by accessor path (`my.lib` for `my-lib`). */
  versions: Map<string, string>;
  /** `com.vanniktech:gradle-maven-publish-plugin` in `[libraries]` (applied through a buildscript classpath). */
  vanniktechVersion?: string;
}

export async function loadCatalog(root: string): Promise<Catalog> {
  const r = await readText(path.join(root, 'gradle', 'libs.versions.toml'));
  if (!('text' in r)) return { plugins: new Map(), versions: new Map() };
  const catalog: Catalog = { plugins: parseCatalogPlugins(r.text), versions: catalogVersions(r.text) };
  const v = catalogLibraryVersion(r.text, 'com.vanniktech:gradle-maven-publish-plugin');
  if (v !== undefined) catalog.vanniktechVersion = v;
  return catalog;
}

/**
 * Versions of plugins applied by bare id elsewhere: the root's `apply false` declarations
 * (ids or catalog aliases), the settings' `pluginManagement { plugins { } }`, then the catalog's
 * `[plugins]` entries as the last guess. Gradle puts one version of a plugin on the classpath.
 */
export function declaredPluginVersions(scripts: readonly (BuildScript | undefined)[], catalog: ReadonlyMap<string, CatalogPlugin>): Map<string, string> {
  const out = new Map<string, string>();
  for (const script of scripts) {
    for (const d of script?.declaredPlugins ?? []) {
      const entry = d.alias === undefined ? undefined : catalog.get(d.alias);
      const id = d.id ?? entry?.id;
      const version = d.version ?? entry?.version;
      if (id !== undefined && version !== undefined && !out.has(normalisePluginId(id))) out.set(normalisePluginId(id), version);
    }
    for (const p of script?.plugins ?? []) if (p.version !== undefined && !out.has(p.id)) out.set(p.id, p.version);
  }
  for (const entry of catalog.values()) {
    const id = normalisePluginId(entry.id);
    if (entry.version !== undefined && !out.has(id)) out.set(id, entry.version);
  }
  return out;
}

export interface ExpandedPlugins {
  plugins: LocatedPlugin[];
  /** The convention plugins applied (directly or through others), for their repositories and settings. */
  conventions: LoadedScript[];
}

/**
 * Resolves catalog aliases to ids (and versions) and adds what each applied convention plugin
 * applies, in the scope it was applied with.
 */
export function expandPlugins(
  plugins: readonly LocatedPlugin[],
  conventions: ReadonlyMap<string, LoadedScript>,
  catalog: ReadonlyMap<string, CatalogPlugin>,
): ExpandedPlugins {
  const out: LocatedPlugin[] = [];
  const applied: LoadedScript[] = [];
  const visit = (list: readonly LocatedPlugin[], scope: LocatedPlugin['scope'] | undefined, depth: number): void => {
    for (const raw of list) {
      let p: LocatedPlugin = scope === undefined || raw.scope.kind !== 'self' ? raw : { ...raw, scope };
      if (p.alias !== undefined) {
        const entry = catalog.get(p.alias);
        if (entry === undefined) continue;
        p = { ...p, id: normalisePluginId(entry.id), ...(entry.version === undefined ? {} : { version: entry.version }) };
      }
      out.push(p);
      const convention = conventions.get(p.id);
      if (convention !== undefined && depth < 4 && !applied.includes(convention)) {
        applied.push(convention);
        visit(convention.plugins, p.scope, depth + 1);
      }
    }
  };
  visit(plugins, undefined, 0);
  return { plugins: out, conventions: applied };
}
