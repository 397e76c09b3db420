/**
 * The XML side of the Nexus 2 staging API, as XStream (nexus-staging-maven-plugin's client) writes
 * and reads it. Pure: no I/O.
 *
 * Answers are written from the same plain values the JSON answers are made of, so the two can
 * never drift: an object becomes child elements in key order, an array a wrapper whose items are
 * named by `items` (XStream's alias of the item class), `@class` an attribute, null is left out.
 */

export type Plain = string | number | boolean | null | undefined | Plain[] | { [key: string]: Plain };

const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => escapes[c]!);
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

function unescapeXml(text: string): string {
  return text
    .replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, (_m, inner: string) => inner.replace(/&/g, '&amp;').replace(/</g, '&lt;'))
    .replace(/&#x([0-9a-fA-F]+);/g, (_m, hex: string) => String.fromCodePoint(Number.parseInt(hex, 16)))
    .replace(/&#([0-9]+);/g, (_m, dec: string) => String.fromCodePoint(Number.parseInt(dec, 10)))
    .replace(/&(lt|gt|quot|apos|amp);/g, (_m, name: string) => ({ lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' })[name]!);
}

/** The text of the first `<tag>` (any attributes), or undefined; `<tag/>` is the empty string. */
export function xmlText(xml: string, tag: string): string | undefined {
  const match = new RegExp(`<${tag}(?:\\s[^>]*)?(?:/>|>([\\s\\S]*?)</${tag}>)`).exec(xml);
  if (match === null) return undefined;
  return unescapeXml((match[1] ?? '').trim());
}

/**
 * Every `<string>` below the first `<tag>`: XStream writes a List<String> as `<tag><string>…`, and a
 * String[] turned into a list (Arrays.asList, what the plugin sends on JDK 17) as
 * `<tag class="java.util.Arrays$ArrayList"><a class="string-array"><string>…`. Both are read.
 */
export function xmlStrings(xml: string, tag: string): string[] {
  const block = new RegExp(`<${tag}(?:\\s[^>]*)?(?:/>|>([\\s\\S]*?)</${tag}>)`).exec(xml);
  if (block === null || block[1] === undefined) return [];
  return [...block[1].matchAll(/<string>([\s\S]*?)<\/string>/g)].map((m) => unescapeXml(m[1]!.trim()));
}
