/**
 * How a Gradle script applies plugins and reads properties, statement by statement: the plugins
 * block (ids, versions, catalog aliases), `apply plugin:` / `apply from:`. Pure helpers of
 * build-script.ts (the names a statement reads are in credential-refs.ts).
 */
import type { Token } from './lexer.js';
import { constantStrings, type Statement } from './statements.js';
import type { AppliedScript } from './build-script.js';

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

export function pluginsFromBlock(s: Statement): string | undefined {
  const [first, second] = s.tokens;
  if (first === undefined || first.kind !== 'ident') return undefined;
  const texts = s.tokens.map((t) => t.text);
  const applyAt = texts.indexOf('apply');
  if (applyAt > 0 && texts[applyAt + 1] === 'false') return undefined; // declared, not applied
  if (first.text === 'id') return constantStrings(s.tokens)[0]?.text;
  if (first.text === 'kotlin') {
    const name = constantStrings(s.tokens)[0]?.text;
    return name === undefined ? undefined : `org.jetbrains.kotlin.${name}`;
  }
  if (first.text === 'alias') return undefined; // version-catalog alias: see aliasOf
  // A bare name (`java`, `war`, `` `maven-publish` ``): the statement is just that name.
  if (second === undefined || (second.kind === 'ident' && (second.text === 'version' || second.text === 'apply'))) return first.text;
  return undefined;
}

/** `apply plugin: 'war'`, `apply(plugin = "war")`, `apply plugin: WarPlugin`, `pluginManager.apply("war")`. */
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
    if (t[i - 1]?.text === '.' && t[i - 2]?.text === 'pluginManager' && t[j]?.kind === 'string') return t[j]!.text;
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

