/**
 * Text edits on an XML descriptor that keep everything around them: the line ending and
 * indentation around the edit (text-style.ts) and the file's indentation unit (tabs or N spaces).
 * Positions are the scanner's element offsets (XmlElement start/content/end), the one XML position
 * source of `preflight --fix`; nothing is re-serialised. Pure.
 */
import type { XmlElement } from '../pom/xml.js';
import { endsLine, indentBefore, lineEndOf, lineEndingAt } from './text-style.js';

/** A new element to write: text content, or children (one per line). */
export interface NewElement {
  name: string;
  text?: string;
  children?: NewElement[];
}

/** What an insertion or replacement adds at one offset. */
export interface XmlEdit {
  start: number;
  end: number;
  replacement: string;
}

/**
 * One level of indentation as the file writes it: the difference between an element's and its
 * first child's indentation, looked for around `near` first, then anywhere from the root down.
 */
export function indentUnit(text: string, near: XmlElement, root: XmlElement): string {
  for (const el of [near, root, ...root.children]) {
    const own = indentBefore(text, el.start) ?? '';
    for (const c of el.children) {
      const inner = indentBefore(text, c.start);
      if (inner !== undefined && inner.length > own.length && inner.startsWith(own)) return inner.slice(own.length);
    }
  }
  return '  ';
}

export function escapeXml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Renders elements one per line at `indent`, each line ended with `eol` (`unit` per level). */
export function renderElements(elements: readonly NewElement[], indent: string, unit: string, eol: string): string {
  let out = '';
  for (const e of elements) {
    if (e.children === undefined) out += `${indent}<${e.name}>${escapeXml(e.text ?? '')}</${e.name}>${eol}`;
    else out += `${indent}<${e.name}>${eol}${renderElements(e.children, indent + unit, unit, eol)}${indent}</${e.name}>${eol}`;
  }
  return out;
}

/** The same elements on one line, for a parent written on one line. */
export function renderInline(elements: readonly NewElement[]): string {
  return elements
    .map((e) => (e.children === undefined ? `<${e.name}>${escapeXml(e.text ?? '')}</${e.name}>` : `<${e.name}>${renderInline(e.children)}</${e.name}>`))
    .join('');
}

interface Layout {
  text: string;
  root: XmlElement;
}

/** Inserts `elements` as the children right after `sibling`, on the lines after its own. */
export function insertAfter(doc: Layout, parent: XmlElement, sibling: XmlElement, elements: readonly NewElement[]): XmlEdit {
  const { text } = doc;
  const indent = indentBefore(text, sibling.start);
  const eolAt = lineEndOf(text, sibling.end);
  // Only when the sibling ends its line (a trailing comment may follow it) can whole lines go after it.
  if (indent === undefined || eolAt === text.length || !endsLine(text, sibling.end)) {
    return { start: sibling.end, end: sibling.end, replacement: renderInline(elements) };
  }
  const eol = lineEndingAt(text, sibling.end);
  const unit = indentUnit(text, parent, doc.root);
  return { start: eolAt + eol.length, end: eolAt + eol.length, replacement: renderElements(elements, indent, unit, eol) };
}

/** Inserts `elements` as the first children of `parent` (right after its start tag). */
export function insertFirst(doc: Layout, parent: XmlElement, elements: readonly NewElement[]): XmlEdit {
  const { text } = doc;
  const first = parent.children[0];
  const unit = indentUnit(text, parent, doc.root);
  const own = indentBefore(text, parent.start);
  const eolAt = text.indexOf('\n', parent.contentStart);
  const opensLine = eolAt !== -1 && eolAt < parent.contentEnd && /^[ \t\r]*$/.test(text.slice(parent.contentStart, eolAt));
  if (parent.contentStart === parent.end) {
    // `<servers/>`: the empty-element tag becomes a start and an end tag around the new children.
    const open = text.slice(parent.start, parent.end - 2).trimEnd();
    const qname = /^<([^\s/>]+)/.exec(open)?.[1] ?? parent.name;
    return { start: parent.start, end: parent.end, replacement: `${open}>${renderInline(elements)}</${qname}>` };
  }
  if (own === undefined || !opensLine) {
    return { start: parent.contentStart, end: parent.contentStart, replacement: renderInline(elements) };
  }
  const indent = (first === undefined ? undefined : indentBefore(text, first.start)) ?? own + unit;
  return { start: eolAt + 1, end: eolAt + 1, replacement: renderElements(elements, indent, unit, lineEndingAt(text, parent.contentStart)) };
}

/** Inserts `elements` as the last children of `parent` (right before its end tag). */
export function appendLast(doc: Layout, parent: XmlElement, elements: readonly NewElement[]): XmlEdit {
  const last = parent.children[parent.children.length - 1];
  if (last !== undefined) return insertAfter(doc, parent, last, elements);
  return insertFirst(doc, parent, elements);
}

/** Replaces an element's text (the part between its leading and trailing whitespace). */
export function replaceText(text: string, el: XmlElement, value: string): XmlEdit {
  const content = text.slice(el.contentStart, el.contentEnd);
  const lead = content.length - content.trimStart().length;
  const trail = content.length - content.trimEnd().length;
  return { start: el.contentStart + lead, end: el.contentEnd - trail, replacement: escapeXml(value) };
}

/** The last child (document order) whose name is one of `names`. */
export function lastOf(parent: XmlElement, names: readonly string[]): XmlElement | undefined {
  let found: XmlElement | undefined;
  for (const c of parent.children) if (names.includes(c.name)) found = c;
  return found;
}
