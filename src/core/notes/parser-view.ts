/**
 * What conventional-commits-parser is given: the message itself when every line is short, else a
 * bounded view of it. The parser's reference pattern (`(?:.*?)??\s*([\w-\.\/]*?)??(prefix)…`,
 * tried at every position with a lazy lead) costs the cube of a line's length when a line holds no
 * reference: 400 characters of one letter take 55 ms, 800 take 430 ms, 2,000 seconds to minutes.
 * So the parser never sees a line longer than `lineLimit`, a run longer than `runLimit` nor more
 * than `maxLines` lines, and a message's cost is bounded whatever it holds (measured worst: about
 * 1.5 ms a line, under 0.1 s a message; an ordinary message well under 1 ms): the notes stay
 * linear in the history.
 *
 * A long line keeps what the parser reads from it: its leading structure (the `type(scope)!: `
 * of a header, the `BREAKING CHANGE:` of a note) and the words that can be or govern a reference
 * (with `#` or `-`, a closing keyword such as "fixes", a URL shortened to one that still voids its
 * line's references as the parser does). Short lines, which is every line of an ordinary commit,
 * are passed untouched, so their entries are what the parser always made.
 */
export const lineLimit = 80;
export const maxLines = 60;
/** A body line without `#` or `-` can hold no reference (every prefix has one): its start is enough. */
const plainLineLimit = 40;
/**
 * The cost grows with the runs of `[\w./-]` characters the pattern's lazy repository part walks:
 * a line with a run longer than this is read through the view even when short, and a word with
 * one is left out of the view (`owner/name#N` and `KEY-N` references are far shorter).
 */
const runLimit = 40;
const longRun = new RegExp(`[\\w./-]{${runLimit + 1}}`);

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
  for (let word of rest.split(/\s+/)) {
    if (word === '' || !referenceWord.test(word)) continue;
    // A URL makes the parser ignore its line's references: a short one keeps that reading.
    const url = /https?:\/\/[-a-zA-Z0-9@:%_+.~#?&/=]/.test(word);
    if (!url && longRun.test(word)) continue;
    word = url ? 'http://u.rl' : word;
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
  const needsView = (l: string, i: number): boolean => l.length > (i === 0 || /[#-]/.test(l) ? lineLimit : plainLineLimit) || longRun.test(l);
  const long = lines.length > maxLines || lines.some(needsView);
  if (!long) return { text: message };
  // Footers (references, BREAKING CHANGE) sit at the end: a long body loses its middle.
  const kept = lines.length > maxLines ? [...lines.slice(0, maxLines / 4), ...lines.slice(lines.length - (maxLines * 3) / 4 + 1)] : lines;
  let headerCut: number | undefined;
  const out = kept.map((line, i) => {
    if (!needsView(line, i)) return line;
    if (i > 0 && !/[#-]/.test(line)) return line.slice(0, plainLineLimit);
    const view = shortened(line, i === 0 ? headerLead : noteLead);
    if (i === 0) headerCut = view.lead;
    return view.line;
  });
  return { text: out.join('\n'), ...(headerCut === undefined ? {} : { headerLead: headerCut }) };
}
