import { scanXml } from './xml-scanner.js';
import type { XmlElement, XmlParseResult } from './xml-element.js';

export type { XmlElement, XmlParseResult } from './xml-element.js';

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
