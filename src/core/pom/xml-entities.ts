/**
 * Entity and character references for the XML scanner: the five predefined entities, numeric
 * references (`&#97;`, `&#x61;`), and general entities declared in a DOCTYPE's internal subset.
 * A declared entity expands to its literal value (references inside it are decoded once, never
 * recursively), and a document may expand at most `maxExpansion` characters in total, so an
 * "entity bomb" is an error instead of gigabytes. Other named references (`&nbsp;`, which Maven
 * itself predefines) are kept as written.
 */

/** A syntax error at a character offset; the scanner turns the offset into a line. */
export class XmlSyntaxError {
  constructor(
    readonly message: string,
    readonly offset: number,
  ) {}
}

export interface EntityTable {
  values: Map<string, string>;
  /** Characters produced by declared entities so far. */
  expanded: number;
}

const maxExpansion = 10_000_000;

const predefined: Record<string, string> = { lt: '<', gt: '>', amp: '&', apos: "'", quot: '"' };

const entityName = /^[A-Za-z_:\u0080-\uffff][\w.:\-\u0080-\uffff]*$/;

function allowedCodePoint(cp: number): boolean {
  return cp === 0x9 || cp === 0xa || cp === 0xd || (cp >= 0x20 && cp <= 0xd7ff) || (cp >= 0xe000 && cp <= 0xfffd) || (cp >= 0x10000 && cp <= 0x10ffff);
}

/**
 * Replaces the references in `s` (found at `offset` of the document). Fails on a bare `&`, a
 * malformed reference, or a character XML does not allow.
 */
export function decodeReferences(s: string, offset: number, table: EntityTable | undefined): string {
  let out = '';
  let from = 0;
  let amp = s.indexOf('&');
  while (amp !== -1) {
    out += s.slice(from, amp);
    const semi = s.indexOf(';', amp + 1);
    const ref = semi === -1 ? '' : s.slice(amp + 1, semi);
    if (ref.charCodeAt(0) === 35 /* # */) {
      const hex = ref.charCodeAt(1) === 120; /* x */
      const digits = ref.slice(hex ? 2 : 1);
      const valid = hex ? /^[0-9a-fA-F]{1,8}$/.test(digits) : /^[0-9]{1,10}$/.test(digits);
      const cp = valid ? Number.parseInt(digits, hex ? 16 : 10) : -1;
      if (!allowedCodePoint(cp)) throw new XmlSyntaxError(`"&${ref};" is not a character XML allows`, offset + amp);
      out += String.fromCodePoint(cp);
    } else if (ref !== '' && entityName.test(ref)) {
      const known = predefined[ref] ?? table?.values.get(ref);
      if (known === undefined) out += `&${ref};`;
      else {
        if (table !== undefined && predefined[ref] === undefined) {
          table.expanded += known.length;
          if (table.expanded > maxExpansion) throw new XmlSyntaxError(`entity expansion exceeds ${maxExpansion} characters (an entity bomb?)`, offset + amp);
        }
        out += known;
      }
    } else {
      throw new XmlSyntaxError('"&" that does not start an entity reference (write &amp;)', offset + amp);
    }
    from = semi + 1;
    amp = s.indexOf('&', from);
  }
  return out + s.slice(from);
}

/**
 * The general entities declared in the internal subset of a DOCTYPE spanning `from`..`end`
 * (`<!ENTITY name "value">`); parameter and external entities are ignored.
 */
export function internalEntities(t: string, from: number, end: number): EntityTable | undefined {
  const declaration = /<!ENTITY\s+([^\s%"'>]+)\s+("([^"]*)"|'([^']*)')\s*>/g;
  let table: EntityTable | undefined;
  for (const m of t.slice(from, end).matchAll(declaration)) {
    const raw = m[3] ?? m[4] ?? '';
    if (raw.includes('<')) continue; // markup inside an entity value is beyond a descriptor's needs
    table ??= { values: new Map(), expanded: 0 };
    // The first declaration wins (XML 1.0 §4.2); its references are decoded now, once.
    if (!table.values.has(m[1]!)) table.values.set(m[1]!, decodeReferences(raw, from + m.index, undefined));
  }
  return table;
}
