/** Text and --json of `preflight --fix` (DESIGN §4, Fixes). */
import type { FixDeclined, FixEdit } from '../../core/fix/types.js';
import type { PreflightFixResult } from '../../release/fix/preflight-fix.js';
import type { Style } from '../../ui/style.js';
import { escapeData, findingsText } from '../../ui/render/findings.js';
import { oneLine } from '../../core/plain-text.js';

export function fixedJson(edits: readonly FixEdit[]): Record<string, unknown>[] {
  return edits.map((e) => ({ file: e.file, line: e.line, code: e.code, before: e.before, after: e.after }));
}

export function declinedJson(declined: readonly FixDeclined[]): Record<string, unknown>[] {
  return declined.map((d) => ({ code: d.code, ...(d.file === undefined ? {} : { file: d.file }), ...(d.line === undefined ? {} : { line: d.line }), why: d.why }));
}

/** The --json extras beside the findings: what was (or would be) fixed, what was not and why. */
export function fixJsonExtra(r: PreflightFixResult, dryRun: boolean): Record<string, unknown> {
  return {
    fixed: fixedJson(r.edits),
    declined: declinedJson(r.declined),
    written: r.written,
    ...(dryRun ? { dryRun: true, diff: r.diff } : {}),
  };
}

/**
 * `--format github`: the files written, one line each; a file name cannot start a line of its
 * own (a name holding a line break would otherwise be read by the runner as a workflow command).
 */
export function writtenGithub(written: readonly string[]): string[] {
  return written.map((f) => `wrote ${escapeData(f)}`);
}

function where(file: string | undefined, line: number | undefined): string {
  return file === undefined ? '' : ` ${oneLine(file)}${line === undefined ? '' : `:${line}`}`;
}

export function fixText(r: PreflightFixResult, c: Style, dryRun: boolean): string {
  const lines: string[] = [];
  if (dryRun) {
    if (r.diff !== '') lines.push(r.diff.trimEnd(), '');
    lines.push(r.edits.length === 0 ? 'preflight --fix --dry-run: nothing to fix mechanically.' : `preflight --fix --dry-run: ${r.edits.length} edit${r.edits.length === 1 ? '' : 's'} would be made; nothing was written.`);
  } else {
    for (const file of r.written) lines.push(`wrote ${oneLine(file)}`);
    if (r.written.length === 0) lines.push('preflight --fix: nothing to fix mechanically; no file was written.');
  }
  // The values before and after an edit, and why one was declined, quote the files: one line each.
  for (const e of r.edits) lines.push(`  ${c.green(dryRun ? 'would fix' : 'fixed')} ${e.code}${c.dim(where(e.file, e.line))}: ${e.before === '' ? 'added' : oneLine(e.before)} -> ${oneLine(e.after)}`);
  for (const d of r.declined) lines.push(`  ${c.yellow('not fixed')} ${d.code}${c.dim(where(d.file, d.line))}: ${oneLine(d.why)}`);
  if (r.written.length > 0) lines.push(c.dim(`Review the change (git diff) and commit it${r.written.some((f) => f.startsWith('/')) ? '; the settings file is outside the repository' : ''}.`));
  // A dry run ends with what would remain once the edits are made (the audit of the planned files).
  if (dryRun) lines.push('', findingsText(r.after ?? r.before, c, r.after === undefined ? 'preflight' : 'preflight after the fix (dry run: nothing written)'));
  else lines.push('', findingsText(r.after ?? r.before, c, r.after === undefined ? 'preflight' : 'preflight after --fix'));
  return lines.join('\n');
}
