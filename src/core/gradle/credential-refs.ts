/**
 * The Gradle properties and environment variables an expression of a build script reads. Real
 * builds name their credentials and signing keys as they like (`System.getenv("SONATYPE_USERNAME")`,
 * `providers.environmentVariable(...)`, `findProperty("ossrhUser") ?: System.getenv(...)`, a Groovy
 * bare `signingKey`, a local `def user = ...`, `ext["x"] = ...`), so preflight checks the names the
 * build reads, not a fixed list. Pure.
 */
import type { ScriptReference } from './build-script-model.js';
import type { Token } from './lexer.js';
import type { Statement } from './statements.js';

const envFunctions = new Set(['getenv', 'env', 'environmentVariable']);
const propertyFunctions = new Set(['findProperty', 'property', 'gradleProperty', 'getProperty', 'hasProperty']);
// Identifiers that are code in a credential expression, never a Gradle property.
const notProperties = new Set([
  'project', 'rootProject', 'providers', 'System', 'it', 'this', 'null', 'true', 'false', 'as', 'is', 'def', 'val', 'var',
  'if', 'else', 'return', 'new', 'ext', 'extra', 'get', 'orNull', 'orElse', 'getOrElse', 'set', 'toString', 'trim',
  'isEmpty', 'isBlank', 'username', 'password', 'properties', 'findProperty', 'property', 'gradleProperty', 'getProperty',
  'hasProperty', 'getenv', 'env', 'environmentVariable', 'by', 'lazy', 'in', 'and', 'or', 'not', 'file', 'text', 'readText',
  'signing', 'useInMemoryPgpKeys',
]);

/** `val user: String? by project` (Kotlin): `user` is the Gradle property of that name. */
function delegatedToProject(t: readonly Token[]): boolean {
  const by = t.findIndex((x) => x.text === 'by');
  return by > 0 && t[by + 1]?.text === 'project';
}

/** A value the script sets from somewhere relctl cannot see (`p.each { k, v -> ext[k] = v }`). */
const unknownValue: Token = { kind: 'punct', text: '<unknown>', line: 0, nl: false };
const extOwners = ['ext', 'extra'];

/** The name an assignment's left side sets as an extra property: `ext.x`, `ext["x"]`, `project.ext.x`, `extra["x"]`; null for `ext[k]`. */
function extTarget(lhs: readonly Token[]): string | null | undefined {
  const at = lhs.findIndex((x) => extOwners.includes(x.text));
  if (at < 0 || (at > 0 && lhs[at - 1]?.text !== '.')) return undefined;
  const rest = lhs.slice(at + 1);
  if (rest[0]?.text === '.' && rest[1]?.kind === 'ident' && rest.length === 2) return rest[1].text;
  if (rest[0]?.text === '[' && rest[2]?.text === ']' && rest.length === 3) return rest[1]!.kind === 'string' && rest[1]!.dynamic !== true ? rest[1]!.text : null;
  return undefined;
}

/**
 * Local variables (`def x = ...`, `val x = ...`, `val X: String get() = ...`) and extra
 * properties (`ext.x = ...`, `ext["x"] = ...`, `ext { x = ... }`) with the expressions they hold;
 * a name assigned twice (`if ... else ...`) holds both, as alternatives.
 */
export function variableExpressions(all: readonly Statement[]): Map<string, readonly Token[]> {
  const vars = new Map<string, readonly Token[]>();
  const extNames = new Set<string>();
  let dynamicExt = false;
  const assign = (name: string, value: readonly Token[]): void => {
    const before = vars.get(name);
    vars.set(name, before === undefined || before.length === 0 ? value : [...before, { kind: 'punct', text: ',', line: 0, nl: false }, ...value]);
  };
  let declared: string | undefined; // a `val X: String` whose value follows as `get() = ...`
  for (const s of all) {
    let t = s.tokens;
    if (declared !== undefined && t[0]?.text === 'get' && t[1]?.text === '(' && t[2]?.text === ')' && t[3]?.text === '=') {
      assign(declared, t.slice(4));
      declared = undefined;
      continue;
    }
    declared = undefined;
    // Parameters of a function or closure (`def publishTo(String user)`, `{ user -> ... }`) are not properties.
    for (const p of parameters(t)) if (!vars.has(p)) vars.set(p, []);
    const arrow = t.findIndex((x, k) => x.text === '-' && t[k + 1]?.text === '>');
    if (arrow >= 0) t = t.slice(arrow + 2);
    const eq = t.findIndex((x, k) => x.text === '=' && t[k + 1]?.text !== '=' && t[k - 1]?.text !== '=' && !['!', '<', '>'].includes(t[k - 1]?.text ?? ''));
    const ext = eq > 0 ? extTarget(t.slice(0, eq)) : undefined;
    if (ext === null) {
      dynamicExt = true;
      continue;
    }
    if (ext !== undefined) {
      extNames.add(ext);
      assign(ext, t.slice(eq + 1));
      continue;
    }
    let nameAt = -1;
    if (t[0]?.kind === 'ident' && ['def', 'val', 'var', 'String'].includes(t[0].text) && t[1]?.kind === 'ident') nameAt = 1;
    else if (s.path[s.path.length - 1]?.name === 'ext' && t[0]?.kind === 'ident' && t[1]?.text === '=') nameAt = 0;
    if (nameAt < 0) continue;
    const name = t[nameAt]!.text;
    if (delegatedToProject(t)) {
      // Read as the equivalent `findProperty("name")`.
      const at = (kind: Token['kind'], text: string): Token => ({ kind, text, line: s.line, nl: false });
      vars.set(name, [at('ident', 'findProperty'), at('punct', '('), at('string', name), at('punct', ')')]);
      continue;
    }
    if (eq > nameAt) assign(name, t.slice(eq + 1));
    else declared = name;
  }
  if (dynamicExt) for (const name of extNames) assign(name, [unknownValue]);
  return vars;
}

/** Names declared as parameters in a statement: `fun f(a: String)`, `def f(String a)`, `a, b ->`. */
function parameters(t: readonly Token[]): string[] {
  const out: string[] = [];
  const arrow = t.findIndex((x, k) => x.text === '-' && t[k + 1]?.text === '>');
  if (arrow > 0) for (const x of t.slice(0, arrow)) if (x.kind === 'ident') out.push(x.text);
  const open = t.findIndex((x) => x.text === '(');
  const fn = t[open - 1];
  if (['fun', 'def', 'void', 'private', 'static'].includes(t[0]?.text ?? '') && fn?.kind === 'ident' && open > 1) {
    for (const args of callArguments(t, fn.text)) {
      const colon = args.findIndex((x) => x.text === ':');
      const name = colon > 0 ? args[colon - 1] : args[args.length - 1];
      if (name?.kind === 'ident') out.push(name.text);
    }
  }
  return out;
}

/**
 * The properties and variables an expression reads, following local variables (a few levels)
 * and, in Groovy, bare names that are project properties (`useInMemoryPgpKeys(signingKey, pass)`).
 */
/** What an expression is read against: the script's variables, and whether it is Kotlin DSL. */
export interface ScriptScope {
  vars: ReadonlyMap<string, readonly Token[]>;
  /** Kotlin has no dynamic properties: a bare name it does not define is code from elsewhere (buildSrc). */
  kotlin: boolean;
}

export function referencesIn(tokens: readonly Token[], scope: ScriptScope = { vars: new Map(), kotlin: false }): ScriptReference[] {
  const refs: ScriptReference[] = [];
  // A source relctl cannot see (a system property, a local.properties file, a parameter) may
  // supply the value: then the expression is not judged at all.
  return collect(tokens, scope, 0, refs) ? refs : [];
}

function collect(tokens: readonly Token[], scope: ScriptScope, depth: number, refs: ScriptReference[]): boolean {
  const vars = scope.vars;
  let readable = true;
  const add = (r: ScriptReference): void => {
    if (!refs.some((x) => x.name === r.name && x.env === r.env)) refs.push(r);
  };
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const prev = tokens[i - 1]?.text;
    if (t.kind === 'punct' && t.text === unknownValue.text) readable = false;
    if (t.kind === 'string') {
      if (t.dynamic === true) continue;
      const fn = prev === '(' || prev === '[' ? (tokens[i - 2]?.text ?? '') : '';
      // `ext["x"]`, `rootProject.ext["x"]`: the script's own extra property; one set by another script is unknown here.
      if (prev === '[' && extOwners.includes(fn)) {
        if (!vars.has(t.text) || !named(t.text)) readable = false;
        continue;
      }
      // `props.getProperty("x")` on a java.util.Properties (local.properties) or System is not a Gradle property.
      const owner = tokens[i - 3]?.text === '.' ? tokens[i - 4] : undefined;
      if ((owner !== undefined && ['getProperty', 'property'].includes(fn) && !['project', 'rootProject', 'it'].includes(owner.text)) || fn === 'systemProperty') readable = false;
      else if (envFunctions.has(fn)) add({ name: t.text, env: true });
      else if (propertyFunctions.has(fn) || ['properties', 'project'].includes(fn)) add({ name: t.text, env: false });
      continue;
    }
    if (t.kind !== 'ident') continue;
    const next = tokens[i + 1]?.text;
    // `System.env.NAME` (Groovy).
    if (prev === '.' && tokens[i - 2]?.text === 'env' && tokens[i - 4]?.text === 'System') {
      add({ name: t.text, env: true });
      continue;
    }
    // `project.name`, `rootProject.ext.name` (not a method call): an extra or Gradle property.
    const owner = tokens[i - 2]?.text ?? '';
    if (prev === '.' && ['project', 'rootProject', ...extOwners].includes(owner) && next !== '(' && !notProperties.has(t.text)) {
      if ((extOwners.includes(owner) && !vars.has(t.text)) || !named(t.text)) readable = false;
      continue;
    }
    if (prev === '.' || next === '(' || next === '.' || next === '{' || notProperties.has(t.text)) continue;
    // A bare lower-case name no script defines is a project property in Groovy; in Kotlin it is code from elsewhere.
    if (vars.has(t.text)) {
      if (!named(t.text)) readable = false;
    } else if (/^[a-z]/.test(t.text)) {
      if (scope.kotlin) readable = false;
      else add({ name: t.text, env: false });
    }
  }
  return readable;

  /** A name: the script's variable or extra property when it defines one, else a Gradle property. */
  function named(name: string): boolean {
    const held = vars.get(name);
    if (held === undefined) {
      add({ name, env: false });
      return true;
    }
    const before = refs.length;
    const ok = depth < 4 && collect(held, scope, depth + 1, refs);
    return ok && refs.length > before; // no name at all: a parameter, a literal, a helper's result
  }
}

/** The arguments of the call `fn(...)` in a statement, split at top-level commas. */
export function callArguments(tokens: readonly Token[], fn: string): Token[][] {
  const at = tokens.findIndex((t, k) => t.text === fn && tokens[k + 1]?.text === '(');
  if (at < 0) return [];
  const args: Token[][] = [[]];
  let depth = 0;
  for (let i = at + 2; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.kind === 'punct' && (t.text === '(' || t.text === '[')) depth++;
    if (t.kind === 'punct' && (t.text === ')' || t.text === ']')) {
      if (depth === 0) break;
      depth--;
    }
    if (t.kind === 'punct' && t.text === ',' && depth === 0) args.push([]);
    else args[args.length - 1]!.push(t);
  }
  return args.filter((a) => a.length > 0);
}
