/**
 * What conventional-commits-parser is given: the message itself when every line is short, else a
 * bounded view of it. The parser's reference pattern (`(?:.*?)??\s*([\w-\.\/]*?)??(prefix)…`,
 * tried at every position with a lazy lead) costs the cube of a line's length when a line holds no
 * reference: 400 characters of one letter take 55 ms, 800 take 430 ms, 2,000 seconds to minutes.
 * So the parser never sees a line longer than `lineLimit` nor more than `maxLines` lines, and a
 * message's cost is bounded whatever it holds (a few ms at worst); the notes stay linear in the
 * history.
 *
 * A long line keeps what the parser reads from it: its leading structure (the `type(scope)!: `
 * of a header, the `BREAKING CHANGE:` of a note) and the words that can be or govern a reference
 * (with `#` or `-`, a URL, a closing keyword such as "fixes"). Short lines, which is every line of
 * an ordinary commit, are passed untouched, so their entries are what the parser always made.
 */
export const lineLimit = 80;
export const maxLines = 100;
/** A body line without `#` or `-` can hold no reference (every prefix has one): its start is enough. */
const plainLineLimit = 40;
/** Words longer than this are no issue reference (an owner/name#N is shorter) and are left out. */
const wordLimit = 60;

const headerLead = /^\w*(?:\([^()\n]*\))?!?: /;
const noteLead = /^[\s|*]*BREAKING[ -]CHANGE[:\s]+/i;
const referenceWord = /[#-]|:\/\/|(?:close[sd]?|fix(?:es|ed)?|resolve[sd]?)$/i;

export interface ParserView {
  text: string;
  /** Set when the header was shortened: the length of its `type(scope)!: ` lead (0 untyped). */
  headerLead?: number;
}

function referenceWords(rest: string, room: number): string {
  const kept: string[] = [];
  let length = 0;
  for (const word of rest.split(/\s+/)) {
    if (word === '' || word.length > wordLimit || !referenceWord.test(word)) continue;
    if (length + word.length + 1 > room) break;
    kept.push(word);
    length += word.length + 1;
  }
  return kept.join(' ');
}

function shortened(line: string, lead: RegExp): { line: string; lead: number } {
  const head = lead.exec(line)?.[0] ?? '';
  const keep = head.length > lineLimit / 2 ? '' : head;
  const rest = line.slice(keep.length);
  const words = referenceWords(rest, lineLimit - keep.length);
  // Never an empty line: that would move the parser's header or end a footer block.
  return { line: keep + (words === '' ? rest.slice(0, 40).trimEnd() || '.' : words), lead: keep.length };
}

export function parserView(message: string): ParserView {
  const lines = message.split('\n');
  const long = lines.length > maxLines || lines.some((l, i) => l.length > (i === 0 || /[#-]/.test(l) ? lineLimit : plainLineLimit));
  if (!long) return { text: message };
  // Footers (references, BREAKING CHANGE) sit at the end: a long body loses its middle.
  const kept = lines.length > maxLines ? [...lines.slice(0, maxLines / 4), ...lines.slice(lines.length - (maxLines * 3) / 4 + 1)] : lines;
  let headerCut: number | undefined;
  const out = kept.map((line, i) => {
    if (line.length <= lineLimit && (i === 0 || line.length <= plainLineLimit || /[#-]/.test(line))) return line;
    if (i > 0 && !/[#-]/.test(line)) return line.slice(0, plainLineLimit);
    const view = shortened(line, i === 0 ? headerLead : noteLead);
    if (i === 0) headerCut = view.lead;
    return view.line;
  });
  return { text: out.join('\n'), ...(headerCut === undefined ? {} : { headerLead: headerCut }) };
}
