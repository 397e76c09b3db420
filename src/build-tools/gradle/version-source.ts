import path from 'node:path';
import type { ReleaseFacts } from '../release-facts.js';
import type { BuildScript } from '../../core/gradle/build-script.js';
import type { PropertyEntry } from '../../core/gradle/properties.js';
import { readText, rel } from './scripts.js';
import type { GradleProjectFacts } from './facts.js';

/** Where a Gradle build's version comes from, as far as relctl can read it without running Gradle. */

/**
 * The version a script sets: a literal, a Gradle property of the project's gradle.properties
 * (`providers.gradleProperty("v").get()`, `version = projectVersion`), a catalog version (`libs.versions.v.get()`), or the
 * vanniktech plugin's `coordinates(...)`.
 */
export function scriptVersion(
  script: BuildScript,
  file: string,
  props: ReadonlyMap<string, PropertyEntry>,
  propsFile: string | undefined,
  catalogVersions: ReadonlyMap<string, string>,
): { value: string; file: string; line: number } | undefined {
  if (script.version !== undefined) return { value: script.version.value, file, line: script.version.line };
  // `version = providers.gradleProperty("v").get()` (Kotlin) or `version = projectVersion` (Groovy).
  const named = script.versionProperty ?? script.versionName;
  const prop = named === undefined ? undefined : props.get(named.name);
  if (prop !== undefined && propsFile !== undefined) return { value: prop.value.trim(), file: propsFile, line: prop.line };
  const fromCatalog = script.versionCatalogKey === undefined ? undefined : catalogVersions.get(script.versionCatalogKey.key);
  if (fromCatalog !== undefined) return { value: fromCatalog, file, line: script.versionCatalogKey!.line };
  // vanniktech coordinates("g", "a", "1.2.3"): the version published, whatever project.version is.
  if (script.coordinatesVersion !== undefined) return { value: script.coordinatesVersion.value, file, line: script.coordinatesVersion.line };
  return undefined;
}

// Plugins that compute the version from git tags or set it themselves.
const versionPlugins = /reckon|axion-release|nebula\.release|git-?version|semver|versioning|jgitver/i;

/**
 * No version was found, but something we cannot read sets it: a version plugin, or a
 * project-specific property such as `projects.version=2.1.0-SNAPSHOT` read by an external
 * convention plugin. Saying "no version" there would be a false alarm.
 */
export function versionSetElsewhere(props: ReadonlyMap<string, PropertyEntry>, projects: readonly GradleProjectFacts[]): string | undefined {
  for (const p of projects) {
    for (const pl of p.plugins) {
      const m = versionPlugins.exec(pl.id);
      if (m !== null) return `the ${m[0]} plugin (${pl.id}, ${pl.file}:${pl.line})`;
    }
  }
  const prop = [...props].find(([k, e]) => /(^|[._-])version$|[a-z]Version$/i.test(k) && /^\d+(\.\d+)+/.test(e.value.trim()) && !/^(kotlin|gradle|java|jvm|jdk|agp|android)/i.test(k));
  return prop === undefined ? undefined : `build logic relctl does not read (gradle.properties has ${prop[0]}=${prop[1].value.trim()})`;
}

/** The first line of a version file inside the project (`version.txt`), when it reads like a version. */
export async function versionFromFile(root: string, file: string, release: ReleaseFacts): Promise<boolean> {
  const target = path.resolve(root, file);
  if (rel(root, target).startsWith('..')) return false;
  const r = await readText(target);
  if (!('text' in r)) return false;
  const lines = r.text.split(/\r?\n/);
  const at = lines.findIndex((l) => l.trim() !== '');
  const value = lines[at]?.trim();
  if (value === undefined || !/^\d[\w.+-]*$/.test(value)) return false;
  release.currentVersion = value;
  release.versionFile = rel(root, target);
  release.versionLine = at + 1;
  return true;
}
