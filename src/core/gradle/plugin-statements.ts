/**
 * How a Gradle script applies plugins and reads properties, statement by statement: the plugins
 * block (ids, versions, catalog aliases), `apply plugin:` / `apply from:`. Pure helpers of
 * build-script.ts (the names a statement reads are in credential-refs.ts).
 */
import type { Token } from './lexer.js';
import { constantStrings, type Statement } from './statements.js';
import type { AppliedScript } from './build-script-model.js';

export function normalisePluginId(raw: string): string {
  let id = raw.trim();
  if (id.startsWith('org.gradle.')) id = id.slice('org.gradle.'.length);
  if (/^[A-Z]\w*Plugin$/.test(id)) id = id.slice(0, -'Plugin'.length).replace(/([a-z])([A-Z])/g, '$1-$2').toLowerCase();
  return id;
}

/** `version "x"` / `version("x")` after a plugin id in the plugins block. */
export function pluginVersion(s: Statement): string | undefined {
  const t = s.tokens;
  const at = t.findIndex((x) => x.kind === 'ident' && x.text === 'version');
  if (at < 0) return undefined;
  const v = t.slice(at + 1).find((x) => x.kind === 'string' && x.dynamic !== true);
  return v?.text;
}

/** `alias(libs.plugins.gretty)` → `libs.plugins.gretty`. */
export function aliasOf(s: Statement): string | undefined {
  const t = s.tokens;
  if (t[0]?.text !== 'alias' || t[1]?.text !== '(') return undefined;
  const parts: string[] = [];
  for (let i = 2; i < t.length && t[i]!.text !== ')'; i++) parts.push(t[i]!.text);
  const joined = parts.join('');
  return /^[A-Za-z_][\w.]*$/.test(joined) ? joined : undefined;
}

/** Where `apply false` / `.apply(false)` starts in a plugins-block statement, or -1. */
export function applyFalseAt(tokens: readonly Token[]): number {
  for (let i = 1; i < tokens.length; i++) {
    if (tokens[i]!.text !== 'apply' || tokens[i]!.kind !== 'ident') continue;
    const next = tokens[i + 1]?.text === '(' ? tokens[i + 2] : tokens[i + 1];
    if (next?.text === 'false') return tokens[i - 1]?.text === '.' ? i - 1 : i;
  }
  return -1;
}

/**
 * A plugin declared in the root's plugins block with `apply false` (so its version is on the
 * classpath of every project that applies it by bare id): the id or the catalog alias, and the version.
 */
export function declaredPlugin(s: Statement): { id?: string; alias?: string; version?: string } | undefined {
  const at = applyFalseAt(s.tokens);
  if (at < 0) return undefined;
  const head: Statement = { ...s, tokens: s.tokens.slice(0, at) };
  const id = pluginsFromBlock(head);
  const alias = id === undefined ? aliasOf(head) : undefined;
  if (id === undefined && alias === undefined) return undefined;
  const version = pluginVersion(head);
  return { ...(id === undefined ? { alias: alias! } : { id }), ...(version === undefined ? {} : { version }) };
}

/** The precompiled-plugin accessor of the Kotlin DSL: `buildsrc.convention.\`mockk-publishing\``. */
function accessorId(tokens: readonly Token[]): string | undefined {
  if (tokens.length < 3 || tokens.length % 2 === 0) return undefined;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (i % 2 === 0 ? t.kind !== 'ident' : t.text !== '.') return undefined;
  }
  return tokens.filter((_, i) => i % 2 === 0).map((t) => t.text).join('.');
}

/**
 * The Gradle property a top-level `version = ...` reads: `providers.gradleProperty("v").get()`,
 * `property("v") as String`, `findProperty("v").toString()`, `project.property("v")`.
 */
export function versionPropertyOf(expr: readonly Token[]): string | undefined {
  const fnAt = expr.findIndex((t) => t.kind === 'ident' && /^(gradleProperty|property|findProperty|getProperty)$/.test(t.text));
  if (fnAt < 0 || expr[fnAt + 1]?.text !== '(') return undefined;
  if (!expr.slice(0, fnAt).every((t) => t.text === '.' || /^(providers|project|rootProject)$/.test(t.text))) return undefined;
  const name = expr[fnAt + 2];
  if (name?.kind !== 'string' || name.dynamic === true || expr[fnAt + 3]?.text !== ')') return undefined;
  // Anything else than a plain read (`.get()`, `as String`, `.toString()`, `!!`) computes a new value.
  const rest = expr.slice(fnAt + 4).map((t) => t.text).join('');
  return /^(\.get\(\)|\.orNull|\.toString\(\)|!!|asString\??)*$/.test(rest) ? name.text : undefined;
}

/**
 * Script values that are Gradle properties: `val libVersion: String by project` (Kotlin property
 * delegation) and `val v = providers.gradleProperty("x").get()`, by value name → property name.
 */
export function propertyValues(all: readonly Statement[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const s of all) {
    const t = s.tokens;
    if (t[0]?.text !== 'val' || t[1]?.kind !== 'ident') continue;
    const by = t.findIndex((x) => x.text === 'by');
    if (by > 1 && t[by + 1]?.text === 'project' && t.length === by + 2) out.set(t[1].text, t[1].text);
    const eq = t.findIndex((x) => x.text === '=');
    const name = eq > 1 ? versionPropertyOf(t.slice(eq + 1)) : undefined;
    if (name !== undefined) out.set(t[1].text, name);
  }
  return out;
}

/** vanniktech `coordinates("g", "a", "1.2.3")` or `coordinates(version = "1.2.3")`: the constant version, if any. */
export function coordinatesVersionOf(tokens: readonly Token[]): string | undefined {
  const at = tokens.findIndex((t, i) => t.kind === 'ident' && t.text === 'coordinates' && tokens[i + 1]?.text === '(' && tokens[i - 1]?.text !== '.');
  if (at < 0) return undefined;
  const args: Token[][] = [[]];
  for (let i = at + 2, depth = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.text === '(') depth++;
    if (t.text === ')' && depth-- === 0) break;
    if (t.text === ',' && depth === 0) args.push([]);
    else args[args.length - 1]!.push(t);
  }
  const named = args.find((a) => a[0]?.text === 'version' && a[1]?.text === '=');
  const arg = named !== undefined ? named.slice(2) : args[2];
  return arg?.length === 1 && arg[0]!.kind === 'string' && arg[0]!.dynamic !== true ? arg[0]!.text : undefined;
}

/** `version = libs.versions.my.lib.get()`: the catalog version accessor it reads (`my.lib`). */
export function versionCatalogKeyOf(expr: readonly Token[]): string | undefined {
  const texts = expr.map((t) => t.text);
  if (texts[1] !== '.' || texts[2] !== 'versions' || texts[3] !== '.' || texts.slice(-4).join('') !== '.get()') return undefined;
  const middle = expr.slice(4, -4);
  if (middle.length === 0 || middle.some((t, i) => (i % 2 === 0 ? t.kind !== 'ident' : t.text !== '.'))) return undefined;
  return middle.filter((_, i) => i % 2 === 0).map((t) => t.text).join('.');
}

export function pluginsFromBlock(s: Statement): string | undefined {
  const [first, second] = s.tokens;
  if (first === undefined || first.kind !== 'ident') return undefined;
  if (applyFalseAt(s.tokens) >= 0) return undefined; // declared, not applied
  if (first.text === 'id') return constantStrings(s.tokens)[0]?.text;
  if (first.text === 'kotlin') {
    const name = constantStrings(s.tokens)[0]?.text;
    return name === undefined ? undefined : `org.jetbrains.kotlin.${name}`;
  }
  if (first.text === 'alias') return undefined; // version-catalog alias: see aliasOf
  // A bare name (`java`, `war`, `` `maven-publish` ``): the statement is just that name.
  if (second === undefined || (second.kind === 'ident' && (second.text === 'version' || second.text === 'apply'))) return first.text;
  return accessorId(s.tokens);
}

/**
 * `apply plugin: 'war'`, `apply(plugin = "war")`, `apply plugin: WarPlugin`, `pluginManager.apply("war")`,
 * `project.plugins.apply("war")`, `apply<WarPlugin>()`, `plugins.apply(WarPlugin::class.java)`.
 */
export function appliedPlugin(s: Statement): string | undefined {
  const t = s.tokens;
  for (let i = 0; i < t.length; i++) {
    if (t[i]!.kind !== 'ident' || t[i]!.text !== 'apply') continue;
    let j = i + 1;
    if (t[j]?.text === '(') j++;
    if (t[j]?.kind === 'ident' && t[j]!.text === 'plugin' && (t[j + 1]?.text === ':' || t[j + 1]?.text === '=')) {
      const v = t[j + 2];
      if (v?.kind === 'string' && v.dynamic !== true) return v.text;
      if (v?.kind === 'ident' && /Plugin$/.test(v.text)) return v.text;
    }
    if (t[i - 1]?.text === '.' && (t[i - 2]?.text === 'pluginManager' || t[i - 2]?.text === 'plugins') && t[j]?.kind === 'string') return t[j]!.text;
    // Kotlin: `apply<WarPlugin>()`, `plugins.apply(WarPlugin::class.java)`.
    if (t[i + 1]?.text === '<' && t[i + 2]?.kind === 'ident' && /Plugin$/.test(t[i + 2]!.text) && t[i + 3]?.text === '>') return t[i + 2]!.text;
    if (t[j]?.kind === 'ident' && /Plugin$/.test(t[j]!.text) && t[j + 1]?.text === ':' && t[j + 2]?.text === ':') return t[j]!.text;
  }
  return undefined;
}

/** `apply from: 'x.gradle'`, `apply(from = "x.gradle.kts")`, `apply from: rootProject.file('x')`. */
export function appliedScript(s: Statement): Omit<AppliedScript, 'scope'> | undefined {
  const t = s.tokens;
  for (let i = 0; i < t.length; i++) {
    if (t[i]!.kind !== 'ident' || t[i]!.text !== 'apply') continue;
    let j = i + 1;
    if (t[j]?.text === '(') j++;
    if (t[j]?.kind !== 'ident' || t[j]!.text !== 'from' || (t[j + 1]?.text !== ':' && t[j + 1]?.text !== '=')) continue;
    const rest = t.slice(j + 2);
    const target = rest.find((x) => x.kind === 'string');
    if (target === undefined) return undefined;
    return { path: target.text, fromRoot: rest[0]?.text === 'rootProject', line: s.line };
  }
  return undefined;
}

