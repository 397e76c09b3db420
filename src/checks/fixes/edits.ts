/**
 * The one way the fix rules build what they report: an edit of one range of a file as read (a
 * replacement, an insertion, or an XmlEdit from xml-text.ts) and a declined finding. Pure.
 */
import { lineOf } from '../../core/fix/apply.js';
import type { FixDeclined, FixEdit, FixSource, TextEdit } from '../../core/fix/types.js';

/** Replaces `source.text.slice(start, end)`; `before`/`after` are what `--json` shows a person. */
export function replaceEdit(source: FixSource, start: number, end: number, replacement: string, code: string, before: string, after: string): FixEdit {
  return { file: source.file, start, end, replacement, code, line: lineOf(source.text, start), before, after };
}

/**
 * Inserts `replacement` at `at` (nothing was there before). Its `line` is where the new text
 * starts in the edited file: the next line when the insertion opens with a line ending.
 */
export function insertEdit(source: FixSource, at: number, replacement: string, code: string, after: string): FixEdit {
  const edit = replaceEdit(source, at, at, replacement, code, '', after);
  return /^\r?\n/.test(replacement) ? { ...edit, line: edit.line + 1 } : edit;
}

/** A positioned edit (an XmlEdit, say) as a reported FixEdit: an insertion when it replaces nothing. */
export function editOf(source: FixSource, edit: Omit<TextEdit, 'file'>, code: string, before: string, after: string): FixEdit {
  return edit.start === edit.end && before === ''
    ? insertEdit(source, edit.start, edit.replacement, code, after)
    : replaceEdit(source, edit.start, edit.end, edit.replacement, code, before, after);
}

/** An inserted snippet's `after` text for reports: one line, indentation dropped. */
export function oneLine(replacement: string): string {
  return replacement.replace(/\r?\n[ \t]*/g, '').trim();
}

/** Why a finding is left to a person, at the finding's file and line when it has them. */
export function declined(code: string, why: string, where?: { file?: string; line?: number }): FixDeclined {
  const out: FixDeclined = { code, why };
  if (where?.file !== undefined) out.file = where.file;
  if (where?.line !== undefined) out.line = where.line;
  return out;
}

/** The range of `text.slice(start, end)` without its surrounding white space. */
export function trimmedRange(text: string, start: number, end: number): { start: number; end: number; value: string } {
  const raw = text.slice(start, end);
  const lead = raw.length - raw.trimStart().length;
  const value = raw.trim();
  return { start: start + lead, end: start + lead + value.length, value };
}

/**
 * A project-relative path inside the project. Fixes never edit a file outside it (a parent POM in
 * the local repository, the user's gradle.properties): the project's own files shadow those.
 */
export function inProject(file: string | undefined): file is string {
  return file !== undefined && file !== '' && !file.startsWith('/') && !file.startsWith('~') && !/^[A-Za-z]:[\\/]/.test(file) && !file.split(/[\\/]/).includes('..');
}
