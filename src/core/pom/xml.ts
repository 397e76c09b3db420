import { scanXml } from './xml-scanner.js';

/** A parsed XML element reduced to what the POM and settings models need. */
export interface XmlElement {
  /** Local name (a namespace prefix is dropped). */
  name: string;
  /** Trimmed text content (entities and CDATA resolved); '' when the element has only children. */
  text: string;
  /** 1-based line of the start tag. */
  line: number;
  children: XmlElement[];
  /**
   * Offsets into the scanned text (UTF-16, a BOM counted), for `preflight --fix`'s text edits:
   * `start` at the `<` of the start tag, `contentStart` after its `>`, `contentEnd` at the `<` of
   * the end tag, `end` after its `>`. An empty-element tag (`<a/>`) has contentStart = contentEnd = end.
   */
  start: number;
  contentStart: number;
  contentEnd: number;
  end: number;
}

export type XmlParseResult = { ok: true; root: XmlElement } | { ok: false; message: string; line?: number };

/**
 * Parses XML text into an element tree with line numbers. Never throws: malformed input comes
 * back as `{ ok: false }` with the line of the error.
 */
export function parseXml(text: string): XmlParseResult {
  const nul = text.indexOf('\u0000');
  if (nul !== -1) return { ok: false, message: 'the file is binary, not XML', line: 1 };
  const result = scanXml(text);
  return result.ok ? result : { ok: false, message: shorten(result.message), ...(result.line === undefined ? {} : { line: result.line }) };
}

/** Messages quote the input; a finding needs one readable line. */
function shorten(message: string): string {
  const oneLine = message.replace(/\s+/g, ' ').trim().replace(/\.+$/, '');
  return oneLine.length > 160 ? `${oneLine.slice(0, 157)}...` : oneLine;
}

/** The first child named `name`, if any. */
export function child(el: XmlElement | undefined, name: string): XmlElement | undefined {
  return el?.children.find((c) => c.name === name);
}

/** All children named `name`. */
export function children(el: XmlElement | undefined, name: string): XmlElement[] {
  return el === undefined ? [] : el.children.filter((c) => c.name === name);
}
