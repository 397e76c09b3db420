import type { Finding, SkippedCheck } from '../core/findings.js';
import type { ProjectFacts } from './facts.js';
import type { Check } from './types.js';

/** The checks that apply to these facts (online ones only when the online facts were gathered). */
export function applicableChecks(checks: readonly Check[], facts: ProjectFacts, options: { offline: boolean }): Check[] {
  return checks.filter(
    (check) =>
      !(check.online === true && (options.offline || facts.online === undefined)) &&
      (check.appliesTo === undefined || check.appliesTo(facts)),
  );
}

/**
 * Runs every applicable check. A check that throws is a bug in relctl, not a finding about the
 * project, so it propagates (the CLI prints it as an internal error).
 */
export function runChecks(checks: readonly Check[], facts: ProjectFacts, options: { offline: boolean }): Finding[] {
  const findings: Finding[] = [...facts.gatherFindings];
  for (const check of applicableChecks(checks, facts, options)) {
    // A loop, not push(...spread): a check may return more findings than the engine's argument limit.
    for (const finding of check.run(facts)) findings.push(finding);
  }
  return findings;
}

/**
 * The checks that could not run and why: what the gatherers could not read (facts.gatherSkipped),
 * then what each check says it could not judge. Checks left out on purpose (online ones with
 * --offline) are not listed: the user chose that.
 */
export function skippedChecks(checks: readonly Check[], facts: ProjectFacts, options: { offline: boolean }): SkippedCheck[] {
  const out: SkippedCheck[] = [...(facts.gatherSkipped ?? [])];
  for (const check of checks) {
    if (check.skipped === undefined) continue;
    if (check.online === true && (options.offline || facts.online === undefined)) continue;
    for (const s of check.skipped(facts)) out.push(s);
  }
  return out;
}
