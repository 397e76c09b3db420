import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LineIndex } from './line-index.js';
import { parseXml, type XmlElement } from './xml.js';
import { MAX_XML_DEPTH } from './xml-scanner.js';

// The reference: fast-xml-parser (what relctl used before its own scanner) configured as relctl
// used it, plus numeric character references, validated first as relctl did.
const { XMLParser, XMLValidator } = createRequire(import.meta.url)('fast-xml-parser') as typeof import('fast-xml-parser');
const reference = new XMLParser({
  preserveOrder: true,
  captureMetaData: true,
  ignoreAttributes: true,
  parseTagValue: false,
  trimValues: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  htmlEntities: true,
  maxNestedTags: 500,
  transformTagName: (name: string) => `x:${name}`,
});
const meta = XMLParser.getMetaDataSymbol() as unknown as symbol;
type Node = Record<string, unknown> & { [key: symbol]: { startIndex?: number } | undefined };

type Tree = Pick<XmlElement, 'name' | 'text' | 'line'> & { children: Tree[] };

/** The reference's tree; 'invalid' when its validator refuses, 'throws' when only its parser does. */
function referenceTree(text: string): Tree | 'invalid' | 'throws' {
  if (XMLValidator.validate(text) !== true) return 'invalid';
  const lines = new LineIndex(text);
  const convert = (nodes: Node[]): Tree[] =>
    nodes.flatMap((node) => {
      const name = Object.keys(node).find((k) => k !== ':@' && k !== '#text');
      if (name === undefined) return [];
      const kids = Array.isArray(node[name]) ? (node[name] as Node[]) : [];
      const text = kids.filter((c) => c['#text'] !== undefined).map((c) => String(c['#text'])).join('').trim();
      return [{ name: name.slice(name.lastIndexOf(':') + 1), text, line: lines.lineOf(node[meta]?.startIndex ?? 0), children: convert(kids) }];
    });
  try {
    return convert(reference.parse(text) as Node[])[0] ?? 'invalid';
  } catch {
    // Its parser refuses quotes inside processing instructions, which XML allows.
    return 'throws';
  }
}

/** Names, text and lines only: the reference knows no element offsets (they are checked apart). */
function treeOnly(e: XmlElement): Tree {
  return { name: e.name, text: e.text, line: e.line, children: e.children.map(treeOnly) };
}

/** Whitespace between text and CDATA differs by design (Maven keeps it; the reference trims each piece). */
function squeezed(e: Tree): Tree {
  return { ...e, text: e.text.replace(/\s+/g, ''), children: e.children.map(squeezed) };
}

/** Every element's offsets frame its own tags: `<name ...>` ... `</name>`, or `<name .../>`. */
function expectOffsetsFrame(text: string, e: XmlElement): void {
  const open = text.slice(e.start, e.contentStart);
  expect(open).toMatch(new RegExp(`^<([\\w.-]+:)?${e.name}[\\s/>]`));
  if (e.end === e.contentStart) expect(open.endsWith('/>')).toBe(true);
  else expect(text.slice(e.contentEnd, e.end)).toMatch(new RegExp(`^</([\\w.-]+:)?${e.name}\\s*>$`));
  for (const c of e.children) {
    expect(c.start).toBeGreaterThanOrEqual(e.contentStart);
    expect(c.end).toBeLessThanOrEqual(e.contentEnd);
    expectOffsetsFrame(text, c);
  }
}

const ok = (text: string): XmlElement => {
  const r = parseXml(text);
  if (!r.ok) throw new Error(`${r.message} (line ${r.line})`);
  return r.root;
};
const bad = (text: string): { message: string; line?: number } => {
  const r = parseXml(text);
  if (r.ok) throw new Error('parsed, but should not have');
  return r;
};

describe('XML scanner', () => {
  it('reads names without prefixes, trimmed text, CDATA, entities and numeric character references', () => {
    const root = ok('<?xml version="1.0"?>\n<!-- head -->\n<m:project xmlns:m="urn:x" a=\'1\'>\n  <name>  A &amp; B &lt;c&gt; &#97;&#x62; &#x1F600;  </name>\n  <url><![CDATA[https://x/?a=1&b=<2>]]></url>\n  <?pi data?>\n  <d>x<!-- c -->y</d>\n</m:project>\n<!-- tail -->\n');
    expect(root.name).toBe('project');
    expect(root.line).toBe(3);
    expect(root.children.map((c) => [c.name, c.text, c.line])).toEqual([
      ['name', 'A & B <c> ab \u{1F600}', 4],
      ['url', 'https://x/?a=1&b=<2>', 5],
      ['d', 'xy', 7],
    ]);
  });

  it('gives each element the offsets of its tags and content, a BOM counted', () => {
    const text = '\ufeff<p>\r\n\t<a x="1">v</a><b/>\r\n</p>';
    const root = ok(text);
    const [a, b] = root.children;
    expect([root.start, root.contentStart, root.contentEnd, root.end]).toEqual([1, 4, text.length - 4, text.length]);
    expect(text.slice(a!.start, a!.end)).toBe('<a x="1">v</a>');
    expect(text.slice(a!.contentStart, a!.contentEnd)).toBe('v');
    expect(text.slice(b!.start, b!.end)).toBe('<b/>');
    expect([b!.contentStart, b!.contentEnd]).toEqual([b!.end, b!.end]);
  });

  it('keeps names such as constructor and __proto__ as ordinary data', () => {
    const root = ok('<properties><constructor>1</constructor><__proto__>2</__proto__><toString/></properties>');
    expect(root.children.map((c) => [c.name, c.text])).toEqual([['constructor', '1'], ['__proto__', '2'], ['toString', '']]);
  });

  it('expands entities declared in the DOCTYPE and stops an entity bomb', () => {
    expect(ok('<!DOCTYPE p [<!ENTITY v "1.0"> <!-- ] > -->]>\n<p><version>&v;</version></p>').children[0]!.text).toBe('1.0');
    const bomb = `<!DOCTYPE p [<!ENTITY e "${'x'.repeat(10_000)}">]><p>${'&e;'.repeat(2_000)}</p>`;
    expect(bad(bomb).message).toContain('entity expansion');
  });

  it('keeps undeclared named references as written (Maven predefines the XHTML ones)', () => {
    expect(ok('<p>a&nbsp;b</p>').text).toBe('a&nbsp;b');
  });

  it('normalises line ends in text and counts lines across CRLF files', () => {
    const root = ok('<p>\r\n  <d>one\r\ntwo</d>\r\n</p>');
    expect(root.children[0]).toMatchObject({ text: 'one\ntwo', line: 2 });
  });

  it.each([
    ['<settings>\n  <servers>\n</settings>\n', 3, 'does not match <servers> (line 2)'],
    ['this is not xml <<<\n', 1, 'text before the root element'],
    ['<p/>\n<q/>', 2, 'second root element'],
    ['<p/>\ntext', 2, 'text after the end of the root element'],
    ['<p>\n<a b="1" b="2"/></p>', 2, 'repeated'],
    ['<p>\n<a b=1/></p>', 2, 'must be quoted'],
    ['<p>\n<a b="<"/></p>', 2, '"<" in the value'],
    ['<p>\n\nAT&T</p>', 3, 'write &amp;'],
    ['<p>&#0;</p>', 1, 'not a character XML allows'],
    ['<p>&#xD800;</p>', 1, 'not a character XML allows'],
    ['<p>\n<!-- open', 2, 'inside a comment'],
    ['<p><![CDATA[x', 1, 'inside a CDATA section'],
    ['<p>\n<?pi', 2, 'inside <?pi'],
    ['\n<?xml version="1.0"?><p/>', 2, 'only at the very start'],
    ['<p>\n</q>', 2, 'does not match <p>'],
    ['</p>', 1, 'without a matching start tag'],
    ['<p>\n<1a/></p>', 2, 'invalid element name'],
    ['<p>\n  <a>\n', 3, 'before <a> (line 2) is closed'],
    ['<p>\n<a\n', 3, 'ends inside the start tag <a>'],
    ['', 1, 'no root element'],
    ['<!DOCTYPE p><!DOCTYPE p><p/>', 1, 'DOCTYPE is allowed only once'],
    ['<?xml version="1.0" encoding="UTF-8""?>\n<p/>', 1, 'XML declaration is malformed'],
  ])('reports %j as malformed on line %i', (text, line, message) => {
    const r = bad(text);
    expect(r.line).toBe(line);
    expect(r.message).toContain(message);
  });

  it('reads nesting up to the limit and reports deeper nesting as malformed, naming the limit, without a stack overflow', () => {
    const nest = (n: number) => `<p>\n${'<a>'.repeat(n - 1)}v${'</a>'.repeat(n - 1)}</p>`;
    let deepest = ok(nest(MAX_XML_DEPTH));
    for (let i = 1; i < MAX_XML_DEPTH; i++) deepest = deepest.children[0]!;
    expect(deepest.text).toBe('v');
    const r = bad(nest(1_000_000));
    expect(r.line).toBe(2);
    expect(r.message).toContain(`deeper than ${MAX_XML_DEPTH} levels`);
  });

  it('counts lines and refuses a repeated attribute on one long line of many elements and attributes', () => {
    const many = Array.from({ length: 20_000 }, (_, i) => `<e${i} a${i}="1"/>`).join('');
    const root = ok(`<p>${many}\n<last/></p>`);
    expect(root.children).toHaveLength(20_001);
    expect(root.children[20_000]).toMatchObject({ name: 'last', line: 2 });
    const attrs = Array.from({ length: 20_000 }, (_, i) => `a${i}="v"`).join(' ');
    expect(bad(`<p>\n<x ${attrs} a19999="w"/></p>`)).toMatchObject({ line: 2, message: expect.stringContaining('"a19999" is repeated') });
  });

  it('calls a file with NUL bytes binary', () => {
    expect(bad('<p>\u0000</p>').message).toContain('binary');
  });
});

// Generated POM-like documents: element trees with attributes, namespaces, comments, PIs and
// leaf text built from words, entities, numeric references and CDATA.
const tagName = fc.constantFrom('project', 'groupId', 'artifactId', 'version', 'module', 'developer', 'm:dependency', 'a-b.c', '_x', 'constructor', '__proto__', 'hasOwnProperty', 'é');
const word = fc.stringMatching(/^[A-Za-z0-9.:/${}\-_=?]{1,12}$/);
const printable = fc.integer({ min: 0x21, max: 0x2fff }).filter((cp) => cp !== 0x7f && !(cp >= 0x80 && cp <= 0xa0) && cp !== 0x2028 && cp !== 0x2029 && !(cp >= 0x2000 && cp <= 0x200a) && cp !== 0x1680);
const piece = fc.oneof(
  { weight: 4, arbitrary: fc.array(word, { minLength: 1, maxLength: 3 }).map((ws) => ws.join(' ')) },
  { weight: 1, arbitrary: fc.constantFrom('&lt;', '&gt;', '&amp;', '&apos;', '&quot;') },
  { weight: 1, arbitrary: printable.map((cp) => `&#${cp};`) },
  { weight: 1, arbitrary: printable.map((cp) => `&#x${cp.toString(16)};`) },
  { weight: 1, arbitrary: word.map((w) => `<![CDATA[${w}<&>]]>`) },
  { weight: 1, arbitrary: word.map((w) => `<!--${w}-->`) },
  { weight: 1, arbitrary: word.map((w) => `<?pi ${w}?>`) },
);
const space = fc.constantFrom('', ' ', '\n', '\n  ', '\r\n    ', '\t');
const attributes = fc.uniqueArray(fc.tuple(fc.constantFrom('xmlns', 'xmlns:m', 'id', 'combine.children', 'a'), word, fc.boolean()), { selector: (a) => a[0], maxLength: 3 });

interface Gen {
  name: string;
  attrs: [string, string, boolean][];
  body: string[] | Gen[];
  gaps: string[];
}
const tree: fc.Arbitrary<Gen> = fc.letrec<{ node: Gen }>((tie) => ({
  node: fc.record({
    name: tagName,
    attrs: attributes,
    body: fc.oneof({ depthSize: 'small', withCrossShrink: true }, fc.array(piece, { maxLength: 4 }), fc.array(tie('node'), { minLength: 1, maxLength: 4 })),
    gaps: fc.array(space, { minLength: 6, maxLength: 6 }),
  }) as fc.Arbitrary<Gen>,
})).node;

function render(g: Gen, out: string[]): void {
  const attrs = g.attrs.map(([n, v, single]) => (single ? ` ${n}='${v}'` : ` ${n}="${v}"`)).join('');
  const [g0 = '', g1 = '', g2 = ''] = g.gaps;
  if (g.body.length === 0 && g1 === '') {
    out.push(`<${g.name}${attrs}${g0}/>`);
    return;
  }
  out.push(`<${g.name}${attrs}${g0}>`);
  if (typeof g.body[0] === 'string') out.push(g1, ...(g.body as string[]), g2);
  else for (const c of g.body as Gen[]) out.push(g1, ...renderOne(c), g2);
  out.push(`</${g.name}>`);
}
const renderOne = (g: Gen): string[] => {
  const out: string[] = [];
  render(g, out);
  return out;
};
const document = fc.record({ decl: fc.boolean(), before: fc.constantFrom('', '\n', '<!-- c -->\n', '<?pi x?>\n'), root: tree, after: fc.constantFrom('', '\n', '\n<!-- end -->\n') }).map(
  (d) => `${d.decl ? '<?xml version="1.0" encoding="UTF-8"?>\n' : ''}${d.before}${renderOne(d.root).join('')}${d.after}`,
);

describe('XML scanner against fast-xml-parser', () => {
  it('builds the same tree (names, text, lines, offsets that frame each element) on generated well-formed documents', () => {
    fc.assert(
      fc.property(document, (text) => {
        const mine = parseXml(text);
        if (!mine.ok) throw new Error(mine.message);
        expect(treeOnly(mine.root)).toEqual(referenceTree(text));
        expectOffsetsFrame(text, mine.root);
      }),
      { numRuns: 400 },
    );
  });

  it('accepts a mutated document only when the reference validator does too, and then agrees on the tree', () => {
    const noise = fc.constantFrom('<', '>', '</', '/>', '&', '&amp;', '&#97;', ';', '"', "'", '=', '<![CDATA[', ']]>', '<!--', '-->', '<?', '?>', ' ', '\n', 'x');
    const edit = fc.record({ at: fc.nat(), drop: fc.nat({ max: 6 }), insert: fc.array(noise, { maxLength: 3 }).map((a) => a.join('')) });
    fc.assert(
      fc.property(document, fc.array(edit, { minLength: 1, maxLength: 3 }), (text, edits) => {
        let t = text;
        for (const e of edits) {
          const at = e.at % (t.length + 1);
          t = t.slice(0, at) + e.insert + t.slice(at + e.drop);
        }
        const mine = parseXml(t);
        if (!mine.ok) {
          expect(mine.line).toBeGreaterThanOrEqual(1);
          expect(mine.line).toBeLessThanOrEqual(t.split('\n').length);
          return;
        }
        const theirs = referenceTree(t);
        expect(theirs).not.toBe('invalid');
        if (theirs !== 'throws' && theirs !== 'invalid') expect(squeezed(theirs)).toEqual(squeezed(treeOnly(mine.root)));
      }),
      { numRuns: 600 },
    );
  });
});
