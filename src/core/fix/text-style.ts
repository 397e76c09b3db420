/**
 * The layout conventions a fix copies when it inserts a line: the line ending and the indentation
 * found around the insertion point. The one layout module of `preflight --fix` (XML and Gradle
 * files alike); the XML indentation unit, which needs the element tree, is in xml-text.ts. Pure.
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

/** The white space before `offset` on its line, or undefined when something else comes first. */
export function indentBefore(text: string, offset: number): string | undefined {
  const prefix = text.slice(lineStartOf(text, offset), offset);
  return /^[ \t]*$/.test(prefix) ? prefix : undefined;
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

/** Whether only white space or comments follow `offset` on its line (a trailing comment stays with its element). */
export function endsLine(text: string, offset: number): boolean {
  return /^[ \t]*(<!--.*?-->[ \t]*)*$/.test(text.slice(offset, lineEndOf(text, offset)));
}

/**
 * Where and what to insert so that `line` (without its line break) becomes a new line after the
 * one holding `offset`: at that line's end when only white space or a comment follows `offset`
 * there (a trailing comment stays with its element), else right at `offset`.
 */
export function lineInsertion(text: string, offset: number, line: string): { at: number; text: string } {
  const at = endsLine(text, offset) ? lineEndOf(text, offset) : offset;
  return { at, text: `${lineEndingAt(text, offset)}${line}` };
}
