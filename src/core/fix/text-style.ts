/**
 * The layout conventions a fix copies when it inserts a line: the file's line ending and its
 * indentation unit, as found around the insertion point. Pure.
 */

/** Offset of the first character of the line holding `offset`. */
export function lineStartOf(text: string, offset: number): number {
  let i = Math.min(offset, text.length);
  while (i > 0 && text[i - 1] !== '\n' && text[i - 1] !== '\r') i--;
  return i;
}

/** Offset of the line break (or the text end) of the line holding `offset`. */
export function lineEndOf(text: string, offset: number): number {
  let i = offset;
  while (i < text.length && text[i] !== '\n' && text[i] !== '\r') i++;
  return i;
}

/** The leading white space of the line holding `offset`. */
export function indentOfLine(text: string, offset: number): string {
  const start = lineStartOf(text, offset);
  return /^[ \t]*/.exec(text.slice(start, lineEndOf(text, start)))![0];
}

function breakAt(text: string, i: number): string | undefined {
  if (text[i] === '\r') return text[i + 1] === '\n' ? '\r\n' : '\r';
  return text[i] === '\n' ? '\n' : undefined;
}

/**
 * The line ending of the line holding `offset` (the one it ends with, else the previous line's),
 * else the file's first, else `\n`: a file mixing endings keeps each region's own.
 */
export function lineEndingAt(text: string, offset: number): string {
  const own = breakAt(text, lineEndOf(text, offset));
  if (own !== undefined) return own;
  const start = lineStartOf(text, offset);
  if (start > 0) return text[start - 1] === '\n' && text[start - 2] === '\r' ? '\r\n' : text[start - 1]!;
  const first = text.search(/[\r\n]/);
  return first === -1 ? '\n' : breakAt(text, first)!;
}

/**
 * One level of indentation in this file: a tab when most indented lines start with one, else the
 * most common step between an indented line and the line before it (2 or 4 spaces, usually);
 * `fallback` when the file has no indented lines.
 */
export function indentUnitOf(text: string, fallback = '  '): string {
  let tabs = 0;
  let spaces = 0;
  const steps = new Map<number, number>();
  let previous = 0;
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (line.trim() === '') continue;
    const lead = /^[ \t]*/.exec(line)![0];
    if (lead.startsWith('\t')) tabs++;
    else if (lead.length > 0) spaces++;
    if (!lead.includes('\t')) {
      const step = lead.length - previous;
      if (step > 0 && step <= 8) steps.set(step, (steps.get(step) ?? 0) + 1);
      previous = lead.length;
    }
  }
  if (tabs > spaces) return '\t';
  let best = 0;
  let count = 0;
  for (const [step, n] of steps) if (n > count || (n === count && step < best)) [best, count] = [step, n];
  return best === 0 ? fallback : ' '.repeat(best);
}

/**
 * Where and what to insert so that `line` (without its line break) becomes a new line after the
 * one holding `offset`: at that line's end when only white space or a comment follows `offset`
 * there (a trailing comment stays with its element), else right at `offset`.
 */
export function lineInsertion(text: string, offset: number, line: string): { at: number; text: string } {
  const end = lineEndOf(text, offset);
  const rest = text.slice(offset, end);
  const at = rest.trim() === '' || /^\s*<!--.*-->\s*$/.test(rest) ? end : offset;
  return { at, text: `${lineEndingAt(text, offset)}${line}` };
}
