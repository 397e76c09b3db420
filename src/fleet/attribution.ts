/**
 * Whose change fixes a finding, and each repository's verdict (DESIGN §13). Pure.
 *
 * A value children inherit (distribution, the publishing plugin, developers, licenses, plugin
 * versions) that a repository does not declare itself is fixed once, in the nearest fleet
 * repository among its ancestors (`fixIn`): a child whose every error is of that kind waits on
 * its parent. Findings about the machine the audit ran on (credentials) decide no verdict.
 */
import { groupOf } from '../core/finding-groups.js';
import type { Finding } from '../core/findings.js';
import type { FleetEnvironmentFinding, FleetFinding, FleetVerdict } from './report-types.js';

/** Codes whose fix is a value children inherit. */
const inheritedCodes = new Set([
  'legacy-staging-host', 'legacy-staging-id', 'distribution-url', 'missing-distribution', 'missing-developers', 'developers-incomplete',
  'developer-empty', 'license-empty', 'missing-pom-metadata', 'plugin-version-missing', 'published-repositories', 'unresolved-property',
  'publishing-plugins-conflict',
]);

/** Codes about something absent: no element to point at, so a child cannot be said to declare it. */
const absenceCodes = new Set(['missing-distribution', 'missing-developers', 'missing-pom-metadata']);

/** Findings about the machine, not the repository: listed once under `environment`. */
export function isEnvironmentFinding(code: string): boolean {
  const group = groupOf(code);
  return group === 'credentials' || group === 'signing' || code === 'dirty-worktree' || code === 'detached-head' || code === 'git-identity';
}

/** What attribution needs to know of one audited repository. */
export interface AttributionFacts {
  /** `file:line` of each `<parent>` through which a module inherits from outside the repository. */
  exits: ReadonlySet<string>;
  /** The nearest fleet repository among a module's ancestors (by `groupId:artifactId`), if any. */
  fleetAncestorOf(module: string | undefined): string | undefined;
}

/** The fleet repository that fixes `f`, or undefined when it is the repository's own. */
export function fixInOf(f: Finding, facts: AttributionFacts): string | undefined {
  if (!inheritedCodes.has(f.code)) return undefined;
  const ancestor = facts.fleetAncestorOf(f.module);
  if (ancestor === undefined) return undefined;
  // `<name>` is never inherited: a POM without one is the repository's to fix.
  if (f.code === 'missing-pom-metadata' && f.message.includes('<name>')) return undefined;
  if (absenceCodes.has(f.code)) return ancestor;
  // An inherited value is reported at the `<parent>` it comes through; one written in the
  // repository is reported where it is written, and is the repository's own to change.
  return f.file !== undefined && f.line !== undefined && facts.exits.has(`${f.file}:${f.line}`) ? ancestor : undefined;
}

export interface Attributed {
  findings: FleetFinding[];
  environment: Finding[];
  blocking: string[];
  fixIn: string[];
}

/** Splits a repository's findings into its own (with `fixIn` where a fleet ancestor fixes them) and the machine's. */
export function attribute(findings: readonly Finding[], facts: AttributionFacts): Attributed {
  const own: FleetFinding[] = [];
  const environment: Finding[] = [];
  for (const f of findings) {
    if (isEnvironmentFinding(f.code)) {
      environment.push(f);
      continue;
    }
    const fixIn = fixInOf(f, facts);
    const { subject: _subject, ...shown } = f;
    own.push(fixIn === undefined ? shown : { ...shown, fixIn });
  }
  const errors = own.filter((f) => f.severity === 'error');
  return {
    findings: own,
    environment,
    blocking: [...new Set(errors.map((f) => f.code))].sort(),
    fixIn: [...new Set(errors.flatMap((f) => (f.fixIn === undefined ? [] : [f.fixIn])))].sort(),
  };
}

/** The verdict of an audited repository (error verdicts are decided where the failure is). */
export function verdictOf(attributed: Pick<Attributed, 'findings'>, publishes: boolean): FleetVerdict {
  if (!publishes) return 'not-published';
  const errors = attributed.findings.filter((f) => f.severity === 'error');
  if (errors.length === 0) return 'ready';
  return errors.every((f) => f.fixIn !== undefined) ? 'waits-on-parent' : 'blocked';
}

/**
 * The machine's findings of every repository, each once, with the repositories it was seen in.
 * Where the repositories' messages differ (one names a settings file its own workflow passes), the
 * message most of them gave is shown, the shortest on a tie: the one that holds for the list.
 */
export class EnvironmentFindings {
  private readonly byKey = new Map<string, { finding: FleetEnvironmentFinding; messages: Map<string, number> }>();

  add(repo: string, findings: readonly Finding[]): void {
    for (const f of findings) {
      // The fix names the machine's file (its settings, its key); the message may name each repository's.
      const key = `${f.code}\u0000${f.fix}`;
      const known = this.byKey.get(key);
      if (known === undefined) this.byKey.set(key, { finding: { code: f.code, severity: f.severity, message: f.message, fix: f.fix, repositories: [repo] }, messages: new Map([[f.message, 1]]) });
      else if (!known.finding.repositories.includes(repo)) {
        known.finding.repositories.push(repo);
        known.messages.set(f.message, (known.messages.get(f.message) ?? 0) + 1);
      }
    }
  }

  list(): FleetEnvironmentFinding[] {
    return [...this.byKey.values()]
      .map(({ finding, messages }) => ({ ...finding, message: commonest(messages), repositories: [...finding.repositories].sort() }))
      .sort((a, b) => a.code.localeCompare(b.code) || a.message.localeCompare(b.message));
  }
}

function commonest(messages: ReadonlyMap<string, number>): string {
  return [...messages].sort(([a, m], [b, n]) => n - m || a.length - b.length || a.localeCompare(b))[0]![0];
}
