/**
 * Text edits on an XML descriptor that keep everything around them: the file's own line ending,
 * its indentation unit (tabs or N spaces) and each element's indentation. Edits are computed from
 * the scanner's element offsets (XmlElement start/content/end); nothing is re-serialised. Pure.
 */
import type { XmlElement } from '../pom/xml.js';

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

/** The file's line ending: CRLF when its first line break is one. */
export function lineEnding(text: string): string {
  const nl = text.indexOf('\n');
  return nl > 0 && text.charCodeAt(nl - 1) === 13 ? '\r\n' : '\n';
}

function lineStart(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

/** The whitespace before `offset` on its line, or undefined when something else comes first. */
export function indentBefore(text: string, offset: number): string | undefined {
  const prefix = text.slice(lineStart(text, offset), offset);
  return /^[ \t]*$/.test(prefix) ? prefix : undefined;
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
  const eolAt = text.indexOf('\n', sibling.end);
  const restOfLine = eolAt === -1 ? text.slice(sibling.end) : text.slice(sibling.end, eolAt);
  // Only when the sibling ends its line (a trailing comment may follow it) can whole lines go after it.
  if (indent === undefined || eolAt === -1 || !/^\s*(<!--.*?-->\s*)*$/.test(restOfLine)) {
    return { start: sibling.end, end: sibling.end, replacement: renderInline(elements) };
  }
  const unit = indentUnit(text, parent, doc.root);
  return { start: eolAt + 1, end: eolAt + 1, replacement: renderElements(elements, indent, unit, lineEnding(text)) };
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
  return { start: eolAt + 1, end: eolAt + 1, replacement: renderElements(elements, indent, unit, lineEnding(text)) };
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
