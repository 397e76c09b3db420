import type { Finding, SkippedCheck } from '../core/findings.js';
import type { ProjectFacts } from './facts.js';

/**
 * A check is a pure, synchronous function over facts gathered once up front (house style:
 * "a network probe is a fact, not a check"). Online checks read facts that only exist when
 * preflight ran without --offline; they declare `online: true` and are skipped otherwise.
 */
export interface Check {
  id: string;
  /** The finding codes this check can produce (documented in docs/output.md, "Finding codes"). */
  codes: readonly string[];
  title: string;
  online?: boolean;
  appliesTo?(facts: ProjectFacts): boolean;
  run(facts: ProjectFacts): Finding[];
  /**
   * What this check could not judge on these facts, and why (DESIGN §3: never a silent pass).
   * Asked whatever `appliesTo` says (a check may not apply precisely because a fact is unknown).
   */
  skipped?(facts: ProjectFacts): SkippedCheck[];
}
