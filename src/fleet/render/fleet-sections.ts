import { childMoveText, ownErrors, parentGroups, releasesText, stepText } from '../plan.js';
import type { FleetFinding, FleetReport, FleetRepositoryReport, FleetVerdict } from '../report-types.js';
import { fileLink, oneLine, verdictText, type DetailItem } from './fleet-rows.js';

/**
 * What the human formats show after the counts (DESIGN §13 "The report leads with the plan"), as
 * plain strings each format escapes: the header, the plan's steps, and the findings grouped by
 * whose fix they are (one section per fleet parent with a line per waiting child, one per
 * repository with fixes of its own, one per ready repository with warnings).
 */

/** Who made the report and when: the header line of every human format. */
export interface FleetReportMeta {
  /** `YYYY-MM-DD` (a day, so that the dashboard is not edited for the clock alone). */
  date: string;
  version: string;
}

export function headerText(meta: FleetReportMeta | undefined): string {
  return meta === undefined ? '' : `${oneLine(meta.date)} · relctl ${oneLine(meta.version)}`;
}

/** `Next steps (the plan needs 5 releases)`, and the steps in words; none when every repository is ready. */
export function planLines(report: FleetReport, name: (repository: string) => string = oneLine): { title: string; steps: string[] } {
  const steps = report.summary.nextSteps.map((s) => stepText(s, name));
  return { title: `Next steps (${releasesText(report.summary.releasesNeeded, report.summary.publishingBudget)})`, steps };
}

export interface FleetSection {
  kind: 'parent' | 'own' | 'warnings';
  name: string;
  verdict: FleetVerdict | undefined;
  /** `10 repositories wait on this`, `2 warnings`, ''. */
  note: string;
  items: DetailItem[];
  /** Under a parent: each waiting child's line. */
  children: { name: string; text: string }[];
}

/** A finding in words; its `file:line` links to the file at the audited commit when `r` is the repository that has the file. */
function item(f: FleetFinding, r?: FleetRepositoryReport): DetailItem {
  const label = f.file === undefined ? '' : `${oneLine(f.file)}${f.line === undefined ? '' : `:${oneLine(f.line)}`}`;
  const url = r === undefined || f.file === undefined ? undefined : fileLink(r, oneLine(f.file), f.line);
  return { severity: f.severity, text: `${oneLine(f.code)}${label === '' ? '' : ` ${label}`}: ${oneLine(f.message)}`, fix: oneLine(f.fix), ...(url === undefined ? {} : { at: { label, url } }) };
}


function failure(r: FleetRepositoryReport): DetailItem[] {
  if (r.error === undefined) return [];
  const { code, message, fix } = r.error;
  return [{ severity: 'error', text: `could not audit: ${oneLine(code)}: ${oneLine(message)}`, ...(fix === undefined ? {} : { fix: oneLine(fix) }) }];
}

/**
 * The sections, in the plan's order: each fleet parent others wait on (its own errors, then the
 * inherited findings it does not show itself, each with its fix once, then a line per child), each
 * other failing repository (its own errors only: what it waits on is said under its parent), then
 * each ready repository with warnings.
 */
export function fleetSections(report: FleetReport): FleetSection[] {
  const sections: FleetSection[] = [];
  const groups = parentGroups(report.repositories);
  for (const g of groups) {
    const own = g.report === undefined ? [] : ownErrors(g.report);
    const inherited = g.inherited.filter((f) => !own.some((o) => o.code === f.code)).map((f) => ({ ...item(f), text: `${item(f).text} (in the released version the children name)` }));
    const n = g.children.length;
    sections.push({
      kind: 'parent',
      name: oneLine(g.parent),
      verdict: g.report?.verdict,
      note: `${n} ${n === 1 ? 'repository waits' : 'repositories wait'} on this`,
      items: [...own.map((f) => item(f, g.report)), ...inherited, ...(g.report === undefined ? [] : failure(g.report))],
      children: g.children.map((c) => ({ name: oneLine(c.name), text: childMoveText(oneLine(g.parent), oneLine(c.from)) })),
    });
  }
  const parents = new Set(groups.map((g) => g.parent));
  for (const r of report.repositories) {
    if (parents.has(r.name)) continue;
    if (r.verdict === 'blocked' || r.verdict === 'error') {
      sections.push({ kind: 'own', name: oneLine(r.name), verdict: r.verdict, note: '', items: [...ownErrors(r).map((f) => item(f, r)), ...failure(r)], children: [] });
    } else if (r.verdict === 'ready' && verdictText(r) !== 'ready') {
      sections.push({ kind: 'warnings', name: oneLine(r.name), verdict: r.verdict, note: verdictText(r), items: r.findings.filter((f) => f.severity === 'warning').map((f) => item(f, r)), children: [] });
    }
  }
  return sections;
}

/**
 * What `fleet fix --dry-run` says after the diffs: the plan in the report's order, and each
 * repository it leaves alone and why (waiting on a parent's release, publishing nothing, ...).
 */
export function fixDryRunText(report: FleetReport): string {
  const plan = planLines(report);
  const lines = plan.steps.length === 0 ? ['Next steps: none, every repository is ready or publishes nothing.'] : [`${plan.title}:`, ...plan.steps.map((s, i) => `  ${i + 1}. ${s}`)];
  const alone = report.repositories.filter((r) => r.change !== undefined && (r.change.action === 'none' || r.change.action === 'waiting' || r.change.action === 'held'));
  if (alone.length > 0) {
    lines.push('', 'Left alone:');
    lines.push(...alone.map((r) => `  - ${oneLine(r.name)} (${r.change?.why === undefined ? r.change?.action ?? '' : oneLine(r.change.why)})`));
  }
  return lines.join('\n');
}
