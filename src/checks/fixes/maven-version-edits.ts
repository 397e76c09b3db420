/**
 * The Maven side of the next-snapshot fix: what `mvn versions:set -DnewVersion=...` changes, as
 * text edits. A literal version changes in every reactor POM that carries it (the module's own
 * `<version>` and its `<parent><version>` when that parent is a reactor module); a CI-friendly
 * version (`${revision}${sha1}${changelist}`) keeps its expression and `revision` changes where it
 * is set (`.mvn/maven.config` `-Drevision=`, which wins, else the top-level POM's `<properties>`).
 */
import type { FixEdit, FixPlan, FixSource } from '../../core/fix/types.js';
import { parseXml } from '../../core/pom/xml.js';
import type { MavenModuleFacts } from '../../build-tools/maven/facts.js';
import type { FixContext } from './types.js';
import { declined, replaceEdit, trimmedRange } from './edits.js';
import { elementAt, isEmptyTag } from './xml-fix-support.js';

type Code = 'not-snapshot' | 'orphan-tag';
const ciFriendly = new Set(['revision', 'sha1', 'changelist']);

function elementValue(source: FixSource, path: readonly string[]): { start: number; end: number; value: string } | undefined {
  const parsed = parseXml(source.text);
  const el = parsed.ok ? elementAt(parsed.root, path) : undefined;
  return el === undefined || isEmptyTag(el) ? undefined : trimmedRange(source.text, el.contentStart, el.contentEnd);
}

export function mavenVersionEdits(ctx: FixContext, code: Code, next: { version: string; from: string }): FixPlan {
  const modules = ctx.facts.maven!.modules;
  const top = modules.find((m) => m.topLevel);
  const finding = ctx.findings.find((f) => f.code === code);
  const source = top === undefined ? undefined : ctx.read(top.file);
  if (top === undefined || source === undefined) return { edits: [], declined: [declined(code, 'the top-level POM could not be read', finding)] };
  const own = elementValue(source, ['project', 'version']);
  if (own === undefined) {
    return { edits: [], declined: [declined(code, `${top.file} inherits its version from its parent: add <version>${next.version}</version> after its <artifactId>`, finding)] };
  }
  if (own.value.includes('${')) return revisionEdits(ctx, code, next, top, source, own.value);
  const edits: FixEdit[] = [];
  // Reactor POMs by file: a parent<version> follows only when that parent is one of them.
  const reactorFiles = new Set(modules.map((m) => m.file));
  for (const m of modules) {
    const text = m === top ? source : ctx.read(m.file);
    if (text === undefined) continue;
    const version = elementValue(text, ['project', 'version']);
    if (version !== undefined && version.value === own.value) edits.push(replaceEdit(text, version.start, version.end, next.version, code, own.value, next.version));
    const parentFile = m.chain[1]?.file;
    const parent = elementValue(text, ['project', 'parent', 'version']);
    if (parent !== undefined && parent.value === own.value && parentFile !== undefined && reactorFiles.has(parentFile)) {
      edits.push(replaceEdit(text, parent.start, parent.end, next.version, code, own.value, next.version));
    }
  }
  return { edits, declined: [] };
}

/** `-Dname=value` in `.mvn/maven.config`: the value's range (quotes excluded). */
function configProperty(source: FixSource, name: string): { start: number; end: number; value: string } | undefined {
  const re = new RegExp(`(^|\\s)-D${name.replace(/\./g, '\\.')}=("([^"]*)"|(\\S*))`, 'g');
  let found: { start: number; end: number; value: string } | undefined;
  // The last one wins, as on Maven's command line.
  for (const m of source.text.matchAll(re)) {
    const quoted = m[3] !== undefined;
    const value = quoted ? m[3]! : m[4]!;
    const start = m.index + m[1]!.length + `-D${name}=`.length + (quoted ? 1 : 0);
    found = { start, end: start + value.length, value };
  }
  return found;
}

function revisionEdits(ctx: FixContext, code: Code, next: { version: string }, top: MavenModuleFacts, pom: FixSource, expression: string): FixPlan {
  const finding = ctx.findings.find((f) => f.code === code);
  const names = [...expression.matchAll(/\$\{([^}]*)\}/g)].map((m) => m[1]!);
  if (names.some((n) => !ciFriendly.has(n)) || names.filter((n) => n === 'revision').length !== 1) {
    return { edits: [], declined: [declined(code, `the version ${expression} is not a CI-friendly \${revision} version: set ${next.version} where its properties are defined`, finding)] };
  }
  const config = ctx.read('.mvn/maven.config');
  const valueOf = (name: string): string => (config === undefined ? undefined : configProperty(config, name)?.value) ?? top.effective.properties.get(name) ?? '';
  const [before, after] = expression.split('${revision}') as [string, string];
  const fill = (s: string): string => s.replace(/\$\{([^}]*)\}/g, (_m, n: string) => valueOf(n));
  const prefix = fill(before);
  const suffix = fill(after);
  if (!next.version.startsWith(prefix) || !next.version.endsWith(suffix) || next.version.length <= prefix.length + suffix.length) {
    return { edits: [], declined: [declined(code, `${next.version} cannot be written as ${expression} with only revision changed: set sha1/changelist by hand`, finding)] };
  }
  const revision = next.version.slice(prefix.length, next.version.length - suffix.length);
  const inConfig = config === undefined ? undefined : configProperty(config, 'revision');
  if (inConfig !== undefined) return { edits: [replaceEdit(config!, inConfig.start, inConfig.end, revision, code, inConfig.value, revision)], declined: [] };
  const inPom = elementValue(pom, ['project', 'properties', 'revision']);
  if (inPom !== undefined) return { edits: [replaceEdit(pom, inPom.start, inPom.end, revision, code, inPom.value, revision)], declined: [] };
  return { edits: [], declined: [declined(code, `revision is not set in ${top.file} <properties> nor in .mvn/maven.config: set it to ${revision} where it is defined`, finding)] };
}
