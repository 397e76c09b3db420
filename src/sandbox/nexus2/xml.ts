/**
 * The XML side of the Nexus 2 staging API, as XStream (nexus-staging-maven-plugin's client) writes
 * and reads it. Pure: no I/O.
 *
 * Answers are written from the same plain values the JSON answers are made of, so the two can
 * never drift: an object becomes child elements in key order, an array a wrapper whose items are
 * named by `items` (XStream's alias of the item class), `@class` an attribute, null is left out.
 */

import { parseXml, type XmlElement, type XmlParseResult } from '../../core/pom/xml.js';

export type Plain = string | number | boolean | null | undefined | Plain[] | { [key: string]: Plain };

const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/**
 * Control characters: C0 but tab, newline and carriage return; DEL; C1 (U+009B is a terminal's
 * CSI). Requests carrying them are refused (request.ts); answers never carry them: XML 1.0 cannot
 * hold the C0 ones at all, not even as references, and none belongs in text a person reads in a
 * terminal.
 */
const controls = '\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f';
const anyControl = new RegExp(`[${controls}]`);
const controlsOut = new RegExp(`[${controls}]`, 'g');
const markupOrControls = new RegExp(`[&<>"'${controls}]`, 'g');

export function hasControls(text: string): boolean {
  return anyControl.test(text);
}

/** Text safe to echo (an id from a path, a record written before requests were checked): controls become U+FFFD. */
export function withoutControls(text: string): string {
  return text.replace(controlsOut, '\uFFFD');
}

/** Escapes markup, and replaces control characters as withoutControls does, in one pass. */
export function escapeXml(text: string): string {
  return text.replace(markupOrControls, (c) => escapes[c] ?? '\uFFFD');
}

function element(name: string, value: Plain, items: Readonly<Record<string, string>>, itemName?: string): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) {
    const child = itemName ?? items[name] ?? 'string';
    return `<${name}>${value.map((v) => element(child, v, items)).join('')}</${name}>`;
  }
  if (typeof value === 'object') {
    const attrs = typeof value['@class'] === 'string' ? ` class="${escapeXml(value['@class'])}"` : '';
    const body = Object.entries(value)
      .filter(([k]) => k !== '@class')
      .map(([k, v]) => element(k, v, items))
      .join('');
    return body === '' ? `<${name}${attrs}/>` : `<${name}${attrs}>${body}</${name}>`;
  }
  return `<${name}>${escapeXml(String(value))}</${name}>`;
}

/**
 * An XML document with root `root` holding `value`. A root array (the activity list) is written
 * as XStream writes a java.util.List: `<list>` with one element per item named `rootItem`.
 */
export function toXml(root: string, value: Plain, items: Readonly<Record<string, string>> = {}, rootItem?: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n${element(root, value, items, rootItem)}`;
}

/**
 * A request body's element tree, scanned once in linear time by the POM reader's scanner, which
 * also checks the body is well-formed and refuses character references XML does not allow
 * (`&#x110000;`, `&#1;`). The regular expressions this replaced rescanned the rest of the body
 * from every start tag: a 1 MiB body of unclosed tags held the server for seconds. No client sends
 * a DOCTYPE, so none is read (its entities could inflate a small body).
 */
export function readXml(text: string): XmlParseResult {
  if (text.includes('<!DOCTYPE')) return { ok: false, message: 'a DOCTYPE is not accepted' };
  return parseXml(text);
}

/** The first element named `name` at or below `root`, in document order. */
export function findElement(root: XmlElement, name: string): XmlElement | undefined {
  const pending = [root];
  for (let el = pending.pop(); el !== undefined; el = pending.pop()) {
    if (el.name === name) return el;
    for (let i = el.children.length - 1; i >= 0; i--) pending.push(el.children[i]!);
  }
  return undefined;
}

/**
 * Every `<string>` below `el`: XStream writes a List<String> as `<tag><string>…`, and a String[]
 * turned into a list (Arrays.asList, what the plugin sends on JDK 17) as
 * `<tag class="java.util.Arrays$ArrayList"><a class="string-array"><string>…`. Both are read.
 */
export function xmlStrings(el: XmlElement | undefined): string[] {
  if (el === undefined) return [];
  return el.children.flatMap((c) => (c.name === 'string' ? [c.text] : xmlStrings(c)));
}
