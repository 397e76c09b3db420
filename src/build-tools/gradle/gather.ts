import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { ReleaseFacts } from '../release-facts.js';
import type { Finding } from '../../core/findings.js';
import { marcphilippNexusPluginId, nexusSonatypeDefault, nexusStagingPluginId, type AppliedPlugin } from '../../core/gradle/build-script.js';
import { isDirectory, loadScript, pomEntriesOf, readFirst, readText, rel, withExtUrls, type LoadedScript, type LocatedPlugin } from './scripts.js';
import { parseProperties, type PropertyEntry } from '../../core/gradle/properties.js';
import { parseSettings, type GradleSettings } from '../../core/gradle/settings.js';
import { settingsPlugins } from '../../core/gradle/settings-plugins.js';
import { codePrefix, declaredPluginVersions, expandPlugins, loadCatalog, loadConventionPlugins } from './conventions.js';
import { parseBuildScript, type BuildScript } from '../../core/gradle/build-script.js';
import { publishingFacts } from './publishing.js';
import { buildFileCandidates, missingBuildFile } from './build-files.js';
import { scriptVersion, versionFromFile, versionSetElsewhere } from './version-source.js';
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

function expandHome(p: string, home: string): string {
  if (p === '~') return home;
  if (p.startsWith('~/') || p.startsWith('~\\')) return path.join(home, p.slice(2));
  return p;
}

async function userProperties(
  root: string,
  o: GradleGatherOptions,
  projectEntries: ReadonlyMap<string, PropertyEntry>,
): Promise<{ user: GradleUserProperties; urlProps: Map<string, string>; entries: Map<string, PropertyEntry> }> {
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
    // JReleaser takes its deployer credentials from JRELEASER_* variables (names only are kept).
    if ((k.startsWith('JRELEASER_MAVENCENTRAL_') || k.startsWith('JRELEASER_GPG_')) && v !== undefined && v !== '') user.keys.push(k);
  }
  for (const name of ['config.toml', 'config.yml', 'config.yaml', 'config.properties', 'config.json']) {
    const config = path.join(o.home, '.jreleaser', name);
    if ((await stat(config).catch(() => undefined))?.isFile() === true) user.jreleaserConfig = config;
  }
  const ownRing = entries.get('signing.secretKeyRingFile');
  const ringEntry = ownRing ?? projectEntries.get('signing.secretKeyRingFile');
  const ringValue = ringEntry?.value ?? o.env['ORG_GRADLE_PROJECT_signing.secretKeyRingFile'];
  if (ringValue !== undefined && ringValue.trim() !== '') {
    // The signing plugin resolves a relative path against the project folder.
    const resolved = path.resolve(root, expandHome(ringValue.trim(), o.home));
    user.keyRing = { value: ringValue.trim(), resolved, exists: (await stat(resolved).catch(() => undefined))?.isFile() === true };
    if (ringEntry !== undefined) user.keyRing.line = ringEntry.line;
    if (ownRing === undefined && ringEntry !== undefined) user.keyRing.source = 'gradle.properties';
  }
  // Only URL-looking values are kept for resolving repository URLs: never a password.
  const urlProps = new Map<string, string>();
  for (const [k, e] of entries) if (!secretLike.test(k) && /^[a-z][a-z0-9+.-]*:\/\//i.test(e.value.trim())) urlProps.set(k, e.value);
  return { user, urlProps, entries };
}

/** Plugins applied by bare id take the version declared for them elsewhere (apply false, catalog). */
function withVersions(plugins: readonly LocatedPlugin[], versions: ReadonlyMap<string, string>): LocatedPlugin[] {
  return plugins.map((p) => (p.version !== undefined || !versions.has(p.id) ? p : { ...p, version: versions.get(p.id)! }));
}

/** `:a:b:c` → `:`, `:a`, `:a:b`. */
function ancestorsOf(projectPath: string): string[] {
  if (projectPath === ':') return [];
  const parts = projectPath.split(':').filter((p) => p !== '');
  return parts.map((_, k) => (k === 0 ? ':' : `:${parts.slice(0, k).join(':')}`));
}

function pluginFacts(plugins: LocatedPlugin[], keep: (p: AppliedPlugin) => boolean): GradlePluginFact[] {
  return plugins.filter(keep).map((p) => ({ id: p.id, file: p.file, line: p.line, scope: p.scope.kind, ...(p.version === undefined ? {} : { version: p.version }) }));
}

/**
 * Reads a Gradle build as preflight needs it: settings (projects), each project's build
 * script (plugins, publishing repositories), src/main/webapp, the version, and the user's
 * gradle.properties. Never runs Gradle and never throws on bad input.
 */
export async function gatherGradleFacts(root: string, o: GradleGatherOptions): Promise<GradleGatherResult> {
  const notes: string[] = [];
  const settings = await readFirst(root, root, ['settings.gradle.kts', 'settings.gradle'], notes);
  const parsed: GradleSettings = settings === undefined ? { projects: [], includedBuilds: [] } : parseSettings(settings.text);
  const rootProps = await readFirst(root, root, ['gradle.properties'], notes);
  const rootEntries = rootProps === undefined ? new Map<string, PropertyEntry>() : parseProperties(rootProps.text);
  const { user, urlProps, entries: userEntries } = await userProperties(root, o, rootEntries);
  for (const [k, e] of rootEntries) if (!urlProps.has(k) && /^[a-z][a-z0-9+.-]*:\/\//i.test(e.value.trim())) urlProps.set(k, e.value);
  // Plugins applied through buildSrc / build-logic convention plugins and catalog aliases count too.
  const conventions = await loadConventionPlugins(root, ['buildSrc', ...parsed.includedBuilds], urlProps, notes);
  const catalog = await loadCatalog(root);
  const allScripts: LoadedScript[] = [];

  const included: { path: string; dir: string; line?: number; implicit?: boolean; buildFileName?: string }[] = [
    { path: ':', dir: '.', ...(parsed.rootBuildFileName === undefined ? {} : { buildFileName: parsed.rootBuildFileName }) },
  ];
  for (const p of parsed.projects) included.push(p);

  let rootLoaded: LoadedScript | undefined;
  const loadedByPath = new Map<string, LoadedScript>();
  // The settings script's pluginManagement block may pin plugin versions too.
  const settingsScript = settings === undefined ? undefined : parseBuildScript(settings.text);
  let versions = new Map<string, string>();
  const projects: GradleProjectFacts[] = [];
  const seenPomEntries = new Set<string>();
  for (const inc of included) {
    const dir = path.resolve(root, inc.dir);
    const name = inc.path.split(':').pop()!;
    const candidates = buildFileCandidates(inc, name, parsed);
    const script = await readFirst(root, dir, candidates, notes);
    // What the root sets with `ext` is a property its subprojects read too.
    const props = rootLoaded === undefined ? urlProps : withExtUrls(urlProps, rootLoaded.parts.map((p) => p.script));
    const loaded = script === undefined ? undefined : await loadScript(root, script.file, script.text, dir, props, notes);
    if (inc.path === ':') versions = declaredPluginVersions([loaded?.script, settingsScript], catalog.plugins);
    let conventionScripts: LoadedScript[] = [];
    if (loaded !== undefined) {
      const expanded = expandPlugins(loaded.plugins, conventions, catalog.plugins);
      conventionScripts = expanded.conventions;
      loaded.plugins = withVersions(expanded.plugins, versions);
      for (const c of expanded.conventions) {
        loaded.repositories.push(...c.repositories.filter((r) => !loaded.repositories.includes(r)));
        if (!allScripts.includes(c)) allScripts.push(c);
      }
      allScripts.push(loaded);
    }
    if (inc.path === ':') rootLoaded = loaded;
    if (loaded !== undefined) loadedByPath.set(inc.path, loaded);
    const project: GradleProjectFacts = {
      path: inc.path,
      dir: rel(root, dir),
      dirExists: await isDirectory(dir),
      plugins: loaded === undefined ? [] : pluginFacts(loaded.plugins, (p) => p.scope.kind === 'self' || p.scope.kind === 'allprojects'),
      repositories: loaded?.repositories ?? [],
      hasWebapp: await isDirectory(path.join(dir, 'src', 'main', 'webapp')),
    };
    if (loaded !== undefined) project.buildFile = loaded.file;
    else if (inc.implicit !== true) {
      const missing = missingBuildFile(inc, candidates, parsed, settings === undefined ? undefined : rel(root, settings.file), project.dirExists);
      if (missing !== undefined) project.buildFileMissing = { lookedFor: candidates.map((c) => rel(root, path.resolve(dir, c))), why: missing };
    }
    if (inc.line !== undefined) project.settingsLine = inc.line;
    const pomEntries = loaded === undefined ? [] : pomEntriesOf([loaded, ...conventionScripts], seenPomEntries);
    if (pomEntries.length > 0) project.pomEntries = pomEntries;
    // A `war { ... }` block configures the war task, which only exists with the war plugin applied.
    const warTask = loaded?.parts.find((p) => p.script.warTask !== undefined);
    if (warTask !== undefined) project.plugins.push({ id: 'war', file: warTask.file, line: warTask.script.warTask!, scope: 'self' });
    // What the root, and every project in between (`overlays/build.gradle` for `:overlays:web`),
    // applies in `subprojects {}`, `allprojects {}` or `project(':x') {}`.
    for (const ancestor of ancestorsOf(inc.path)) {
      const above = loadedByPath.get(ancestor);
      if (above === undefined) continue;
      project.plugins.push(
        ...pluginFacts(above.plugins, (p) => {
          const s = p.scope;
          return s.kind === 'subprojects' || s.kind === 'allprojects' || (s.kind === 'project' && s.path === inc.path);
        }),
      );
    }
    projects.push(project);
  }
  // Build logic written as Kotlin classes applies plugins and sets repositories from code: they
  // count for the build and are shown on the root project.
  for (const [key, code] of conventions) {
    if (!key.startsWith(codePrefix)) continue;
    projects[0]!.plugins.push(...pluginFacts(withVersions(code.plugins, versions), () => true));
    projects[0]!.repositories.push(...code.repositories);
  }
  // Settings plugins (`com.gradleup.nmcp.settings`) act on the whole build: shown on the root project.
  if (settings !== undefined) {
    for (const p of settingsPlugins(settings.text)) projects[0]!.plugins.push({ ...p, file: rel(root, settings.file), scope: 'self' });
  }
  // io.codearte.nexus-staging applied, its serverUrl set nowhere: it closes and releases on its default host.
  // The same for de.marcphilipp.nexus-publish with no serverUrl and no repositories of its own.
  const applied = allScripts.flatMap((l) => l.plugins);
  const stagingPlugin = applied.find((p) => p.id === nexusStagingPluginId);
  const nexusPlugin = applied.find((p) => p.id === marcphilippNexusPluginId);
  const rootProject = projects[0];
  const anyRepo = (test: (r: GradleRepositoryFact) => boolean): boolean => projects.some((p) => p.repositories.some(test));
  if (stagingPlugin !== undefined && rootProject !== undefined && !anyRepo((r) => r.nexusStaging === true)) {
    rootProject.repositories = [...rootProject.repositories, { url: nexusSonatypeDefault, kind: 'release', file: stagingPlugin.file, line: stagingPlugin.line, implicit: true, nexus: true, nexusStaging: true }];
  }
  if (nexusPlugin !== undefined && rootProject !== undefined && !anyRepo((r) => r.nexus === true && r.nexusStaging !== true)) {
    rootProject.repositories = [...rootProject.repositories, { url: nexusSonatypeDefault, kind: 'release', file: nexusPlugin.file, line: nexusPlugin.line, implicit: true, nexus: true }];
  }
  const rootScript = rootLoaded?.script;
  const rootScriptFile = rootLoaded?.file ?? '';

  // No rootProject.name: Gradle names the root project after its folder, the canonical one (a
  // symlinked checkout is named after its target), so the tag follows the checkout's folder name.
  const folderName = path.basename(await realpath(root).catch(() => root));
  const rootProjectName = parsed.rootProjectName ?? folderName;
  // Every convention script counts for the publishing settings (their build scripts name plugin versions).
  for (const c of conventions.values()) if (!allScripts.includes(c)) allScripts.push(c);
  const publishing = publishingFacts(allScripts, {
    project: rootEntries,
    ...(rootProps === undefined ? {} : { projectFile: rel(root, rootProps.file) }),
    user: userEntries,
    userDisplay: user.display,
    env: o.env,
    userKeys: user.keys,
  });
  if (publishing.vanniktechVersion === undefined && catalog.vanniktechVersion !== undefined) publishing.vanniktechVersion = catalog.vanniktechVersion;
  const facts: GradleFacts = { rootProjectName, projects, user, stagingApiUrl: o.stagingApiUrl, publishing };
  if (settings !== undefined) facts.settingsFile = rel(root, settings.file);

  const release: ReleaseFacts = {
    artifactId: rootProjectName,
    artifactIdFrom:
      parsed.rootProjectName !== undefined
        ? `rootProject.name in ${facts.settingsFile}`
        : `the root folder's name (${facts.settingsFile === undefined ? 'no settings file' : `${facts.settingsFile} sets no rootProject.name`}: Gradle names the root project after its folder)`,
  };
  // The vanniktech plugin's convention: VERSION_NAME / GROUP in gradle.properties.
  const propVersion = rootEntries.get('version') ?? rootEntries.get('VERSION_NAME');
  if (propVersion !== undefined && rootProps !== undefined) {
    release.currentVersion = propVersion.value.trim();
    release.versionFile = rel(root, rootProps.file);
    release.versionLine = propVersion.line;
  } else if (rootScript?.version !== undefined) {
    release.currentVersion = rootScript.version.value;
    release.versionFile = rootScriptFile;
    release.versionLine = rootScript.version.line;
  } else if (rootScript?.versionFile !== undefined && (await versionFromFile(root, rootScript.versionFile.path, release))) {
    // `version = file('version.txt').text.trim()`: reported at the file that holds it.
  } else {
    // The root script (a property, the catalog, vanniktech coordinates), then a convention plugin
    // (buildSrc, build-logic) or an applied script.
    const parts = [...(rootLoaded === undefined ? [] : [{ file: rootScriptFile, script: rootLoaded.script }]), ...allScripts.flatMap((s) => s.parts)];
    for (const { file, script: part } of parts) {
      if (part.versionComputed !== undefined && release.versionComputed !== true) {
        release.versionComputed = true;
        release.versionComputedBy = `${part.versionComputedHow ?? 'an expression'} (${file}:${part.versionComputed})`;
      }
      const found = scriptVersion(part, file, rootEntries, rootProps === undefined ? undefined : rel(root, rootProps.file), catalog.versions);
      if (found === undefined) continue;
      delete release.versionComputed;
      delete release.versionComputedBy;
      release.currentVersion = found.value;
      release.versionFile = found.file;
      release.versionLine = found.line;
      break;
    }
  }
  const elsewhere = release.currentVersion === undefined ? versionSetElsewhere(rootEntries, projects) : undefined;
  if (elsewhere !== undefined) {
    release.versionComputed = true;
    // A version plugin says more than the expression that reads it (`version = scmVersion.version`).
    if (elsewhere.startsWith('the ') || release.versionComputedBy === undefined) release.versionComputedBy = elsewhere;
  }
  const group = (rootEntries.get('group') ?? rootEntries.get('GROUP'))?.value.trim() ?? rootScript?.group?.value;
  if (group !== undefined && group !== '') release.groupId = group;
  const result: GradleGatherResult = { facts, findings: [], release, notes };
  if (rootScript?.tagTemplate !== undefined) result.tagTemplate = rootScript.tagTemplate;
  return result;
}
