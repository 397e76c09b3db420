/**
 * Plans `preflight --fix` (DESIGN §4, Fixes): every rule whose codes appear in the findings plans
 * its edits; a finding no rule covers is declined with the fix a person must make. Pure.
 */
import { applyEdits } from '../../core/fix/apply.js';
import type { FixDeclined, FixEdit, FixPlan } from '../../core/fix/types.js';
import type { FixContext, FixRule } from './types.js';
import { declined as declinedAt } from './edits.js';

/** The files a plan changes: each file's text before and after its edits. */
export interface PlannedFile {
  file: string;
  before: string;
  after: string;
  edits: FixEdit[];
}

export interface PlannedFix extends FixPlan {
  files: PlannedFile[];
}

// Findings about the worktree itself: the fix refuses or allows the worktree; nothing to decline.
const notDeclined = new Set(['dirty-worktree']);

/**
 * Runs the rules and groups their edits by file (in the order the rules made them). An edit that
 * changes nothing is dropped, so a second `--fix` plans nothing (idempotence); an edit that
 * overlaps an earlier one of the same file is declined rather than guessed at. A rule's edits are
 * one fix, made whole or not at all: when it read a file relctl may not edit (`refused` says why:
 * a linked POM outside the project, a settings file outside the project and the Maven home) or
 * edits a file that is not `allowed`, none of its edits is made (a POM id and the settings
 * `<server>` change together). An edit made only together with another rule's (`with`) is
 * declined when that one is not made.
 */
export function planFixes(
  rules: readonly FixRule[],
  ctx: FixContext,
  allowed: (file: string) => boolean,
  refused: (file: string) => string | undefined = () => undefined,
): PlannedFix {
  const codes = new Set(ctx.findings.map((f) => f.code));
  const edits: FixEdit[] = [];
  const declined: FixDeclined[] = [];
  const covered = new Set<string>();
  for (const rule of rules) {
    if (!rule.codes.some((c) => codes.has(c))) continue;
    for (const c of rule.codes) covered.add(c);
    const asked = new Set<string>();
    const plan = rule.plan({
      ...ctx,
      read: (file) => {
        asked.add(file);
        return ctx.read(file);
      },
    });
    declined.push(...plan.declined);
    const blockedBy = [...asked].find((file) => refused(file) !== undefined) ?? plan.edits.find((e) => !allowed(e.file))?.file;
    if (blockedBy === undefined) {
      edits.push(...plan.edits);
      continue;
    }
    const why = refused(blockedBy) ?? `${blockedBy} is outside the project and is not the settings file preflight used; relctl does not edit it`;
    const seen = new Set<string>();
    for (const e of plan.edits) {
      const key = `${e.code}\0${e.file}\0${e.line}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const also = e.file === blockedBy ? '' : ` A fix is made whole or not at all, so ${e.file} is not changed either.`;
      declined.push(declinedAt(e.code, `${why}.${also}`, e));
    }
  }
  declined.push(...withoutPartner(edits, declined, (file) => ctx.unreadable?.(file) ?? refused(file)));
  for (const f of ctx.findings) {
    if (covered.has(f.code) || notDeclined.has(f.code)) continue;
    declined.push(declinedAt(f.code, `not a mechanical fix (it needs a person's facts): ${f.fix}`, f));
  }
  const byFile = new Map<string, FixEdit[]>();
  for (const e of edits) {
    const text = ctx.read(e.file)?.text ?? '';
    if (text.slice(e.start, e.end) === e.replacement) continue;
    const list = byFile.get(e.file) ?? [];
    if (list.some((o) => e.start < o.end && o.start < e.end || (e.start === e.end && e.start === o.start))) {
      declined.push(declinedAt(e.code, `another fix changes the same place in ${e.file}; run relctl preflight --fix again afterwards.`, e));
      continue;
    }
    list.push(e);
    byFile.set(e.file, list);
  }
  const files = [...byFile].map(([file, list]) => {
    const before = ctx.read(file)?.text ?? '';
    list.sort((a, b) => a.start - b.start);
    return { file, before, after: applyEdits(before, list), edits: list };
  });
  return { edits: files.flatMap((f) => f.edits), declined, files };
}

/**
 * Removes from `edits` each one whose partner edit (`with`: a POM change the `<server>` is for) is
 * not among them, and says why, with the partner's own reason when a rule gave one: half a fix
 * (a `<server>` for an id no POM declares) is worse than none.
 */
function withoutPartner(edits: FixEdit[], declined: readonly FixDeclined[], unusable: (file: string) => string | undefined): FixDeclined[] {
  const out: FixDeclined[] = [];
  const alone = edits.filter((e) => e.with !== undefined && !edits.some((o) => o !== e && e.with!.codes.includes(o.code) && e.with!.files.includes(o.file)));
  for (const e of alone) {
    edits.splice(edits.indexOf(e), 1);
    const files = e.with!.files.join(', ') || 'a POM';
    // The file's own problem (a lone-CR POM) says it shortest; else what the partner's rule said.
    const cause = e.with!.files.map(unusable).find((why) => why !== undefined) ?? declined.find((d) => d.file !== undefined && e.with!.files.includes(d.file) && e.with!.codes.includes(d.code))?.why;
    const because = cause === undefined ? '' : `: ${cause.replace(/\.$/, '')}`;
    out.push(declinedAt(e.code, `${e.file} would get "${e.after}" for the repository id the change to ${files} declares, and that change is not made${because}. A fix is made whole or not at all, so ${e.file} is not changed either.`, e));
  }
  return out;
}
