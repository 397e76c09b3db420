import { tokenize, type Token } from './lexer.js';
import { blockIndex, startsWith, statements, type Block, type Statement } from './statements.js';
import { aliasOf, appliedPlugin, appliedScript, declaredPlugin, normalisePluginId, pluginsFromBlock, pluginVersion, propertyValues, referencesOf, versionCatalogKeyOf, versionPropertyOf, coordinatesVersionOf } from './plugin-statements.js';

export { normalisePluginId };

/** Where an applied plugin takes effect, seen from the script that applies it. */
export type PluginScope = { kind: 'self' } | { kind: 'subprojects' } | { kind: 'allprojects' } | { kind: 'project'; path: string };

export interface AppliedPlugin {
  /** Normalised id: `war` for `org.gradle.war`, `WarPlugin` and `` `war` ``. */
  id: string;
  line: number;
  scope: PluginScope;
  /** `version "0.28.0"` in the plugins block. */
  version?: string;
  /** A version-catalog alias (`libs.plugins.gretty`): `id` is the alias until the gatherer resolves it. */
  alias?: string;
}

/** How the vanniktech plugin's `publishToMavenCentral(...)` names its host. */
export interface CentralHostCall {
  /** `CENTRAL_PORTAL`, `DEFAULT`, `S01`, a URL, or '' when called without a host. */
  host: string;
  line: number;
}

/** A property or environment variable a build script reads (in-memory signing keys). */
export interface ScriptReference {
  name: string;
  env: boolean;
}

export type RepositoryKind = 'release' | 'snapshot';

export interface RepositoryUrl {
  url: string;
  kind: RepositoryKind;
  line: number;
  /** The variable or Gradle property the URL came from, when not written inline. */
  via?: string;
  /** Not written at all: the gradle-nexus publish plugin's `sonatype()` default. */
  implicit?: boolean;
  /** A nexus-publish plugin `nexusUrl`/`snapshotRepositoryUrl` (a service base, not a deploy path). */
  nexus?: boolean;
  /** Set by the io.codearte nexus-staging plugin's `nexusStaging { serverUrl }` (or its default). */
  nexusStaging?: boolean;
  /** A JReleaser `nexus2` deployer's `url` / `snapshotUrl`. */
  jreleaserNexus2?: boolean;
}

export interface BuildScript {
  plugins: AppliedPlugin[];
  /** Publishing repository URLs (maven-publish, the legacy `maven` plugin, nexus-publish). */
  repositories: RepositoryUrl[];
  version?: { value: string; line: number };
  /** `version = <expression>` at the top level: set at build time, not readable here. */
  versionComputed?: number;
  /** `version = providers.gradleProperty("x").get()` and the like: the Gradle property it reads. */
  versionProperty?: { name: string; line: number };
  /** vanniktech `coordinates("g", "a", "1.2.3")` (or `version = "1.2.3"` named): the version it publishes. */
  coordinatesVersion?: { value: string; line: number };
  /** `version = libs.versions.x.get()`: the catalog version accessor (`x`). */
  versionCatalogKey?: { key: string; line: number };
  /** Plugins block entries with `apply false`: the versions projects applying them by bare id get. */
  declaredPlugins: { id?: string; alias?: string; version?: string }[];
  group?: { value: string; line: number };
  /** `release { tagTemplate = '...' }` of the Gradle release plugin. */
  tagTemplate?: string;
  /** Script plugins: `apply from: 'gradle/publish.gradle'`, read by the gatherer. */
  appliedScripts: AppliedScript[];
  /** vanniktech `mavenPublishing { publishToMavenCentral(...) }`. */
  centralHost?: CentralHostCall;
  /** `com.vanniktech:gradle-maven-publish-plugin:X` on a classpath or in buildSrc dependencies: X. */
  vanniktechVersion?: string;
  /** JReleaser `jreleaser { deploy { maven { mavenCentral { ... } } } }`: the line of `mavenCentral`. */
  jreleaserMavenCentral?: number;
  /** `signing { useGpgCmd() }`: gpg (its agent and default key) signs; no keyring properties needed. */
  gpgCmd?: number;
  /** `signing { useInMemoryPgpKeys(...) }`: the line and the properties/variables it reads. */
  inMemorySigning?: { line: number; refs: ScriptReference[] };
}

// Blocks whose `url` is POM metadata (project, SCM, license, developer pages), never a repository.
const metadataBlocks = new Set(['pom', 'scm', 'licenses', 'license', 'developers', 'developer', 'organization', 'issueManagement', 'ciManagement', 'project', 'withXml', 'mailingLists', 'contributors']);

export interface AppliedScript {
  /** As written; may hold `$rootDir`/`$projectDir`, which the gatherer substitutes. */
  path: string;
  /** Written as `rootProject.file(...)`: relative to the root project. */
  fromRoot: boolean;
  line: number;
  scope: PluginScope;
}

/** gradle-nexus/publish-plugin's default for `sonatype()`: the retired OSSRH host. */
export const nexusSonatypeDefault = 'https://oss.sonatype.org/service/local/';

const publishingRoots = ['publishing', 'uploadArchives', 'nexusPublishing'];
// Identifiers inside a URL expression that are code, not a variable holding the URL.
const notVariables = new Set([
  'url', 'setUrl', 'uri', 'file', 'if', 'else', 'project', 'rootProject', 'version', 'endsWith', 'contains',
  'toString', 'findProperty', 'property', 'providers', 'gradleProperty', 'get', 'set', 'orNull', 'it', 'URI',
  'new', 'create', 'java', 'net', 'nexusUrl', 'snapshotRepositoryUrl', 'repository', 'snapshotRepository', 'maven',
  'true', 'false', 'null', 'this', 'ext', 'extra', 'isSnapshot', 'as', 'String', 'def', 'val', 'var',
]);

/** `create("sonatype")`, `register("sonatype")`: the nexus plugin's sonatype repository by name. */
function namesSonatype(tokens: readonly Token[]): boolean {
  return /^(create|register|maybeCreate)$/.test(tokens[0]?.text ?? '') && tokens[1]?.text === '(' && tokens[2]?.kind === 'string' && tokens[2].text === 'sonatype';
}

function scopeOf(path: readonly Block[]): PluginScope {
  for (let i = path.length - 1; i >= 0; i--) {
    const b = path[i]!;
    if (b.name === 'subprojects' || b.name === 'configure') return { kind: 'subprojects' };
    if (b.name === 'allprojects') return { kind: 'allprojects' };
    if (b.name === 'project' && b.arg !== undefined) return { kind: 'project', path: b.arg.startsWith(':') ? b.arg : `:${b.arg}` };
  }
  return { kind: 'self' };
}

const retiredHostPrefix = /^\s*https?:\/\/(s01\.)?oss\.sonatype\.org(:\d+)?\//i;

function isUrlLike(s: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(s.trim());
}

interface UrlSource {
  url: string;
  line: number;
}

/** URL strings of an expression, resolving identifiers through script variables and Gradle properties. */
function urlsOf(
  tokens: readonly Token[],
  vars: ReadonlyMap<string, readonly UrlSource[]>,
  props: ReadonlyMap<string, string>,
): { url: string; via?: string }[] {
  const found: { url: string; via?: string }[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    // `"https://s01.oss.sonatype.org/${path}"`: only the host is known, and it is a retired one.
    if (t.kind === 'string' && t.dynamic === true && retiredHostPrefix.test(t.text)) found.push({ url: t.text.trim() });
    if (t.kind === 'string' && t.dynamic !== true) {
      if (isUrlLike(t.text)) found.push({ url: t.text.trim() });
      else if (props.has(t.text) && /property|gradleProperty/i.test(tokens[i - 2]?.text ?? '')) {
        const v = props.get(t.text)!;
        if (isUrlLike(v)) found.push({ url: v.trim(), via: t.text });
      }
      continue;
    }
    if (t.kind !== 'ident' || notVariables.has(t.text) || tokens[i - 1]?.text === '.') continue;
    const v = vars.get(t.text);
    if (v !== undefined) for (const u of v) found.push({ url: u.url, via: t.text });
    else if (props.has(t.text) && isUrlLike(props.get(t.text)!)) found.push({ url: props.get(t.text)!.trim(), via: t.text });
  }
  return found;
}

function kindOf(url: string, via: string | undefined, forced?: RepositoryKind): RepositoryKind {
  if (forced !== undefined) return forced;
  return /snapshot/i.test(url) || /snapshot/i.test(via ?? '') ? 'snapshot' : 'release';
}

/**
 * URL strings in the block a declaration opens: `val url: Provider<String> = provider { if (...)
 * "https://.../snapshots/" else "https://.../maven2/" }` (the block starts at the statement's end).
 */
function urlsInOpenedBlock(all: readonly Statement[], at: number, vars: ReadonlyMap<string, readonly UrlSource[]>, props: ReadonlyMap<string, string>): UrlSource[] {
  const s = all[at]!;
  const last = s.tokens[s.tokens.length - 1];
  if (last?.kind !== 'ident') return [];
  const depth = s.path.length;
  const out: UrlSource[] = [];
  for (let k = at + 1; k < all.length; k++) {
    const inner = all[k]!;
    const b = inner.path[depth];
    if (b === undefined || b.name !== last.text || b.line !== last.line) break;
    for (const u of urlsOf(inner.tokens, vars, props)) out.push({ url: u.url, line: inner.line });
  }
  return out;
}

/** `def x = "..."`, `val x = uri("...")`, `ext.x = '...'`, `x = '...'` inside `ext { }`; every URL an `if`/`provider {}` may choose. */
function collectVariables(all: readonly Statement[], props: ReadonlyMap<string, string>): Map<string, UrlSource[]> {
  const vars = new Map<string, UrlSource[]>();
  for (let at = 0; at < all.length; at++) {
    const s = all[at]!;
    const t = s.tokens;
    let nameAt = -1;
    if (t[0]?.kind === 'ident' && ['def', 'val', 'var', 'String'].includes(t[0].text) && t[1]?.kind === 'ident') nameAt = 1;
    else if (t[0]?.text === 'ext' && t[1]?.text === '.' && t[2]?.kind === 'ident') nameAt = 2;
    else if (s.path[s.path.length - 1]?.name === 'ext' && t[0]?.kind === 'ident' && t[1]?.text === '=') nameAt = 0;
    if (nameAt < 0) continue;
    const eq = t.findIndex((x, k) => k > nameAt && x.text === '=');
    if (eq < 0) continue;
    const inline = urlsOf(t.slice(eq + 1), vars, props).map((u) => ({ url: u.url, line: s.line }));
    const urls = inline.length > 0 ? inline : urlsInOpenedBlock(all, at, vars, props);
    if (urls.length > 0) vars.set(t[nameAt]!.text, urls);
  }
  return vars;
}

/**
 * Reads one build script (Groovy or Kotlin DSL) without running Gradle. `properties` are the
 * project's Gradle properties, used to resolve a repository URL held in one. Never throws.
 */
export function parseBuildScript(text: string, properties: ReadonlyMap<string, string> = new Map()): BuildScript {
  const all = statements(tokenize(text));
  const result: BuildScript = { plugins: [], repositories: [], appliedScripts: [], declaredPlugins: [] };
  const vars = collectVariables(all, properties);
  const propertyVals = propertyValues(all);
  const nexusDefaults: { line: number; block: Block | undefined }[] = [];
  const nexusExplicit = new Set<Block>();

  let stagingOpener: number | undefined;
  let stagingServerUrl = false;
  const addRepo = (s: Statement, exprFrom: number, forced?: RepositoryKind, nexus?: boolean, staging?: boolean): void => {
    for (const u of urlsOf(s.tokens.slice(exprFrom), vars, properties)) {
      const repo: RepositoryUrl = { url: u.url, kind: kindOf(u.url, u.via, forced), line: s.line };
      if (u.via !== undefined) repo.via = u.via;
      if (nexus === true) repo.nexus = true;
      if (staging === true) repo.nexusStaging = true;
      result.repositories.push(repo);
    }
  };

  for (const s of all) {
    for (const t of s.tokens) {
      const m = t.kind === 'string' ? /^com\.vanniktech:gradle-maven-publish-plugin:([\w.-]+)$/.exec(t.text) : null;
      if (m !== null) result.vanniktechVersion = m[1]!;
    }
    const path = s.path;
    const innermost = path[path.length - 1]?.name;
    if (innermost === 'plugins') {
      const id = pluginsFromBlock(s);
      const alias = id === undefined ? aliasOf(s) : undefined;
      const declared = declaredPlugin(s);
      if (declared !== undefined) result.declaredPlugins.push(declared);
      const applied = declared !== undefined;
      if (id !== undefined) {
        const plugin: AppliedPlugin = { id: normalisePluginId(id), line: s.line, scope: scopeOf(path) };
        const version = pluginVersion(s);
        if (version !== undefined) plugin.version = version;
        result.plugins.push(plugin);
      } else if (alias !== undefined && !applied) {
        result.plugins.push({ id: alias, alias, line: s.line, scope: scopeOf(path) });
      }
      continue;
    }
    const script = appliedScript(s);
    if (script !== undefined) {
      result.appliedScripts.push({ ...script, scope: scopeOf(path) });
      continue;
    }
    const applied = appliedPlugin(s);
    if (applied !== undefined) {
      result.plugins.push({ id: normalisePluginId(applied), line: s.line, scope: scopeOf(path) });
      continue;
    }
    // At the top or in `allprojects {}`; `project.version = ...` alike.
    const top = path.every((b) => b.name === 'allprojects');
    const own = s.tokens[0]?.text === 'project' && s.tokens[1]?.text === '.' ? s.tokens.slice(2) : s.tokens;
    const first = s.tokens[0];
    const head = own[0];
    if (top && head?.kind === 'ident' && (head.text === 'version' || head.text === 'group')) {
      const rest = own.slice(1);
      const value = rest[0]?.text === '=' ? rest[1] : rest[0];
      if (value?.kind === 'string' && value.dynamic !== true && (rest.length === 1 || rest.length === 2)) {
        result[head.text] = { value: value.text, line: value.line };
      } else if (head.text === 'version' && rest[0]?.text === '=' && rest.length >= 2) {
        result.versionComputed ??= s.line;
        const viaValue = rest.length === 2 && rest[1]!.kind === 'ident' ? propertyVals.get(rest[1]!.text) : undefined;
        const name = viaValue ?? versionPropertyOf(rest.slice(1));
        if (name !== undefined) result.versionProperty ??= { name, line: s.line };
        const key = versionCatalogKeyOf(rest.slice(1));
        if (key !== undefined) result.versionCatalogKey ??= { key, line: s.line };
      }
      continue;
    }
    const coordinates = coordinatesVersionOf(s.tokens);
    if (coordinates !== undefined) result.coordinatesVersion ??= { value: coordinates, line: s.line };
    // In `mavenPublishing {}` or `configure<MavenPublishBaseExtension> {}` alike.
    if (s.tokens.some((t) => t.text === 'publishToMavenCentral')) {
      const at = s.tokens.findIndex((t) => t.text === 'publishToMavenCentral');
      const args = s.tokens.slice(at + 1);
      const named = args.find((t) => t.kind === 'ident' && /^(CENTRAL_PORTAL|DEFAULT|S01)$/.test(t.text));
      const str = args.find((t) => t.kind === 'string' && t.dynamic !== true);
      result.centralHost = { host: named?.text ?? str?.text ?? '', line: s.line };
      continue;
    }
    if (startsWith(s, 'mavenCentral') && blockIndex(path, ['jreleaser']) >= 0) {
      result.jreleaserMavenCentral ??= s.line;
      continue;
    }
    if (s.tokens.some((t) => t.text === 'useGpgCmd')) {
      result.gpgCmd ??= s.line;
      continue;
    }
    if (s.tokens.some((t) => t.text === 'useInMemoryPgpKeys')) {
      result.inMemorySigning = { line: s.line, refs: referencesOf(s.tokens) };
      continue;
    }
    if (innermost === 'release' && startsWith(s, 'tagTemplate')) {
      const tpl = s.tokens.find((t) => t.kind === 'string');
      // Kotlin writes a literal `$` as `${'$'}`: `"v${'$'}{version}"` is the template `v${version}`.
      if (tpl !== undefined) result.tagTemplate = tpl.text.replace(/\$\{\s*'\$'\s*\}/g, '$');
      continue;
    }
    // io.codearte.nexus-staging: `nexusStaging { serverUrl = "..." }`, oss.sonatype.org when unset.
    if (first?.text === 'nexusStaging' && s.tokens.length === 1) stagingOpener ??= s.line;
    if (blockIndex(path, ['nexusStaging']) >= 0 && first?.text === 'serverUrl') {
      addRepo(s, 1, 'release', true, true);
      stagingServerUrl = true;
      continue;
    }
    // JReleaser's nexus2 deployer (the pre-Portal recipe): `url` and `snapshotUrl` of each deployer.
    if ((first?.text === 'url' || first?.text === 'snapshotUrl') && blockIndex(path, ['nexus2']) >= 0 && blockIndex(path, ['jreleaser']) >= 0) {
      const before = result.repositories.length;
      addRepo(s, 1, first.text === 'url' ? 'release' : 'snapshot', true);
      for (const r of result.repositories.slice(before)) r.jreleaserNexus2 = true;
      continue;
    }
    const rootAt = blockIndex(path, publishingRoots);
    if (rootAt < 0 || first?.kind !== 'ident') continue;
    const root = path[rootAt]!.name;
    const inRepositories = path.slice(rootAt).some((b) => b.name === 'repositories' || b.name === 'mavenDeployer');
    if (!inRepositories || path.slice(rootAt).some((b) => metadataBlocks.has(b.name))) continue;
    if (root === 'nexusPublishing') {
      if (first.text === 'nexusUrl' || first.text === 'snapshotRepositoryUrl') {
        addRepo(s, 1, first.text === 'nexusUrl' ? 'release' : 'snapshot', true);
        for (const b of path) nexusExplicit.add(b);
      } else if (innermost === 'repositories' && (first.text === 'sonatype' || namesSonatype(s.tokens))) {
        nexusDefaults.push({ line: s.line, block: undefined });
      }
      continue;
    }
    if (first.text === 'url' || first.text === 'setUrl') addRepo(s, 1);
    else if (first.text === 'maven' && s.tokens[1]?.text === '(' && innermost === 'repositories') addRepo(s, 1);
    else if (innermost === 'mavenDeployer' && (first.text === 'repository' || first.text === 'snapshotRepository')) {
      addRepo(s, 1, first.text === 'repository' ? 'release' : 'snapshot');
    }
  }
  // `sonatype { ... }` blocks: the opener statement `sonatype` sits in `repositories`, and the
  // block itself is on the path of whatever it contains.
  const pendingByLine = new Map<number, (typeof nexusDefaults)[number]>();
  for (const d of nexusDefaults) if (!pendingByLine.has(d.line)) pendingByLine.set(d.line, d);
  for (const s of all) {
    if (blockIndex(s.path, ['nexusPublishing']) < 0) continue;
    for (const b of s.path) {
      if (b.name !== 'sonatype' && !(/^(create|register|maybeCreate)$/.test(b.name) && b.arg === 'sonatype')) continue;
      const pending = pendingByLine.get(b.line);
      if (pending !== undefined && pending.block === undefined) pending.block = b;
    }
  }
  for (const d of nexusDefaults) {
    if (d.block !== undefined && nexusExplicit.has(d.block)) continue;
    result.repositories.push({ url: nexusSonatypeDefault, kind: 'release', line: d.line, implicit: true, nexus: true });
  }
  if (stagingOpener !== undefined && !stagingServerUrl) {
    result.repositories.push({ url: nexusSonatypeDefault, kind: 'release', line: stagingOpener, implicit: true, nexus: true, nexusStaging: true });
  }
  return result;
}
