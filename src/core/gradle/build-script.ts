import { tokenize, type Token } from './lexer.js';
import { blockIndex, startsWith, statements, type Block, type Statement } from './statements.js';
import { aliasOf, appliedPlugin, appliedScript, coordinatesVersionOf, declaredPlugin, normalisePluginId, pluginsFromBlock, pluginVersion, propertyValues, versionCatalogKeyOf, versionPropertyOf } from './plugin-statements.js';
import { assignedName, collectConstants, versionStatement, warTaskLine } from './version-statements.js';
import { callArguments, referencesIn, variableExpressions } from './credential-refs.js';
import { credentialSources, type CredentialSource } from './credential-sources.js';

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
  /** `maven { name = 'nexus' }`: the repository's name, Gradle's counterpart of a Maven repository id. */
  name?: string;
  /** The Codearte nexus-staging plugin's `serverUrl` (or, implicit, its default). */
  nexusStaging?: boolean;
  /** Written as the default of a property test: setting this Gradle property replaces it. */
  property?: string;
  /** A JReleaser `nexus2` deployer's `url` / `snapshotUrl`. */
  jreleaserNexus2?: boolean;
  /** That nexus repository's name (`sonatype`): the plugin reads its credentials from `<name>Username`/`<name>Password`. */
  nexusRepository?: string;
}

export interface BuildScript {
  plugins: AppliedPlugin[];
  /** Publishing repository URLs (maven-publish, the legacy `maven` plugin, nexus-publish). */
  repositories: RepositoryUrl[];
  version?: { value: string; line: number };
  /** `version = <expression>` at the top level: set at build time, not readable here. */
  versionComputed?: number;
  /** `version = projectVersion` (Groovy): the name read, a Gradle property when gradle.properties has it. */
  versionName?: { name: string; line: number };
  /** `version = file('version.txt').text.trim()`: the version is that file's content. */
  versionFile?: { path: string; fromRoot: boolean; line: number };
  /** `version = providers.gradleProperty("x").get()` and the like: the Gradle property it reads. */
  versionProperty?: { name: string; line: number };
  /** vanniktech `coordinates("g", "a", "1.2.3")` (or `version = "1.2.3"` named): the version it publishes. */
  coordinatesVersion?: { value: string; line: number };
  /** `version = libs.versions.x.get()`: the catalog version accessor (`x`). */
  versionCatalogKey?: { key: string; line: number };
  /** Plugins block entries with `apply false`: the versions projects applying them by bare id get. */
  declaredPlugins: { id?: string; alias?: string; version?: string }[];
  /** A top-level `war { ... }` block configures the war task: the war plugin is applied (Gradle fails otherwise). */
  warTask?: number;
  /** URLs this script sets as extra properties (`ext.releaseRepo = '...'`), by name: applied scripts and subprojects read them. */
  extUrls?: Record<string, string>;
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
  inMemorySigning?: { line: number; refs: ScriptReference[]; args: ScriptReference[][] };
  /** Publishing credentials the script configures itself (`credentials {}`, gradle-nexus, nmcp, JReleaser). */
  credentials?: CredentialSource[];
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
/** io.codearte.nexus-staging's `serverUrl` default: the same retired host. */
export const nexusStagingPluginId = 'io.codearte.nexus-staging';
/** The gradle-nexus plugin's predecessor; its `serverUrl` defaults to the same retired host. */
export const marcphilippNexusPluginId = 'de.marcphilipp.nexus-publish';

/** `create("sonatype")`, `register("sonatype")`: the nexus plugin's sonatype repository by name. */
function namesSonatype(tokens: readonly Token[]): boolean {
  return /^(create|register|maybeCreate)$/.test(tokens[0]?.text ?? '') && tokens[1]?.text === '(' && tokens[2]?.kind === 'string' && tokens[2].text === 'sonatype';
}

const retiredHostPrefix = /^\s*https?:\/\/(s01\.)?oss\.sonatype\.org(:\d+)?\//i;

const publishingRoots = ['publishing', 'uploadArchives', 'nexusPublishing'];
// Identifiers inside a URL expression that are code, not a variable holding the URL.
const notVariables = new Set([
  'url', 'setUrl', 'uri', 'file', 'if', 'else', 'project', 'rootProject', 'version', 'endsWith', 'contains',
  'toString', 'findProperty', 'property', 'providers', 'gradleProperty', 'get', 'set', 'orNull', 'it', 'URI',
  'new', 'create', 'java', 'net', 'nexusUrl', 'snapshotRepositoryUrl', 'repository', 'snapshotRepository', 'maven',
  'true', 'false', 'null', 'this', 'ext', 'extra', 'isSnapshot', 'as', 'String', 'def', 'val', 'var',
]);

function scopeOf(path: readonly Block[]): PluginScope {
  for (let i = path.length - 1; i >= 0; i--) {
    const b = path[i]!;
    if (b.name === 'subprojects' || b.name === 'configure') return { kind: 'subprojects' };
    if (b.name === 'allprojects') return { kind: 'allprojects' };
    if (b.name === 'project' && b.arg !== undefined) return { kind: 'project', path: b.arg.startsWith(':') ? b.arg : `:${b.arg}` };
  }
  return { kind: 'self' };
}

function isUrlLike(s: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(s.trim());
}

interface UrlSource {
  url: string;
  line: number;
  /** The default of a property test: setting this Gradle property replaces the URL. */
  property?: string;
  /** Set as an extra property (`ext`), so visible beyond this script. */
  ext?: boolean;
}

/** URL strings of an expression, resolving identifiers through script variables and Gradle properties. */
/** A URL an expression yields; `property` names the Gradle property that would replace it (`hasProperty('X') ? X : default`). */
interface UrlFound {
  url: string;
  via?: string;
  property?: string;
}

function urlsOf(
  tokens: readonly Token[],
  vars: ReadonlyMap<string, readonly UrlSource[]>,
  props: ReadonlyMap<string, string>,
): UrlFound[] {
  const override = propertyOverride(tokens, props);
  if (override !== undefined && 'url' in override) return [override];
  const found: UrlFound[] = [];
  const lookup = (name: string): string | undefined => {
    const v = vars.get(name)?.[0]?.url ?? props.get(name);
    return v !== undefined && isUrlLike(v) ? v.trim() : undefined;
  };
  // `base + 'staging/deploy/maven2/'`: constant strings appended to a known URL belong to it.
  const push = (url: string, via: string | undefined, next: number): void => {
    let full = url;
    for (let j = next; tokens[j]?.text === '+' && tokens[j + 1]?.kind === 'string' && tokens[j + 1]!.dynamic !== true; j += 2) full += tokens[j + 1]!.text;
    const f: UrlFound = via === undefined ? { url: full } : { url: full, via };
    const property = override?.unset ?? vars.get(via ?? '')?.[0]?.property;
    if (property !== undefined) f.property = property;
    found.push(f);
  };
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.kind === 'string' && t.dynamic === true) {
      // `"${sonatypeRepositoryUrl}"`, `"${stagingBase}staging/deploy/maven2/"`: resolved when every
      // interpolated name is a known URL variable or property.
      const r = interpolate(t.text.trim(), lookup);
      if (r !== undefined && isUrlLike(r.url)) push(r.url, r.via, i + 1);
      // `"https://s01.oss.sonatype.org/${path}"`: only the host is known, and it is a retired one.
      else if (retiredHostPrefix.test(t.text)) found.push({ url: t.text.trim() });
      continue;
    }
    if (t.kind === 'string') {
      if (isUrlLike(t.text)) push(t.text.trim(), undefined, i + 1);
      else if (props.has(t.text) && /property|gradleProperty/i.test(tokens[i - 2]?.text ?? '')) {
        const v = props.get(t.text)!;
        if (isUrlLike(v)) push(v.trim(), t.text, tokens[i + 1]?.text === ')' ? i + 2 : i + 1);
      }
      continue;
    }
    if (t.kind !== 'ident' || notVariables.has(t.text) || tokens[i - 1]?.text === '.') continue;
    const v = vars.get(t.text);
    if (v !== undefined) for (const u of v) push(u.url, t.text, i + 1);
    else if (props.has(t.text) && isUrlLike(props.get(t.text)!)) push(props.get(t.text)!.trim(), t.text, i + 1);
  }
  return found;
}

/** A GString with `${name}` / `$name` parts replaced, or undefined when one of them is unknown. */
function interpolate(text: string, lookup: (name: string) => string | undefined): { url: string; via: string } | undefined {
  let via: string | undefined;
  let unknown = false;
  const url = text.replace(/\$\{\s*(?:(?:project|rootProject)\.)?(\w+)\s*\}|\$(?:(?:project|rootProject)\.)?(\w+)/g, (_m, a: string | undefined, b: string | undefined) => {
    const name = (a ?? b)!;
    const v = lookup(name);
    if (v === undefined) unknown = true;
    via ??= name;
    return v ?? '';
  });
  return unknown || via === undefined || url.includes('$') ? undefined : { url, via };
}

const propertyReaders = new Set(['hasProperty', 'findProperty', 'getProperty', 'property', 'gradleProperty']);

/**
 * `hasProperty('X') ? X : 'default'`, `project.hasProperty('x') ? project.getProperty('x') : "..."`,
 * `findProperty('x') ?: '...'`: when the property is set (the project's or the user's
 * gradle.properties), Gradle takes it and the written default is never used.
 */
function propertyOverride(tokens: readonly Token[], props: ReadonlyMap<string, string>): { url: string; via: string } | { unset: string } | undefined {
  // Only the test itself (before `?`, or the left of `?:`) decides; a property read in a branch does not.
  const q = tokens.findIndex((t) => t.kind === 'punct' && t.text === '?');
  if (q < 0) return undefined;
  for (let i = 0; i + 2 < q; i++) {
    const t = tokens[i]!;
    const name = tokens[i + 2]!;
    if (t.kind !== 'ident' || !propertyReaders.has(t.text) || tokens[i + 1]?.text !== '(' || name.kind !== 'string' || name.dynamic === true) continue;
    // `hasProperty('release') ? '<releases>' : '<snapshots>'` only tests a flag: the branches decide.
    const branches = tokens.slice(q);
    if (!branches.some((b) => b.text === name.text && (b.kind === 'ident' || (b.kind === 'string' && b.dynamic !== true)))) return undefined;
    const v = props.get(name.text);
    if (v !== undefined && isUrlLike(v)) return { url: v.trim(), via: name.text };
    // Not set here: the written default is used, and setting the property is the way to change it.
    return { unset: name.text };
  }
  return undefined;
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

/**
 * `def x = "..."`, `val x = uri("...")`, `ext.x = '...'`, `x = '...'` inside `ext { }`, a function
 * returning a URL; every URL an `if`/`provider {}` may choose.
 */
function collectVariables(all: readonly Statement[], props: ReadonlyMap<string, string>): Map<string, UrlSource[]> {
  const vars = new Map<string, UrlSource[]>();
  for (let at = 0; at < all.length; at++) {
    const s = all[at]!;
    const t = s.tokens;
    const nameAt = assignedName(s);
    if (nameAt < 0 && t[0]?.text === 'return' && s.path.length > 0) {
      // `def getReleaseRepositoryUrl() { return ... }` (gradle-mvn-push and its many copies): the
      // function's name stands for the URL it returns.
      const fn = s.path[s.path.length - 1]!.name;
      const url = fn === '' ? undefined : urlsOf(t.slice(1), vars, props)[0];
      if (url !== undefined && !vars.has(fn)) vars.set(fn, [{ url: url.url, line: s.line, ...(url.property === undefined ? {} : { property: url.property }) }]);
      continue;
    }
    if (nameAt < 0) continue;
    const eq = t.findIndex((x, k) => k > nameAt && x.text === '=');
    if (eq < 0) continue;
    const inline: UrlSource[] = urlsOf(t.slice(eq + 1), vars, props).map((u) => ({ url: u.url, line: s.line, ...(u.property === undefined ? {} : { property: u.property }) }));
    const urls = inline.length > 0 ? inline : urlsInOpenedBlock(all, at, vars, props);
    // `ext.x` / `ext { x = ... }` (not `def x`) is a project property: scripts applied later and subprojects see it.
    if (urls.length > 0) vars.set(t[nameAt]!.text, nameAt === 1 ? urls : urls.map((u) => ({ ...u, ext: true })));
  }
  return vars;
}

/**
 * Reads one build script (Groovy or Kotlin DSL) without running Gradle. `properties` are the
 * project's Gradle properties, used to resolve a repository URL held in one. Never throws.
 */
export function parseBuildScript(text: string, properties: ReadonlyMap<string, string> = new Map(), options: { kotlin?: boolean } = {}): BuildScript {
  const all = statements(tokenize(text));
  const result: BuildScript = { plugins: [], repositories: [], appliedScripts: [], declaredPlugins: [] };
  const vars = collectVariables(all, properties);
  for (const [name, v] of vars) if (v[0]?.ext === true) (result.extUrls ??= {})[name] = v[0].url;
  const propertyVals = propertyValues(all);
  const constants = collectConstants(all);
  const scope = { vars: variableExpressions(all), kotlin: options.kotlin === true };
  const nexusDefaults: { line: number; block: Block | undefined }[] = [];
  const nexusExplicit = new Set<Block>();
  let stagingOpener: number | undefined;
  let stagingServerUrl = false;

  // The URL of each repository block, for the credentials written in it.
  const urlByBlock = new Map<Block, string>();
  const addRepo = (s: Statement, exprFrom: number, forced?: RepositoryKind, nexus?: boolean): void => {
    for (const u of urlsOf(s.tokens.slice(exprFrom), vars, properties)) {
      const block = s.path[s.path.length - 1];
      if (block !== undefined && !urlByBlock.has(block)) urlByBlock.set(block, u.url);
      const repo: RepositoryUrl = { url: u.url, kind: kindOf(u.url, u.via, forced), line: s.line };
      if (u.via !== undefined) repo.via = u.via;
      if (u.property !== undefined) repo.property = u.property;
      if (nexus === true) repo.nexus = true;
      // `create("myNexus") { ... }` names a gradle-nexus repository by its argument. Other plugins
      // (Codearte's nexusStaging, the old nexusPublishing { serverUrl }, JReleaser's nexus2) do not.
      const name = block !== undefined && ['create', 'register', 'maybeCreate'].includes(block.name) ? block.arg : block?.name;
      if (nexus === true && name !== undefined && name !== 'nexusPublishing' && blockIndex(s.path, ['nexusPublishing']) >= 0) repo.nexusRepository = name;
      result.repositories.push(repo);
      if (block !== undefined) repoBlocks.set(repo, block);
    }
  };
  // `maven { name = 'nexus'; url = ... }`: the name, set anywhere in the block, belongs to its URL.
  const repoBlocks = new Map<RepositoryUrl, Block>();
  const blockNames = new Map<Block, string>();

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
    result.warTask ??= warTaskLine(s);
    if (versionStatement(s, result, constants)) continue;
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
      // Each argument (key id, key, password) is there when any name it reads is set (`a ?: b`).
      const args = callArguments(s.tokens, 'useInMemoryPgpKeys').map((a) => referencesIn(a, scope));
      result.inMemorySigning = { line: s.line, refs: referencesIn(s.tokens, scope), args };
      continue;
    }
    if (innermost === 'release' && startsWith(s, 'tagTemplate')) {
      const tpl = s.tokens.find((t) => t.kind === 'string');
      // Kotlin writes a literal `$` as `${'$'}`: `"v${'$'}{version}"` is the template `v${version}`.
      if (tpl !== undefined) result.tagTemplate = tpl.text.replace(/\$\{\s*'\$'\s*\}/g, '$');
      continue;
    }
    // The Codearte nexus-staging plugin closes and releases on `serverUrl` (default: the retired host).
    if (first?.text === 'nexusStaging' && s.tokens.length === 1) stagingOpener ??= s.line;
    if (blockIndex(path, ['nexusStaging']) >= 0 && first?.text === 'serverUrl') {
      const before = result.repositories.length;
      addRepo(s, 1, 'release', true);
      for (const r of result.repositories.slice(before)) r.nexusStaging = true;
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
    // de.marcphilipp.nexus-publish before 0.4.0: `nexusPublishing { serverUrl = uri(...) }`, no repositories block.
    if (innermost === 'nexusPublishing' && (first?.text === 'serverUrl' || first?.text === 'snapshotRepositoryUrl')) {
      addRepo(s, 1, first.text === 'serverUrl' ? 'release' : 'snapshot', true);
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
    if (first.text === 'name' && innermost === 'maven') {
      const named = s.tokens.find((t) => t.kind === 'string' && t.dynamic !== true);
      if (named !== undefined) blockNames.set(path[path.length - 1]!, named.text);
      continue;
    }
    if (first.text === 'url' || first.text === 'setUrl') addRepo(s, 1);
    else if (first.text === 'maven' && s.tokens[1]?.text === '(' && innermost === 'repositories') addRepo(s, 1);
    else if (innermost === 'mavenDeployer' && (first.text === 'repository' || first.text === 'snapshotRepository')) {
      addRepo(s, 1, first.text === 'repository' ? 'release' : 'snapshot');
    }
  }
  for (const [repo, block] of repoBlocks) {
    const name = blockNames.get(block);
    if (name !== undefined) repo.name = name;
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
    result.repositories.push({ url: nexusSonatypeDefault, kind: 'release', line: d.line, implicit: true, nexus: true, nexusRepository: 'sonatype' });
  }
  // `nexusStaging { }` without a serverUrl: the plugin's default, the retired host.
  if (stagingOpener !== undefined && !stagingServerUrl) {
    result.repositories.push({ url: nexusSonatypeDefault, kind: 'release', line: stagingOpener, implicit: true, nexus: true, nexusStaging: true });
  }
  const credentials = credentialSources(all, scope);
  for (const c of credentials) {
    const url = c.block === undefined ? undefined : (urlByBlock.get(c.block) ?? (isUrlLike(c.block.arg ?? '') ? c.block.arg : undefined));
    if (url !== undefined) c.url = url;
  }
  if (credentials.length > 0) result.credentials = credentials;
  return result;
}
