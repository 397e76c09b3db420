/**
 * The Gradle side of the next-snapshot fix: the version changes where preflight read it (the
 * finding's file and line: `version=` in gradle.properties, a `version = "..."` literal in the
 * root build script, a version file, a catalog entry). A version the build computes is left alone.
 */
import { tokenize } from '../../core/gradle/lexer.js';
import type { FixPlan, FixSource } from '../../core/fix/types.js';
import type { FixContext } from './types.js';
import { declined, replaceEdit } from './edits.js';

type Code = 'not-snapshot' | 'orphan-tag';

/** Start offset of 1-based `line` (lines end at \n, \r\n or \r), or undefined past the end. */
function lineRange(text: string, line: number): { start: number; end: number } | undefined {
  let start = 0;
  for (let n = 1; n < line; n++) {
    const m = /\r\n|\r|\n/g;
    m.lastIndex = start;
    const hit = m.exec(text);
    if (hit === null) return undefined;
    start = hit.index + hit[0].length;
  }
  const rest = text.slice(start).search(/[\r\n]/);
  return { start, end: rest === -1 ? text.length : start + rest };
}

/** A string literal on `line` of a build script whose value, written without escapes, is `value`. */
function scriptLiteral(source: FixSource, line: number, value: string): { start: number; end: number } | undefined {
  const hits = tokenize(source.text).filter((t) => t.kind === 'string' && t.line === line && t.dynamic !== true && t.text.trim() === value && t.start !== undefined);
  if (hits.length !== 1) return undefined;
  const t = hits[0]!;
  const inner = source.text.slice(t.start!, t.end!);
  const at = inner.indexOf(value);
  // A quote of 1 or 3 characters, the value written as is (no escape inside it).
  return at > 0 && inner.indexOf(value, at + 1) === -1 ? { start: t.start! + at, end: t.start! + at + value.length } : undefined;
}

/** `value` standing alone once on `line` of a properties, catalog or version file (not in a comment). */
function plainValue(source: FixSource, line: number, value: string): { start: number; end: number } | undefined {
  const r = lineRange(source.text, line);
  if (r === undefined) return undefined;
  const text = source.text.slice(r.start, r.end);
  if (/^\s*[#!]/.test(text)) return undefined;
  const escaped = value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const hits = [...text.matchAll(new RegExp(`(?<![\\w.+-])${escaped}(?![\\w.+-])`, 'g'))];
  if (hits.length !== 1) return undefined;
  return { start: r.start + hits[0]!.index, end: r.start + hits[0]!.index + value.length };
}

export function gradleVersionEdits(ctx: FixContext, code: Code, next: { version: string; from: string }): FixPlan {
  const release = ctx.facts.release ?? {};
  const finding = ctx.findings.find((f) => f.code === code);
  const file = release.versionFile;
  const line = release.versionLine;
  if (release.versionComputed === true || file === undefined || line === undefined) {
    return { edits: [], declined: [declined(code, `the build computes its version: set ${next.version} where it comes from`, finding)] };
  }
  const source = ctx.read(file);
  if (source === undefined) return { edits: [], declined: [declined(code, `${file} could not be read`, finding)] };
  const range = /\.gradle(\.kts)?$/.test(file) ? scriptLiteral(source, line, next.from) : plainValue(source, line, next.from);
  if (range === undefined) {
    return { edits: [], declined: [declined(code, `the version at ${file}:${line} is not a literal ${next.from}: set ${next.version} there by hand`, { file, line })] };
  }
  return { edits: [replaceEdit(source, range.start, range.end, next.version, code, next.from, next.version)], declined: [] };
}
