import { plainStyle, type Style } from '../../ui/style.js';
import type { FleetReport, FleetVerdict } from '../report-types.js';
import { headerText, planLines, fleetSections, type FleetReportMeta } from './fleet-sections.js';
import { environmentItems, environmentNote, fleetRows, rehearsalLine, rehearsalRows, rehearsalSummary, summaryText, type DetailItem, type FleetRow } from './fleet-rows.js';

const header = ['REPOSITORY', 'BUILD', 'ROUTE', 'PARENT', 'VERDICT', 'BLOCKING', 'LAST RELEASE'];
/** A longer value is printed whole and shifts the rest of its row only, not every row's columns. */
const maxWidth = 40;

/**
 * The fleet as text (DESIGN §13): a table, parents first; the error findings and errors of each
 * failing repository; the machine's findings once; a summary line. Every value is on one line, and
 * no line starts with `::` (a GitHub Actions workflow command) whatever a repository holds.
 */
export function fleetText(report: FleetReport, style: Style = plainStyle, meta?: FleetReportMeta): string {
  const rows = fleetRows(report);
  const header = headerText(meta);
  const lines = [...(header === '' ? [] : [style.dim(`relctl fleet readiness · ${header}`)]), style.bold(summaryText(report))];
  const plan = planLines(report);
  if (plan.steps.length > 0) lines.push('', style.bold(`${plan.title}:`), ...plan.steps.map((s, i) => `  ${i + 1}. ${s}`));
  lines.push('', ...(rows.length === 0 ? ['no repositories'] : table(rows, style)));
  const rehearsals = rehearsalRows(report);
  if (rehearsals.length > 0) {
    lines.push('', style.bold(`${rehearsalSummary(rehearsals)} (parents first):`));
    // relctl's own word first, as in itemLines: a name cannot start the line.
    lines.push(...rehearsals.map((r) => `  ${r.succeeded ? style.green('passed ') : r.failed ? style.red('failed ') : style.dim('skipped')} ${rehearsalLine(r)}`));
  }

  for (const d of fleetSections(report)) {
    // relctl's word first: the verdict, then the name (a name cannot start the line).
    const verdict = d.verdict === undefined ? 'parent' : d.kind === 'warnings' ? d.note : d.verdict;
    const note = d.kind === 'parent' ? `: ${d.note}` : '';
    lines.push('', `${verdictStyle(style, d.verdict ?? 'waits-on-parent')(verdict)}: ${style.bold(d.name)}${note}`);
    lines.push(...d.items.flatMap((item) => itemLines(item, style)));
    lines.push(...d.children.map((c) => `  ${style.yellow('waits  ')} ${c.name}: ${c.text}`));
  }
  const environment = environmentItems(report);
  if (environment.length > 0) {
    lines.push('', style.bold(`environment (${environmentNote}):`));
    lines.push(...environment.flatMap((item) => itemLines(item, style)));
  }
  lines.push('', (report.ok ? style.green : style.red)(`fleet: ${summaryText(report)}`));
  return lines.join('\n');
}

function table(rows: FleetRow[], style: Style): string[] {
  const cells = rows.map((r) => [firstCell(r.name), r.build, r.route, r.parent || '-', r.verdictLabel, r.blocking || '-', release(r)]);
  const widths = header.map((h, i) => Math.min(maxWidth, Math.max(h.length, ...cells.map((c) => c[i]!.length))));
  const line = (values: string[], paint: (value: string, column: number) => string): string =>
    values
      .map((v, i) => paint(i === values.length - 1 ? v : v.padEnd(widths[i]!), i))
      .join('  ')
      .trimEnd();
  return [
    line(header, (v) => style.bold(v)),
    ...cells.map((c, n) => line(c, (v, i) => (i === 4 ? verdictStyle(style, rows[n]!.verdict)(v) : v))),
  ];
}

function release(r: FleetRow): string {
  return r.release === '' ? '-' : `${r.release} (on Maven Central: ${r.published})`;
}

/** A row starts with the repository's name: one that would read as a workflow command is quoted. */
function firstCell(name: string): string {
  return /^\s*::/.test(name) ? JSON.stringify(name) : name;
}

/** Each line starts with relctl's own word (the severity), never with a repository's value. */
function itemLines(item: DetailItem, style: Style): string[] {
  const tag = item.severity === 'error' ? style.red('error  ') : style.yellow('warning');
  return [`  ${tag} ${item.text}`, ...(item.fix === undefined ? [] : [`          ${style.dim('fix:')} ${item.fix}`])];
}

function verdictStyle(style: Style, verdict: FleetVerdict): (text: string) => string {
  switch (verdict) {
    case 'ready':
      return style.green;
    case 'waits-on-parent':
      return style.yellow;
    case 'not-published':
      return style.dim;
    default:
      return (text) => style.bold(style.red(text));
  }
}
