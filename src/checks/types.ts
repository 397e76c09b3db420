import type { Finding } from '../core/findings.js';
import type { ProjectFacts } from './facts.js';

/**
 * A check is a pure, synchronous function over facts gathered once up front (house style:
 * "a network probe is a fact, not a check"). Online checks read facts that only exist when
 * preflight ran without --offline; they declare `online: true` and are skipped otherwise.
 */
export interface Check {
  id: string;
  /** The finding codes this check can produce (documented in the README). */
  codes: readonly string[];
  title: string;
  online?: boolean;
  appliesTo?(facts: ProjectFacts): boolean;
  run(facts: ProjectFacts): Finding[];
}
