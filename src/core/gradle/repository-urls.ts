import type { Token } from './lexer.js';
import type { Statement } from './statements.js';
import type { RepositoryKind } from './build-script-model.js';
import { assignedName } from './version-statements.js';

// Publishing repository URLs in Gradle expressions: literals, GStrings, variables, functions that
// return one, Gradle properties and property-test defaults, without running the build.

const retiredHostPrefix = /^\s*https?:\/\/(s01\.)?oss\.sonatype\.org(:\d+)?\//i;

// Identifiers inside a URL expression that are code, not a variable holding the URL.
const notVariables = new Set([
  'url', 'setUrl', 'uri', 'file', 'if', 'else', 'project', 'rootProject', 'version', 'endsWith', 'contains',
  'toString', 'findProperty', 'property', 'providers', 'gradleProperty', 'get', 'set', 'orNull', 'it', 'URI',
  'new', 'create', 'java', 'net', 'nexusUrl', 'snapshotRepositoryUrl', 'repository', 'snapshotRepository', 'maven',
  'true', 'false', 'null', 'this', 'ext', 'extra', 'isSnapshot', 'as', 'String', 'def', 'val', 'var',
]);

export function isUrlLike(s: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(s.trim());
}

export interface UrlSource {
  url: string;
  line: number;
  /** The default of a property test: setting this Gradle property replaces the URL. */
  property?: string;
  /** Set as an extra property (`ext`), so visible beyond this script. */
  ext?: boolean;
}

/** A URL an expression yields; `property` names the Gradle property that would replace it (`hasProperty('X') ? X : default`). */
interface UrlFound {
  url: string;
  via?: string;
  property?: string;
}

/** URL strings of an expression, resolving identifiers through script variables and Gradle properties. */
export function urlsOf(
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

export function kindOf(url: string, via: string | undefined, forced?: RepositoryKind): RepositoryKind {
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
export function collectVariables(all: readonly Statement[], props: ReadonlyMap<string, string>): Map<string, UrlSource[]> {
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
