import { groupOf, type FindingGroup } from '../core/finding-groups.js';
import { toReport, type CheckReport } from '../core/findings.js';
import { applyFindingRules } from '../core/finding-rules.js';
import type { GitFacts } from '../io/git.js';
import type { PreferredParents } from '../build-tools/maven/load.js';
import type { CommandContext } from '../io/command-context.js';
import type { ProjectFacts } from './facts.js';
import { gatherFacts } from './gather-facts.js';
import { checks } from './index.js';
import { runChecks, skippedChecks } from './run-checks.js';
import { oneFindingPerCause } from './same-cause.js';

export interface Audit {
  facts: ProjectFacts;
  /** The selected groups' findings and skipped checks. */
  report: CheckReport;
  /** Milliseconds spent reading (gathering facts, online lookups included) and checking. */
  gatherMs: number;
  checkMs: number;
}

/**
 * Preflight's audit, the one `relctl preflight` prints and `preflight --fix` runs before and after
 * its edits: facts gathered once (like gatherFacts, this reads), every applicable check, and the
 * findings and skipped checks of the selected groups only, with the project's finding rules applied.
 */
export async function auditProject(
  ctx: CommandContext,
  options: { offline: boolean; groups: ReadonlySet<FindingGroup>; git?: Promise<GitFacts>; preferredParents?: PreferredParents },
): Promise<Audit> {
  const { offline, groups } = options;
  const began = Date.now();
  const facts = await gatherFacts(ctx, { offline, skipOnlineChecks: !groups.has('online'), readSigningKey: groups.has('signing'), ...(options.git === undefined ? {} : { git: options.git }), ...(options.preferredParents === undefined ? {} : { preferredParents: options.preferredParents }) });
  const gathered = Date.now();
  const selected = (code: string): boolean => groups.has(groupOf(code) ?? 'descriptors');
  const skipped = skippedChecks(checks, facts, { offline }).filter((s) => selected(s.check));
  // The project's `rules` (relctl.config.json) apply to every audit: what --fix plans from and what it
  // leaves. Before the one-finding-per-cause rule, so a finding turned off never hides another.
  const ruled = applyFindingRules(toReport(runChecks(checks, facts, { offline }).filter((f) => selected(f.code)), skipped), ctx.config.rules);
  const report = toReport(oneFindingPerCause(ruled.findings, facts), ruled.skipped);
  return { facts, report, gatherMs: gathered - began, checkMs: Date.now() - gathered };
}
