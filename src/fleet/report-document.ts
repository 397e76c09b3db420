/**
 * A FleetReport from its repositories, and the `--json` document of it (DESIGN §13): one place for
 * the counts and for the `error` a not-ready fleet carries (DESIGN §3), so that `fleet audit` and
 * `fleet report` (which rebuilds a report from a CI matrix's documents) say the same. Pure.
 */
import { failureJson } from '../core/errors.js';
import { nextSteps, releasesNeeded } from './plan.js';
import { fleetVerdicts, type FleetReport, type FleetRepositoryReport, type FleetVerdict } from './report-types.js';

export function fleetReport(repositories: FleetRepositoryReport[], edges: FleetReport['summary']['edges'], environment: FleetReport['environment']): FleetReport {
  const verdicts = Object.fromEntries(fleetVerdicts.map((v) => [v, 0])) as Record<FleetVerdict, number>;
  for (const r of repositories) verdicts[r.verdict]++;
  const ok = repositories.every((r) => r.verdict === 'ready' || r.verdict === 'not-published');
  return { ok, repositories, summary: fleetSummary(repositories, verdicts, edges), environment };
}

/** The summary: counts, edges and the plan (derived from the repositories, so a document read back gets the same plan). */
export function fleetSummary(repositories: readonly FleetRepositoryReport[], verdicts: Record<FleetVerdict, number>, edges: FleetReport['summary']['edges']): FleetReport['summary'] {
  const steps = nextSteps(repositories);
  return { total: repositories.length, verdicts, edges, nextSteps: steps, releasesNeeded: releasesNeeded(repositories, steps) };
}

/** Why a fleet report is not ok: the `error` of its `--json` document. */
export interface FleetFailure {
  code: string;
  message: string;
  fix: string;
}

/** The audit's failure: repositories that are not ready. */
export function notReadyFailure(report: FleetReport): FleetFailure {
  const { total, verdicts } = report.summary;
  const notReady = total - verdicts.ready - verdicts['not-published'];
  return { code: 'fleet-not-ready', message: `${notReady} of ${total} repositories are not ready.`, fix: 'Fix each blocked repository (or its fixIn parent first), then audit again.' };
}

/** What `--json` prints: the report, with an `error` (the audit's, unless a command names its own) when it is not ok. */
export function fleetJsonDocument(report: FleetReport, failure: FleetFailure = notReadyFailure(report)): FleetReport & { error?: Record<string, unknown> } {
  if (report.ok) return report;
  return { ...report, error: failureJson(failure.code, failure.message, failure.fix) };
}
