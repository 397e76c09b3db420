/**
 * Statements of a Groovy build that set the version outside the plain top-level `version = '...'`
 * (which parseBuildScript reads itself) and that configure the war task. Pure helpers of
 * build-script.ts.
 */
import type { Token } from './lexer.js';
import type { Statement } from './statements.js';
import type { BuildScript } from './build-script-model.js';

type Constants = ReadonlyMap<string, { value: string; line: number }>;

/** Index of the name a statement assigns: `def x =`, `ext.x =`, `x =` inside `ext { }`; -1 otherwise. */
export function assignedName(s: Statement): number {
  const t = s.tokens;
  if (t[0]?.kind === 'ident' && ['def', 'val', 'var', 'String'].includes(t[0].text) && t[1]?.kind === 'ident') return 1;
  if (t[0]?.text === 'ext' && t[1]?.text === '.' && t[2]?.kind === 'ident') return 2;
  if (s.path[s.path.length - 1]?.name === 'ext' && t[0]?.kind === 'ident' && t[1]?.text === '=') return 0;
  return -1;
}

/** `ext { hibernateTargetVersion = '4.3.12.Final-SNAPSHOT' }`, `def v = '1.0'`: names bound to one constant string. */
export function collectConstants(all: readonly Statement[]): Map<string, { value: string; line: number }> {
  const out = new Map<string, { value: string; line: number }>();
  for (const s of all) {
    const at = assignedName(s);
    const t = s.tokens;
    if (at < 0 || t[at + 1]?.text !== '=' || t.length !== at + 3) continue;
    const v = t[at + 2]!;
    if (v.kind === 'string' && v.dynamic !== true) out.set(t[at]!.text, { value: v.text, line: v.line });
  }
  return out;
}

/** `ext { user = System.getProperty('user') }`, `ext.user = System.getProperty("user")`: extra property name -> system property. */
export function extSystemProperties(all: readonly Statement[]): Record<string, string> | undefined {
  let out: Record<string, string> | undefined;
  for (const s of all) {
    const at = assignedName(s);
    const t = s.tokens;
    // `def x = ...` is the script's own variable, read (and judged) within it.
    if (at < 0 || at === 1 || t[at + 1]?.text !== '=') continue;
    const [owner, dot, fn, open, arg, close] = t.slice(at + 2);
    if (t.length !== at + 8 || owner?.text !== 'System' || dot?.text !== '.' || fn?.text !== 'getProperty' || open?.text !== '(' || close?.text !== ')') continue;
    if (arg?.kind === 'string' && arg.dynamic !== true) (out ??= {})[t[at]!.text] = arg.text;
  }
  return out;
}

/** `file('version.txt').text.trim()`, `rootProject.file('v.txt').text`, `new File(rootDir, 'version.txt').text`. */
function versionFileOf(rest: readonly Token[]): { path: string; fromRoot: boolean } | undefined {
  const at = rest.findIndex((t, k) => t.kind === 'ident' && (t.text === 'file' || t.text === 'File') && rest[k + 1]?.text === '(');
  if (at < 0 || !rest.some((t, k) => k > at && t.kind === 'ident' && t.text === 'text')) return undefined;
  const close = rest.findIndex((t, k) => k > at && t.text === ')');
  const args = rest.slice(at + 2, close < 0 ? undefined : close);
  const name = args.filter((t) => t.kind === 'string').pop();
  if (name === undefined || name.dynamic === true) return undefined;
  const fromRoot = rest[at - 2]?.text === 'rootProject' || args.some((t) => t.text === 'rootDir' || t.text === 'rootProject');
  return { path: name.text, fromRoot };
}

/** `version = rootProject.hibernateTargetVersion` / `version = projectVersion`: a constant set above. */
function constantOf(rest: readonly Token[], constants: Constants): { value: string; line: number } | undefined {
  const named = rest[0]?.text === '=' ? rest.slice(1) : rest;
  const ref = named.length === 1 ? named[0] : named.length === 3 && /^(rootProject|project)$/.test(named[0]!.text) && named[1]!.text === '.' ? named[2] : undefined;
  return ref?.kind === 'ident' ? constants.get(ref.text) : undefined;
}

/**
 * Reads `version`/`group` set from a constant or a version file at the top (or in `allprojects {}`),
 * and any set in `subprojects {}` (the version every published module carries; one set at the top
 * wins). True when the statement is handled here; a plain top-level one is left to the caller.
 */
export function versionStatement(s: Statement, result: Pick<BuildScript, 'version' | 'group' | 'versionFile' | 'versionComputed' | 'versionName'>, constants: Constants): boolean {
  const top = s.path.every((b) => b.name === 'allprojects');
  const shared = !top && s.path.every((b) => b.name === 'allprojects' || b.name === 'subprojects');
  // `project.version = ...` (javers, uPortal-web-components) is `version = ...` written long.
  const qualified = s.tokens[0]?.text === 'project' && s.tokens[1]?.text === '.';
  const tokens = qualified ? s.tokens.slice(2) : s.tokens;
  const first = tokens[0];
  if (!(top || shared) || first?.kind !== 'ident' || (first.text !== 'version' && first.text !== 'group')) return false;
  const key = first.text;
  const called = tokens[1]?.text === '(';
  // `version('1.0')` is `version '1.0'` with parentheses; `version(major = 3, ...)` (caffeine)
  // calls a build function that computes the version: set, but only at build time.
  const rest = called && tokens.length === 4 && tokens[3]?.text === ')' ? [tokens[2]!] : tokens.slice(1);
  if (called && rest.length > 1) {
    if (key === 'version' && (top || (shared && result.version === undefined))) computed(result, s);
    return true;
  }
  const value = rest[0]?.text === '=' ? rest[1] : rest[0];
  const literal = value?.kind === 'string' && value.dynamic !== true && (rest.length === 1 || rest.length === 2) ? value : undefined;
  const constant = constantOf(rest, constants);
  const fromFile = key === 'version' ? versionFileOf(rest) : undefined;
  // `version = projectVersion`, `version = "${projectVersion}"`: a Groovy reference to a Gradle property.
  const named = rest[0]?.text === '=' && rest.length === 2 ? propertyNameOf(rest[1]!) : undefined;
  if (key === 'version' && named !== undefined && constant === undefined && result.versionName === undefined) result.versionName = { name: named, line: s.line };
  if (top && called && literal !== undefined) result[key] = { value: literal.text, line: literal.line };
  if (top && !qualified && !called && (literal !== undefined || (constant === undefined && fromFile === undefined))) return false;
  if (shared && (result[key] !== undefined || (key === 'version' && (result.versionComputed !== undefined || result.versionFile !== undefined)))) return true;
  if (literal !== undefined) result[key] = { value: literal.text, line: literal.line };
  else if (constant !== undefined) result[key] = constant;
  else if (fromFile !== undefined) result.versionFile = { ...fromFile, line: s.line };
  // Anything else (`scmVersion.version`, `parsedJson.version + '-SNAPSHOT'`) is set at build time.
  else if (key === 'version' && rest[0]?.text === '=' && rest.length >= 2) computed(result, s);
  return true;
}

/** Records a version set at build time, with what sets it (the first one found wins). */
export function computed(result: Pick<BuildScript, 'versionComputed' | 'versionComputedHow'>, s: Statement): void {
  if (result.versionComputed !== undefined) return;
  result.versionComputed = s.line;
  result.versionComputedHow = computedHow(s.tokens);
}

/**
 * What a version expression reads, in words: an environment variable (`System.getenv("V")`,
 * `providers.environmentVariable("V")`), axion-release's `scmVersion`, a condition
 * (`if (release) v else "$v-SNAPSHOT"`), or a function call.
 */
export function computedHow(tokens: readonly Token[]): string {
  const texts = tokens.map((t) => t.text);
  const env = texts.findIndex((t, i) => t === 'getenv' || t === 'environmentVariable' || (t === 'env' && texts[i - 2] === 'System'));
  if (env >= 0) {
    const name = tokens.slice(env + 1).find((t) => t.kind === 'string' || (t.kind === 'ident' && texts[env] === 'env'))?.text;
    return name === undefined ? 'an environment variable' : `the environment variable ${name}`;
  }
  if (texts.includes('scmVersion')) return 'axion-release (scmVersion.version)';
  if (texts.includes('if') || (texts.includes('?') && texts.includes(':'))) return 'a condition (if ... else ...)';
  const call = tokens.findIndex((t, i) => t.kind === 'ident' && texts[i + 1] === '(' && t.text !== 'version');
  if (call >= 0) return `${texts[call]}(...)`;
  // `version = Ci.publishVersion`: a value some build logic holds, named as written.
  const value = tokens.slice(texts.indexOf('=') + 1);
  if (value.length > 0 && value.length <= 7 && value.every((t) => t.kind === 'ident' || t.text === '.')) return value.map((t) => t.text).join('');
  return 'an expression';
}

/** `projectVersion` or `"${projectVersion}"` / `"$projectVersion"`: the one name an expression reads. */
function propertyNameOf(t: Token): string | undefined {
  if (t.kind === 'ident' && !/^(version|null|true|false)$/.test(t.text)) return t.text;
  if (t.kind === 'string' && t.dynamic === true) return /^\$\{?\s*(\w+)\s*\}?$/.exec(t.text.trim())?.[1];
  return undefined;
}

/** A top-level `war { ... }` block or `war.dependsOn ...`: the war task is configured, so the war plugin is applied. */
export function warTaskLine(s: Statement): number | undefined {
  const path = s.path;
  if (path[0]?.name === 'war' && path.length === 1) return s.line;
  if (path.length === 0 && s.tokens[0]?.text === 'war' && s.tokens[1]?.text === '.') return s.line;
  return undefined;
}
