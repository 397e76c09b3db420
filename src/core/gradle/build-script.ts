import { tokenize, type Token } from './lexer.js';
import { blockIndex, startsWith, statements, type Block, type Statement } from './statements.js';
import { aliasOf, appliedPlugin, appliedScript, coordinatesVersionOf, declaredPlugin, normalisePluginId, pluginsFromBlock, pluginVersion, propertyValues, versionCatalogKeyOf, versionPropertyOf } from './plugin-statements.js';
import { collectConstants, computed, extSystemProperties, versionStatement, warTaskLine } from './version-statements.js';
import { callArguments, referencesIn, variableExpressions } from './credential-refs.js';
import { credentialSources } from './credential-sources.js';
import { pomEntries } from './pom-entries.js';
import { nexusSonatypeDefault, type AppliedPlugin, type BuildScript, type PluginScope, type RepositoryKind, type RepositoryUrl } from './build-script-model.js';
import { collectVariables, isUrlLike, kindOf, urlsOf } from './repository-urls.js';

export { normalisePluginId };
export * from './build-script-model.js';

// Blocks whose `url` is POM metadata (project, SCM, license, developer pages), never a repository.
const metadataBlocks = new Set(['pom', 'scm', 'licenses', 'license', 'developers', 'developer', 'organization', 'issueManagement', 'ciManagement', 'project', 'withXml', 'mailingLists', 'contributors']);

/** `create("sonatype")`, `register("sonatype")`: the nexus plugin's sonatype repository by name. */
function namesSonatype(tokens: readonly Token[]): boolean {
  return /^(create|register|maybeCreate)$/.test(tokens[0]?.text ?? '') && tokens[1]?.text === '(' && tokens[2]?.kind === 'string' && tokens[2].text === 'sonatype';
}

const publishingRoots = ['publishing', 'uploadArchives', 'nexusPublishing'];
function scopeOf(path: readonly Block[]): PluginScope {
  for (let i = path.length - 1; i >= 0; i--) {
    const b = path[i]!;
    if (b.name === 'subprojects' || b.name === 'configure') return { kind: 'subprojects' };
    if (b.name === 'allprojects') return { kind: 'allprojects' };
    if (b.name === 'project' && b.arg !== undefined) return { kind: 'project', path: b.arg.startsWith(':') ? b.arg : `:${b.arg}` };
  }
  return { kind: 'self' };
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
  const systemProperties = extSystemProperties(all);
  if (systemProperties !== undefined) result.extSystemProperties = systemProperties;
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
    // At the top or in `allprojects {}` (versionStatement took `project.version = ...` and the
    // shapes it knows; what is left is a literal or an expression).
    const top = path.every((b) => b.name === 'allprojects');
    const first = s.tokens[0];
    if (top && first?.kind === 'ident' && (first.text === 'version' || first.text === 'group')) {
      const rest = s.tokens.slice(1);
      const value = rest[0]?.text === '=' ? rest[1] : rest[0];
      if (value?.kind === 'string' && value.dynamic !== true && (rest.length === 1 || rest.length === 2)) {
        result[first.text] = { value: value.text, line: value.line };
      } else if (first.text === 'version' && rest[0]?.text === '=' && rest.length >= 2) {
        computed(result, s);
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
  const entries = pomEntries(all);
  if (entries.length > 0) result.pomEntries = entries;
  return result;
}
