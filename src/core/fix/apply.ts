import type { TextEdit } from './types.js';

/**
 * Applies non-overlapping edits to one file's text, last first so earlier offsets stay valid.
 * Overlapping edits are a bug in the rules that made them, not something to guess about.
 */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const ordered = [...edits].sort((a, b) => b.start - a.start || b.end - a.end);
  let out = text;
  let floor = Number.POSITIVE_INFINITY;
  for (const e of ordered) {
    if (e.start < 0 || e.end < e.start || e.end > text.length) throw new Error(`edit ${e.start}-${e.end} is outside ${e.file}`);
    if (e.end > floor) throw new Error(`overlapping edits in ${e.file} at offset ${e.start}`);
    out = out.slice(0, e.start) + e.replacement + out.slice(e.end);
    floor = e.start;
  }
  return out;
}

/** 1-based line of an offset (for FixEdit.line). */
export function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}
