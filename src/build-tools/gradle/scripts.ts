/** Reading build scripts from disk: size-capped, never throwing, `apply from:` folded in. */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { parseBuildScript, type AppliedPlugin, type AppliedScript, type BuildScript, type PluginScope } from '../../core/gradle/build-script.js';
import { readDescriptor } from '../../io/descriptor.js';
import type { GradlePomEntryFact, GradleRepositoryFact } from './facts.js';

// A build script larger than this is not a hand-written one; reading it whole would only cost memory.
const maxScriptBytes = 8 * 1024 * 1024;

type ReadResult = { text: string } | { missing: true } | { error: string };

/** Through io/descriptor.ts: a FIFO, a device or an oversized script is a note, never a hang. */
export async function readText(file: string): Promise<ReadResult> {
  const r = readDescriptor(file, maxScriptBytes);
  if (r.ok) return { text: r.text };
  if (r.problem === 'missing') return { missing: true };
  if (r.problem === 'too-large') return { error: `larger than ${maxScriptBytes / 1024 / 1024} MB` };
  if (r.problem === 'special') return { error: `not a regular file: ${r.detail}` };
  if (r.problem === 'directory') return { error: 'not a regular file' };
  return { error: r.detail };
}

export async function isDirectory(p: string): Promise<boolean> {
  return (await stat(p).catch(() => undefined))?.isDirectory() === true;
}

export function rel(root: string, file: string): string {
  return path.relative(root, file).split(path.sep).join('/') || '.';
}

/** The first of the candidate files that can be read; errors on the way become notes. */
export async function readFirst(root: string, dir: string, names: string[], notes: string[]): Promise<{ file: string; text: string } | undefined> {
  for (const name of names) {
    const file = path.join(dir, name);
    const r = await readText(file);
    if ('text' in r) return { file, text: r.text };
    if ('error' in r) notes.push(`${rel(root, file)} could not be read (${r.error}); its checks were skipped.`);
  }
  return undefined;
}

export interface LocatedPlugin extends AppliedPlugin {
  file: string;
}

/** A build script with the script plugins it applies (`apply from:`) folded in. */
export interface LoadedScript {
  script: BuildScript;
  file: string;
  plugins: LocatedPlugin[];
  repositories: GradleRepositoryFact[];
  /** Every script read for it (itself, then what it applies), for the publishing facts. */
  parts: { file: string; script: BuildScript }[];
}

// Script plugins applying script plugins: deeper than this is a loop we did not spot.
const maxApplyDepth = 4;

function resolveApplied(a: AppliedScript, root: string, projectDir: string): string | undefined {
  const p = a.path
    .replace(/\$\{?(rootDir|rootProject\.rootDir|rootProject\.projectDir)\}?/g, () => root)
    .replace(/\$\{?(projectDir|project\.projectDir)\}?/g, () => projectDir);
  if (p.includes('$') || /^[a-z][a-z0-9+.-]*:\/\//i.test(p)) return undefined; // dynamic or remote
  return path.resolve(a.fromRoot ? root : projectDir, p);
}

/** Gradle properties plus the URLs the given scripts set with `ext` (they are project properties too). */
export function withExtUrls(urlProps: ReadonlyMap<string, string>, scripts: readonly BuildScript[]): ReadonlyMap<string, string> {
  const ext = scripts.flatMap((s) => Object.entries(s.extUrls ?? {}));
  return ext.length === 0 ? urlProps : new Map([...urlProps, ...ext]);
}

export async function loadScript(
  root: string,
  file: string,
  text: string,
  projectDir: string,
  urlProps: ReadonlyMap<string, string>,
  notes: string[],
  seen: Set<string> = new Set([file]),
  depth = 0,
): Promise<LoadedScript> {
  const script = parseBuildScript(text, urlProps, { kotlin: file.endsWith('.kts') });
  const relFile = rel(root, file);
  const loaded: LoadedScript = {
    script,
    file: relFile,
    plugins: script.plugins.map((p) => ({ ...p, file: relFile })),
    repositories: script.repositories.map((r) => ({ ...r, file: relFile })),
    parts: [{ file: relFile, script }],
  };
  if (depth >= maxApplyDepth) return loaded;
  for (const a of script.appliedScripts) {
    const target = resolveApplied(a, root, projectDir);
    if (target === undefined || seen.has(target)) continue;
    // A script outside the project (`apply from: '../shared/publish.gradle'`) is not the project's to read.
    const inside = rel(root, target);
    if (inside === '..' || inside.startsWith('../') || path.isAbsolute(inside)) {
      notes.push(`${a.path} (applied from ${relFile}:${a.line}) is outside the project; its checks were skipped.`);
      continue;
    }
    seen.add(target);
    const r = await readText(target);
    if (!('text' in r)) {
      notes.push(`${rel(root, target)} (applied from ${relFile}:${a.line}) could not be read (${'error' in r ? r.error : 'no such file'}); its checks were skipped.`);
      continue;
    }
    const child = await loadScript(root, target, r.text, projectDir, withExtUrls(urlProps, [script]), notes, seen, depth + 1);
    // What the applied script does for "itself" happens where it is applied.
    const scoped = (scope: PluginScope): PluginScope => (scope.kind === 'self' ? a.scope : scope);
    loaded.plugins.push(...child.plugins.map((p) => ({ ...p, scope: scoped(p.scope) })));
    loaded.repositories.push(...child.repositories);
    loaded.parts.push(...child.parts);
  }
  return loaded;
}

/** The POM entries of these scripts not already listed on an earlier project (by file and line). */
export function pomEntriesOf(scripts: readonly LoadedScript[], seen: Set<string>): GradlePomEntryFact[] {
  const out: GradlePomEntryFact[] = [];
  for (const { file, script } of scripts.flatMap((l) => l.parts)) {
    for (const entry of script.pomEntries ?? []) {
      const key = `${file}:${entry.line}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ ...entry, file });
    }
  }
  return out;
}
