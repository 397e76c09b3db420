/**
 * One fleet report from several (DESIGN §13, `fleet report --from`): a CI matrix runs `fleet audit
 * --only NAME --json` once per repository, and the dashboard is the report one local `fleet audit`
 * of the whole fleet would give. Each `--only` audit already reads its parents from the fleet and
 * attributes its findings as the whole audit does, so merging is bookkeeping: each repository once,
 * parents first by the union of the parent edges, the machine's findings listed once with every
 * repository they were seen in, the counts recomputed. Pure.
 */
import { EnvironmentFindings } from './attribution.js';
import { parentsFirst } from './pom-index.js';
import { fleetReport } from './report-document.js';
import type { FleetReport, FleetRepositoryReport } from './report-types.js';

export interface MergedReports {
  report: FleetReport;
  /** Repositories found in more than one document: the first document's is kept (documents in the caller's order). */
  duplicates: string[];
}

export function mergeFleetReports(reports: readonly FleetReport[]): MergedReports {
  const byName = new Map<string, FleetRepositoryReport>();
  const duplicates = new Set<string>();
  // Which document each kept repository came from: its machine findings are that document's.
  const sourceOf = new Map<string, FleetReport>();
  for (const report of reports) {
    for (const r of report.repositories) {
      if (byName.has(r.name)) {
        duplicates.add(r.name);
        continue;
      }
      byName.set(r.name, r);
      sourceOf.set(r.name, report);
    }
  }
  // An edge to a repository no document holds (its job failed) would draw a parent that is not there.
  const edges = new Map<string, { from: string; to: string }>();
  for (const report of reports) {
    for (const e of report.summary.edges) if (byName.has(e.from) && byName.has(e.to)) edges.set(`${e.from}\u0000${e.to}`, e);
  }
  const edgeList = [...edges.values()].sort((a, b) => a.from.localeCompare(b.from, 'en') || a.to.localeCompare(b.to, 'en'));
  const order = parentsFirst([...byName.keys()], edgeList);
  // In parents-first order, as a one-process audit adds them: the first repository's message is kept.
  const environment = new EnvironmentFindings();
  const added = new Set<FleetReport>();
  for (const name of order) {
    const source = sourceOf.get(name)!;
    if (added.has(source)) continue;
    added.add(source);
    for (const e of source.environment) for (const repo of e.repositories) environment.add(repo, [e]);
  }
  return { report: fleetReport(order.map((n) => byName.get(n)!), edgeList, environment.list()), duplicates: [...duplicates].sort() };
}
