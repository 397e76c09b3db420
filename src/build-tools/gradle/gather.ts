import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { ReleaseFacts } from '../../checks/facts.js';
import type { Finding } from '../../core/findings.js';
import { readDescriptor } from '../../io/descriptor.js';
import { parseBuildScript, type AppliedPlugin, type AppliedScript, type BuildScript, type PluginScope } from '../../core/gradle/build-script.js';
import { parseProperties, type PropertyEntry } from '../../core/gradle/properties.js';
import { parseSettings, type IncludedProject } from '../../core/gradle/settings.js';
import type { GradleFacts, GradlePluginFact, GradleProjectFacts, GradleRepositoryFact, GradleUserProperties } from './facts.js';

export interface GradleGatherOptions {
  home: string;
  env: NodeJS.ProcessEnv;
  stagingApiUrl: string;
}

export interface GradleGatherResult {
  facts: GradleFacts;
  findings: Finding[];
  /** Version facts for the repository checks (tag, orphan rule). */
  release: ReleaseFacts;
  /** The Gradle release plugin's `tagTemplate`, when the root script sets one. */
  tagTemplate?: string;
  /** Files relctl could not read: said on stderr, not findings (no code of DESIGN §4 covers them). */
  notes: string[];
}

const secretLike = /password|secret|token|key(?!Ring)/i;

// A build script larger than this is not a hand-written one; reading it whole would only cost memory.
const maxScriptBytes = 8 * 1024 * 1024;

type ReadResult = { text: string } | { missing: true } | { error: string };

/** Through io/descriptor.ts: a FIFO, a device or an oversized script is a note, never a hang. */
async function readText(file: string): Promise<ReadResult> {
  const r = readDescriptor(file, maxScriptBytes);
  if (r.ok) return { text: r.text };
  if (r.problem === 'missing') return { missing: true };
  if (r.problem === 'too-large') return { error: `larger than ${maxScriptBytes / 1024 / 1024} MB` };
  if (r.problem === 'special') return { error: `not a regular file: ${r.detail}` };
  if (r.problem === 'directory') return { error: 'not a regular file' };
  return { error: r.detail };
}

async function isDirectory(p: string): Promise<boolean> {
  return (await stat(p).catch(() => undefined))?.isDirectory() === true;
}

function rel(root: string, file: string): string {
  return path.relative(root, file).split(path.sep).join('/') || '.';
}

/** The first of the candidate files that can be read; errors on the way become notes. */
async function readFirst(root: string, dir: string, names: string[], notes: string[]): Promise<{ file: string; text: string } | undefined> {
  for (const name of names) {
    const file = path.join(dir, name);
    const r = await readText(file);
    if ('text' in r) return { file, text: r.text };
    if ('error' in r) notes.push(`${rel(root, file)} could not be read (${r.error}); its checks were skipped.`);
  }
  return undefined;
}

function expandHome(p: string, home: string): string {
  if (p === '~') return home;
  if (p.startsWith('~/') || p.startsWith('~\\')) return path.join(home, p.slice(2));
  return p;
}

async function userProperties(root: string, o: GradleGatherOptions): Promise<{ user: GradleUserProperties; urlProps: Map<string, string> }> {
  const gradleHome = o.env.GRADLE_USER_HOME;
  const viaEnv = gradleHome !== undefined && gradleHome !== '';
  const file = path.join(viaEnv ? path.resolve(root, expandHome(gradleHome, o.home)) : path.join(o.home, '.gradle'), 'gradle.properties');
  const display = viaEnv ? '$GRADLE_USER_HOME/gradle.properties' : '~/.gradle/gradle.properties';
  const r = await readText(file);
  const entries: Map<string, PropertyEntry> = 'text' in r ? parseProperties(r.text) : new Map();
  const user: GradleUserProperties = {
    file,
    display,
    state: 'text' in r ? 'ok' : 'missing' in r ? 'missing' : 'unreadable',
    keys: [...entries.keys()],
    tokenFromEnv: Boolean(o.env.RELCTL_TOKEN_USERNAME) && Boolean(o.env.RELCTL_TOKEN_PASSWORD),
  };
  if ('error' in r) user.error = r.error;
  // Gradle also takes project properties from ORG_GRADLE_PROJECT_<name> variables (how CI passes secrets).
  for (const [k, v] of Object.entries(o.env)) {
    if (k.startsWith('ORG_GRADLE_PROJECT_') && v !== undefined && v !== '') user.keys.push(k.slice('ORG_GRADLE_PROJECT_'.length));
  }
  const ringEntry = entries.get('signing.secretKeyRingFile');
  const ringValue = ringEntry?.value ?? o.env['ORG_GRADLE_PROJECT_signing.secretKeyRingFile'];
  if (ringValue !== undefined && ringValue.trim() !== '') {
    // The signing plugin resolves a relative path against the project folder.
    const resolved = path.resolve(root, expandHome(ringValue.trim(), o.home));
    user.keyRing = { value: ringValue.trim(), resolved, exists: (await stat(resolved).catch(() => undefined))?.isFile() === true };
    if (ringEntry !== undefined) user.keyRing.line = ringEntry.line;
  }
  // Only URL-looking values are kept for resolving repository URLs: never a password.
  const urlProps = new Map<string, string>();
  for (const [k, e] of entries) if (!secretLike.test(k) && /^[a-z][a-z0-9+.-]*:\/\//i.test(e.value.trim())) urlProps.set(k, e.value);
  return { user, urlProps };
}

interface LocatedPlugin extends AppliedPlugin {
  file: string;
}

/** A build script with the script plugins it applies (`apply from:`) folded in. */
interface LoadedScript {
  script: BuildScript;
  file: string;
  plugins: LocatedPlugin[];
  repositories: GradleRepositoryFact[];
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

async function loadScript(
  root: string,
  file: string,
  text: string,
  projectDir: string,
  urlProps: ReadonlyMap<string, string>,
  notes: string[],
  seen: Set<string> = new Set([file]),
  depth = 0,
): Promise<LoadedScript> {
  const script = parseBuildScript(text, urlProps);
  const relFile = rel(root, file);
  const loaded: LoadedScript = {
    script,
    file: relFile,
    plugins: script.plugins.map((p) => ({ ...p, file: relFile })),
    repositories: script.repositories.map((r) => ({ ...r, file: relFile })),
  };
  if (depth >= maxApplyDepth) return loaded;
  for (const a of script.appliedScripts) {
    const target = resolveApplied(a, root, projectDir);
    if (target === undefined || seen.has(target)) continue;
    seen.add(target);
    const r = await readText(target);
    if (!('text' in r)) {
      notes.push(`${rel(root, target)} (applied from ${relFile}:${a.line}) could not be read (${'error' in r ? r.error : 'no such file'}); its checks were skipped.`);
      continue;
    }
    const child = await loadScript(root, target, r.text, projectDir, urlProps, notes, seen, depth + 1);
    // What the applied script does for "itself" happens where it is applied.
    const scoped = (scope: PluginScope): PluginScope => (scope.kind === 'self' ? a.scope : scope);
    loaded.plugins.push(...child.plugins.map((p) => ({ ...p, scope: scoped(p.scope) })));
    loaded.repositories.push(...child.repositories);
  }
  return loaded;
}

function pluginFacts(plugins: LocatedPlugin[], keep: (p: AppliedPlugin) => boolean): GradlePluginFact[] {
  return plugins.filter(keep).map((p) => ({ id: p.id, file: p.file, line: p.line, scope: p.scope.kind }));
}

/**
 * Reads a Gradle build as preflight needs it: settings (projects), each project's build
 * script (plugins, publishing repositories), src/main/webapp, the version, and the user's
 * gradle.properties. Never runs Gradle and never throws on bad input.
 */
export async function gatherGradleFacts(root: string, o: GradleGatherOptions): Promise<GradleGatherResult> {
  const notes: string[] = [];
  const settings = await readFirst(root, root, ['settings.gradle.kts', 'settings.gradle'], notes);
  const parsed = settings === undefined ? { projects: [] as IncludedProject[] } : parseSettings(settings.text);
  const rootProps = await readFirst(root, root, ['gradle.properties'], notes);
  const rootEntries = rootProps === undefined ? new Map<string, PropertyEntry>() : parseProperties(rootProps.text);
  const { user, urlProps } = await userProperties(root, o);
  for (const [k, e] of rootEntries) if (!urlProps.has(k) && /^[a-z][a-z0-9+.-]*:\/\//i.test(e.value.trim())) urlProps.set(k, e.value);

  const included: { path: string; dir: string; line?: number }[] = [{ path: ':', dir: '.' }];
  for (const p of parsed.projects) included.push({ path: p.path, dir: p.dir, line: p.line });

  let rootLoaded: LoadedScript | undefined;
  const projects: GradleProjectFacts[] = [];
  for (const inc of included) {
    const dir = path.resolve(root, inc.dir);
    const script = await readFirst(root, dir, ['build.gradle.kts', 'build.gradle'], notes);
    const loaded = script === undefined ? undefined : await loadScript(root, script.file, script.text, dir, urlProps, notes);
    if (inc.path === ':') rootLoaded = loaded;
    const project: GradleProjectFacts = {
      path: inc.path,
      dir: rel(root, dir),
      dirExists: await isDirectory(dir),
      plugins: loaded === undefined ? [] : pluginFacts(loaded.plugins, (p) => p.scope.kind === 'self' || p.scope.kind === 'allprojects'),
      repositories: loaded?.repositories ?? [],
      hasWebapp: await isDirectory(path.join(dir, 'src', 'main', 'webapp')),
    };
    if (loaded !== undefined) project.buildFile = loaded.file;
    if (inc.line !== undefined) project.settingsLine = inc.line;
    if (inc.path !== ':' && rootLoaded !== undefined) {
      project.plugins.push(
        ...pluginFacts(rootLoaded.plugins, (p) => {
          const s = p.scope;
          return s.kind === 'subprojects' || s.kind === 'allprojects' || (s.kind === 'project' && s.path === inc.path);
        }),
      );
    }
    projects.push(project);
  }
  const rootScript = rootLoaded?.script;
  const rootScriptFile = rootLoaded?.file ?? '';

  const rootProjectName = parsed.rootProjectName ?? path.basename(root);
  const facts: GradleFacts = { rootProjectName, projects, user, stagingApiUrl: o.stagingApiUrl };
  if (settings !== undefined) facts.settingsFile = rel(root, settings.file);

  const release: ReleaseFacts = { artifactId: rootProjectName };
  const propVersion = rootEntries.get('version');
  if (propVersion !== undefined && rootProps !== undefined) {
    release.currentVersion = propVersion.value.trim();
    release.versionFile = rel(root, rootProps.file);
    release.versionLine = propVersion.line;
  } else if (rootScript?.version !== undefined) {
    release.currentVersion = rootScript.version.value;
    release.versionFile = rootScriptFile;
    release.versionLine = rootScript.version.line;
  }
  const group = rootEntries.get('group')?.value.trim() ?? rootScript?.group?.value;
  if (group !== undefined && group !== '') release.groupId = group;
  const result: GradleGatherResult = { facts, findings: [], release, notes };
  if (rootScript?.tagTemplate !== undefined) result.tagTemplate = rootScript.tagTemplate;
  return result;
}
