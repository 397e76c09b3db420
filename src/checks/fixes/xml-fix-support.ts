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

/** The element path from the root to the first element whose start tag is on `line` (document order). */
export function pathAtLine(root: XmlElement, line: number): XmlElement[] | undefined {
  if (root.line === line) return [root];
  for (const c of root.children) {
    // Children are in document order: skip those that end before the line (their last descendant starts earlier).
    const found = pathAtLine(c, line);
    if (found !== undefined) return [root, ...found];
  }
  return undefined;
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
