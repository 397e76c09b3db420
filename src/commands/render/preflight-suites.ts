import { checks } from '../../checks/index.js';
import type { ProjectFacts } from '../../checks/facts.js';
import { applicableChecks } from '../../checks/run-checks.js';
import { findingGroups, groupOf, type FindingGroup } from '../../core/finding-groups.js';
import type { JunitSuite } from '../../ui/render/findings-junit.js';

/**
 * Preflight's suites: one per group checked, holding the codes of the checks that ran (the
 * applicable checks' codes, and the gatherers' own findings such as xml-malformed).
 */
export function preflightSuites(facts: ProjectFacts, groups: ReadonlySet<FindingGroup>, offline: boolean): JunitSuite[] {
  const ran = [...facts.gatherFindings.map((f) => f.code), ...applicableChecks(checks, facts, { offline }).flatMap((c) => c.codes)];
  const byGroup = new Map<FindingGroup, string[]>();
  for (const code of ran) {
    const group = groupOf(code) ?? 'descriptors';
    if (!groups.has(group)) continue;
    const codes = byGroup.get(group) ?? [];
    if (!codes.includes(code)) codes.push(code);
    byGroup.set(group, codes);
  }
  return findingGroups.filter((g) => byGroup.has(g)).map((g) => ({ name: g, codes: byGroup.get(g)! }));
}
