/** Shared by the Maven fix rules: a descriptor as read, its elements by line, edits with their report. Pure. */
import { lineOf } from '../../core/fix/apply.js';
import type { FixEdit, FixSource } from '../../core/fix/types.js';
import type { XmlEdit } from '../../core/fix/xml-text.js';
import { parseXml, type XmlElement } from '../../core/pom/xml.js';
import type { FixContext } from './types.js';

/** A descriptor's text and element tree (with offsets). */
export interface XmlDoc {
  source: FixSource;
  text: string;
  root: XmlElement;
}

/** Reads and scans a descriptor; undefined when it does not exist or does not parse. */
export function readXml(ctx: Pick<FixContext, 'read'>, file: string): XmlDoc | undefined {
  const source = ctx.read(file);
  if (source === undefined) return undefined;
  const parsed = parseXml(source.text);
  return parsed.ok ? { source, text: source.text, root: parsed.root } : undefined;
}

/**
 * The element path from the root to an element whose start tag is on `line`: the first (document
 * order) whose name is in `prefer`, in that order of preference, else the first on the line. A
 * line may hold several elements (`<repository><id>x</id><url>...</url></repository>`).
 */
export function pathAtLine(root: XmlElement, line: number, prefer: readonly string[] = []): XmlElement[] | undefined {
  const found: XmlElement[][] = [];
  const walk = (el: XmlElement, trail: XmlElement[]): void => {
    const here = [...trail, el];
    if (el.line === line) found.push(here);
    // Children start in document order: past the line, the rest do too.
    for (const c of el.children) {
      if (c.line > line) break;
      walk(c, here);
    }
  };
  walk(root, []);
  for (const name of prefer) {
    const hit = found.find((p) => p[p.length - 1]!.name === name);
    if (hit !== undefined) return hit;
  }
  return found[0];
}

export function childNamed(el: XmlElement | undefined, name: string): XmlElement | undefined {
  return el?.children.find((c) => c.name === name);
}

/** An XmlEdit of `file` as a reported FixEdit (`before`/`after` as a person reads them). */
export function fixEdit(doc: { text: string }, file: string, edit: XmlEdit, code: string, before: string, after: string): FixEdit {
  return { file, start: edit.start, end: edit.end, replacement: edit.replacement, code, line: lineOf(doc.text, edit.start), before, after };
}

/** An inserted snippet's `after` text for reports: one line, indentation dropped. */
export function oneLine(replacement: string): string {
  return replacement.replace(/\r?\n[ \t]*/g, '').trim();
}
