/**
 * A single-pass, well-formedness-checking XML scanner for build descriptors (POMs, settings).
 * It replaces a general parser plus a separate validation pass: on a 1000-module reactor the
 * general one spent most of preflight's time allocating, while this builds the element tree
 * directly. It reads what descriptors use: elements, attributes (checked, then dropped), text,
 * CDATA, comments, processing instructions, the XML declaration, a DOCTYPE with internal entity
 * declarations, the five predefined entities and numeric character references. Errors carry the
 * line where they were found. Line numbers are counted as the scan moves forward, never by a
 * second pass over the text.
 */
import { decodeReferences, internalEntities, type EntityTable, XmlSyntaxError } from './xml-entities.js';
import type { XmlElement, XmlParseResult } from './xml-element.js';

/**
 * How deep elements may nest. Real descriptors stay under 20 levels; the limit keeps every later
 * walk of the tree (the model, the checks, the fixes) far from the stack's end, whatever a file
 * holds, and makes a hostile nesting an `xml-malformed` finding instead of a crash.
 */
export const MAX_XML_DEPTH = 1000;

// XML 1.0 §2.3 names over ASCII; characters above 0x7F are accepted as name characters, which
// is what every real descriptor needs without carrying the full Unicode tables.
const xmlName = /[A-Za-z_:\u0080-\uffff][A-Za-z0-9_:.\-\u0080-\uffff]*/y;

const quoted = `\\s*=\\s*("[^"]*"|'[^']*')`;
const xmlDeclaration = new RegExp(`^\\s+version${quoted}(\\s+encoding${quoted})?(\\s+standalone${quoted})?\\s*$`);

function isSpace(c: number): boolean {
  return c === 32 || c === 10 || c === 9 || c === 13;
}

// Indentation between tags is most of a descriptor's character data: skipped in native code.
const spaces = /[ \n\t\r]*/y;

/** The offset of the first non-space character at or after `from`. */
function skipSpaces(t: string, from: number): number {
  spaces.lastIndex = from;
  spaces.test(t);
  return spaces.lastIndex;
}

class Scanner {
  private pos = 0;
  // Line counting moves forward only: lineAt(offset) counts the newlines since the last call.
  private countedTo = 0;
  private countedLine = 1;
  private nextNewline: number;
  private readonly stack: XmlElement[] = [];
  private readonly qnames: string[] = [];
  private root: XmlElement | undefined;
  private entities: EntityTable | undefined;
  private sawDoctype = false;

  constructor(private readonly text: string) {
    this.nextNewline = text.indexOf('\n');
  }

  lineAt(offset: number): number {
    const t = this.text;
    if (offset < this.countedTo) {
      this.countedTo = 0;
      this.countedLine = 1;
      this.nextNewline = t.indexOf('\n');
    }
    // The next newline is remembered, so a long line is searched once, not once per element on it
    // (that made one-line descriptors quadratic).
    let i = this.nextNewline;
    while (i !== -1 && i < offset) {
      this.countedLine++;
      i = t.indexOf('\n', i + 1);
    }
    this.nextNewline = i;
    this.countedTo = offset;
    return this.countedLine;
  }

  private fail(message: string, offset: number): never {
    throw new XmlSyntaxError(message, offset);
  }

  run(): XmlElement {
    const t = this.text;
    const n = t.length;
    if (t.charCodeAt(0) === 0xfeff) this.pos = 1;
    while (this.pos < n) {
      const lt = t.indexOf('<', this.pos);
      const end = lt === -1 ? n : lt;
      if (end > this.pos) this.characters(this.pos, end);
      if (lt === -1) break;
      const c = t.charCodeAt(lt + 1);
      if (c === 47 /* / */) this.endTag(lt);
      else if (c === 33 /* ! */) this.markup(lt);
      else if (c === 63 /* ? */) this.instruction(lt);
      else this.startTag(lt);
    }
    const open = this.stack[this.stack.length - 1];
    if (open !== undefined) this.fail(`the file ends before <${this.qnames[this.qnames.length - 1]}> (line ${open.line}) is closed`, n);
    if (this.root === undefined) this.fail('no root element', n);
    return this.root;
  }

  /** Character data between markup: part of the open element's text, or whitespace outside the root. */
  private characters(start: number, end: number): void {
    const t = this.text;
    // No space run crosses the `<` at `end`.
    const i = skipSpaces(t, start);
    const top = this.stack[this.stack.length - 1];
    if (top === undefined) {
      // Never quoted: a file that is not XML at all (`-s /etc/shadow`) would have its start printed.
      if (i < end) this.fail(this.root === undefined ? 'text before the root element (not an XML document?)' : 'text after the end of the root element', i);
      return;
    }
    // Leading whitespace is trimmed anyway: keep the element's text empty until real text comes.
    if (i === end && top.text === '') return;
    let segment = t.slice(start, end);
    if (segment.includes('&')) segment = decodeReferences(segment, start, this.entities);
    top.text += segment;
  }

  private startTag(lt: number): void {
    const t = this.text;
    const nameEnd = this.name(lt + 1, 'element name');
    const qname = t.slice(lt + 1, nameEnd);
    if (this.root !== undefined && this.stack.length === 0) this.fail(`a second root element <${qname}>; a descriptor has exactly one`, lt);
    const element: XmlElement = { name: qname.slice(qname.lastIndexOf(':') + 1), text: '', line: this.lineAt(lt), children: [], start: lt, contentStart: 0, contentEnd: 0, end: 0 };
    const parent = this.stack[this.stack.length - 1];
    if (parent !== undefined) parent.children.push(element);
    else this.root = element;
    let p = nameEnd;
    // Names seen in this tag, to refuse a repeated attribute; a set, so many attributes stay linear.
    let attributes: Set<string> | undefined;
    for (;;) {
      const before = p;
      while (isSpace(t.charCodeAt(p))) p++;
      const c = t.charCodeAt(p);
      if (c === 62 /* > */) {
        if (this.stack.length >= MAX_XML_DEPTH) this.fail(`elements nest deeper than ${MAX_XML_DEPTH} levels (at <${qname}>); relctl reads descriptors up to that depth`, lt);
        element.contentStart = p + 1;
        this.stack.push(element);
        this.qnames.push(qname);
        this.pos = p + 1;
        return;
      }
      if (c === 47 /* / */) {
        if (t.charCodeAt(p + 1) !== 62) this.fail(`"/" inside the start tag <${qname}> must be followed by ">"`, p);
        element.contentStart = element.contentEnd = element.end = p + 2;
        this.pos = p + 2;
        return;
      }
      if (Number.isNaN(c)) this.fail(`the file ends inside the start tag <${qname}>`, p);
      if (p === before) this.fail(`unexpected "${t[p]}" in the start tag <${qname}>`, p);
      const attrEnd = this.name(p, `attribute name in <${qname}>`);
      const attr = t.slice(p, attrEnd);
      if (attributes === undefined) attributes = new Set([attr]);
      else if (attributes.has(attr)) this.fail(`attribute "${attr}" is repeated in <${qname}>`, p);
      else attributes.add(attr);
      p = attrEnd;
      while (isSpace(t.charCodeAt(p))) p++;
      if (t.charCodeAt(p) !== 61 /* = */) this.fail(`attribute "${attr}" in <${qname}> has no value`, p);
      p++;
      while (isSpace(t.charCodeAt(p))) p++;
      const quote = t.charCodeAt(p);
      if (quote !== 34 && quote !== 39) this.fail(`the value of attribute "${attr}" in <${qname}> must be quoted`, p);
      const close = t.indexOf(quote === 34 ? '"' : "'", p + 1);
      if (close === -1) this.fail(`the value of attribute "${attr}" in <${qname}> is not closed`, p);
      const value = t.slice(p + 1, close);
      const lt2 = value.indexOf('<');
      if (lt2 !== -1) this.fail(`"<" in the value of attribute "${attr}" (write &lt;)`, p + 1 + lt2);
      if (value.includes('&')) decodeReferences(value, p + 1, this.entities);
      p = close + 1;
    }
  }

  private endTag(lt: number): void {
    const t = this.text;
    const nameEnd = this.name(lt + 2, 'closing tag name');
    const qname = t.slice(lt + 2, nameEnd);
    let p = nameEnd;
    while (isSpace(t.charCodeAt(p))) p++;
    if (t.charCodeAt(p) !== 62) this.fail(Number.isNaN(t.charCodeAt(p)) ? `the file ends inside </${qname}>` : `unexpected "${t[p]}" in the closing tag </${qname}>`, p);
    const open = this.qnames[this.qnames.length - 1];
    if (open === undefined) this.fail(`closing tag </${qname}> without a matching start tag`, lt);
    if (open !== qname) this.fail(`closing tag </${qname}> does not match <${open}> (line ${this.stack[this.stack.length - 1]!.line})`, lt);
    const element = this.stack.pop()!;
    this.qnames.pop();
    element.contentEnd = lt;
    element.end = p + 1;
    if (element.text !== '') {
      let value = element.text.trim();
      if (value.includes('\r')) value = value.replace(/\r\n?/g, '\n');
      element.text = value;
    }
    this.pos = p + 1;
  }

  /** `<!--`, `<![CDATA[` or `<!DOCTYPE`. */
  private markup(lt: number): void {
    const t = this.text;
    if (t.startsWith('<!--', lt)) {
      const close = t.indexOf('-->', lt + 4);
      if (close === -1) this.fail('the file ends inside a comment (<!-- without -->)', lt);
      this.pos = close + 3;
      return;
    }
    if (t.startsWith('<![CDATA[', lt)) {
      const close = t.indexOf(']]>', lt + 9);
      if (close === -1) this.fail('the file ends inside a CDATA section (<![CDATA[ without ]]>)', lt);
      const top = this.stack[this.stack.length - 1];
      if (top === undefined) this.fail('a CDATA section outside the root element', lt);
      top.text += t.slice(lt + 9, close);
      this.pos = close + 3;
      return;
    }
    if (t.startsWith('<!DOCTYPE', lt)) {
      if (this.root !== undefined || this.sawDoctype) this.fail('a DOCTYPE is allowed only once, before the root element', lt);
      this.sawDoctype = true;
      const end = doctypeEnd(t, lt + 9);
      if (end === -1) this.fail('the file ends inside the DOCTYPE', lt);
      const table = internalEntities(t, lt + 9, end);
      if (table !== undefined) this.entities = table;
      this.pos = end + 1;
      return;
    }
    this.fail('unexpected markup after "<!" (neither a comment, a CDATA section nor a DOCTYPE)', lt);
  }

  /** `<?target ...?>`; `<?xml ...?>` is the declaration and may only open the document. */
  private instruction(lt: number): void {
    const t = this.text;
    const nameEnd = this.name(lt + 2, 'processing instruction target');
    const target = t.slice(lt + 2, nameEnd);
    if (target.toLowerCase() === 'xml' && lt !== (t.charCodeAt(0) === 0xfeff ? 1 : 0)) {
      this.fail('the XML declaration (<?xml ...?>) is allowed only at the very start of the file', lt);
    }
    const close = t.indexOf('?>', nameEnd);
    if (close === -1) this.fail(`the file ends inside <?${target}`, lt);
    if (target === 'xml' && !xmlDeclaration.test(t.slice(nameEnd, close))) this.fail('the XML declaration is malformed (expected version="1.0", then optionally encoding and standalone)', lt);
    this.pos = close + 2;
  }

  /** End offset of the XML name at `start`; fails when there is none. */
  private name(start: number, what: string): number {
    // A sticky regular expression runs in native code: cheaper than a character loop in a
    // short-lived process whose JavaScript mostly never gets optimised.
    xmlName.lastIndex = start;
    if (xmlName.test(this.text)) return xmlName.lastIndex;
    const t = this.text;
    this.fail(Number.isNaN(t.charCodeAt(start)) ? `the file ends where an ${what} was expected` : `invalid ${what} starting with "${t[start]}"`, start);
  }
}

/** The `>` that ends a DOCTYPE starting before `from`, skipping its internal subset and quoted strings. */
function doctypeEnd(t: string, from: number): number {
  let inSubset = false;
  for (let p = from; p < t.length; p++) {
    const c = t.charCodeAt(p);
    if (c === 34 || c === 39) {
      p = t.indexOf(c === 34 ? '"' : "'", p + 1);
      if (p === -1) return -1;
    } else if (c === 91 /* [ */) inSubset = true;
    else if (c === 93 /* ] */) inSubset = false;
    else if (c === 60 && t.startsWith('<!--', p)) {
      p = t.indexOf('-->', p + 4);
      if (p === -1) return -1;
      p += 2;
    } else if (c === 62 && !inSubset) return p;
  }
  return -1;
}

/** Scans XML text into an element tree; never throws. */
export function scanXml(text: string): XmlParseResult {
  const scanner = new Scanner(text);
  try {
    return { ok: true, root: scanner.run() };
  } catch (error) {
    if (error instanceof XmlSyntaxError) return { ok: false, message: error.message, line: scanner.lineAt(error.offset) };
    throw error;
  }
}
