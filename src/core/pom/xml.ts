import { createRequire } from 'node:module';
import { LineIndex } from './line-index.js';

// fast-xml-parser's ESM entry is a tree of small modules that takes ~25 ms to load; its CommonJS
// build is one bundled file (~4 ms) with the same API. Preflight's start-up is on the benchmark.
const { XMLParser, XMLValidator } = createRequire(import.meta.url)('fast-xml-parser') as typeof import('fast-xml-parser');

/** A parsed XML element reduced to what the POM and settings models need. */
export interface XmlElement {
  /** Local name (a namespace prefix is dropped). */
  name: string;
  /** Trimmed text content (entities and CDATA resolved); '' when the element has only children. */
  text: string;
  /** 1-based line of the start tag. */
  line: number;
  children: XmlElement[];
}

export type XmlParseResult = { ok: true; root: XmlElement } | { ok: false; message: string; line?: number };

// fast-xml-parser 5 reports element offsets through captureMetaData (startIndex into the original
// text, CRLF-adjusted); text-only elements are objects too with preserveOrder, so every element has one.
const parser = new XMLParser({
  preserveOrder: true,
  captureMetaData: true,
  ignoreAttributes: true,
  parseTagValue: false,
  trimValues: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  // POMs nest deeper than the default 100 only when something is wrong; keep the guard but roomier.
  maxNestedTags: 500,
  // No callbacks need the tag path as a string; building it for every tag costs time on big reactors.
  jPath: false,
  // The parser refuses tag names such as `constructor` (prototype-pollution guard), which are
  // legitimate Maven property names; a prefix keeps them apart, convert() drops it again.
  transformTagName: (name) => `x:${name}`,
});
const metaSymbol = XMLParser.getMetaDataSymbol() as unknown as symbol;

type OrderedNode = Record<string, unknown> & { [key: symbol]: { startIndex?: number } | undefined };

/**
 * Parses XML text into an element tree with line numbers. Never throws: malformed input comes
 * back as `{ ok: false }` with the parser's line when it gives one.
 */
export function parseXml(text: string): XmlParseResult {
  if (text.includes('\u0000')) return { ok: false, message: 'the file is binary, not XML', line: 1 };
  const validation = XMLValidator.validate(text);
  if (validation !== true) {
    return { ok: false, message: shorten(validation.err.msg), line: validation.err.line };
  }
  let nodes: OrderedNode[];
  try {
    nodes = parser.parse(text) as OrderedNode[];
  } catch (error) {
    return { ok: false, message: shorten(error instanceof Error ? error.message : String(error)) };
  }
  const lines = new LineIndex(text);
  const roots = convert(nodes, lines);
  const root = roots[0];
  if (root === undefined) return { ok: false, message: 'no root element', line: 1 };
  return { ok: true, root };
}

/** Parser messages can quote whole tag stacks; a finding needs one readable line. */
function shorten(message: string): string {
  const oneLine = message.replace(/\s+/g, ' ').trim().replace(/\.+$/, '');
  return oneLine.length > 160 ? `${oneLine.slice(0, 157)}...` : oneLine;
}

function convert(nodes: OrderedNode[], lines: LineIndex): XmlElement[] {
  const out: XmlElement[] = [];
  for (const node of nodes) {
    const name = Object.keys(node).find((k) => k !== ':@' && k !== '#text');
    if (name === undefined) continue;
    const content = node[name];
    const childNodes = Array.isArray(content) ? (content as OrderedNode[]) : [];
    const texts: string[] = [];
    for (const c of childNodes) if (c['#text'] !== undefined) texts.push(String(c['#text']));
    const start = node[metaSymbol]?.startIndex ?? 0;
    out.push({
      name: name.slice(name.lastIndexOf(':') + 1),
      text: texts.join('').trim(),
      line: lines.lineOf(start),
      children: convert(childNodes, lines),
    });
  }
  return out;
}

/** The first child named `name`, if any. */
export function child(el: XmlElement | undefined, name: string): XmlElement | undefined {
  return el?.children.find((c) => c.name === name);
}

/** All children named `name`. */
export function children(el: XmlElement | undefined, name: string): XmlElement[] {
  return el === undefined ? [] : el.children.filter((c) => c.name === name);
}
