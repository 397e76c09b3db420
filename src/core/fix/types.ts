/**
 * `preflight --fix` (DESIGN §4, Fixes): each mechanical fix is a pure function from what
 * preflight read to text edits. Edits are positions in the decoded text of one file, never a
 * re-serialisation, so everything outside the edited range stays byte for byte.
 */

/** One file as the fixer read it: decoded text plus what is needed to write it back unchanged. */
export interface FixSource {
  /** Project-relative with forward slashes, or absolute for the Maven settings file. */
  file: string;
  /** The decoded text (BOM removed; line endings as in the file). */
  text: string;
}

/** Replace `text.slice(start, end)` with `replacement` (UTF-16 offsets into FixSource.text). */
export interface TextEdit {
  file: string;
  start: number;
  end: number;
  replacement: string;
}

/** A text edit with what `--json` reports for it (`fixed`: file, line, code, before, after). */
export interface FixEdit extends TextEdit {
  /** The finding code this edit fixes. */
  code: string;
  /**
   * 1-based line of `start` in the file as read; for a line inserted after line N (the edit opens
   * with a line ending), N + 1: where a person finds the new line.
   */
  line: number;
  /** The value (or line) before and after, as a person reads it, e.g. the old and new URL. */
  before: string;
  after: string;
  /**
   * Made only together with an edit of one of `codes` in one of `files` (a `<server>` for the id
   * a POM edit gives the repository): when none is made, this one is declined too.
   */
  with?: { files: readonly string[]; codes: readonly string[] };
}

/** A finding the fixer could not fix mechanically, and what a person must write instead. */
export interface FixDeclined {
  code: string;
  file?: string;
  line?: number;
  why: string;
}

export interface FixPlan {
  edits: FixEdit[];
  declined: FixDeclined[];
}
