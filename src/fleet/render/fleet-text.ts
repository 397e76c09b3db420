import { plainStyle, type Style } from '../../ui/style.js';
import type { FleetReport, FleetVerdict } from '../report-types.js';
import { headerText, planLines, fleetSections, type FleetReportMeta } from './fleet-sections.js';
import { environmentItems, environmentNote, fleetRows, rehearsalLine, rehearsalRows, rehearsalSummary, summaryText, type DetailItem, type FleetRow } from './fleet-rows.js';

const header = ['REPOSITORY', 'VERDICT', 'BLOCKING', 'LAST RELEASE'];
/** A terminal's width: the table fits it, the widest columns clipped first (whole values in the sections below, Markdown, --json). */
const lineWidth = 80;
const gap = 2;
/** Which column gives way first, and down to how much: the last release, then the codes, then the name; never the verdict. */
const yields: readonly { column: number; min: number }[] = [
  { column: 3, min: 14 },
  { column: 2, min: 16 },
  { column: 0, min: 20 },
];

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
  const legend = releaseLegend(rows);
  if (legend !== undefined) lines.push(style.dim(legend));
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
  const cells = rows.map((r) => [firstCell(r.name), r.verdictLabel, r.blocking || '-', release(r)]);
  const widths = columnWidths(header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length))));
  const line = (values: string[], paint: (value: string, column: number) => string): string =>
    values
      .map((v, i) => paint((names.has(i) ? clipMiddle : clipEnd)(v, widths[i]!).padEnd(i === values.length - 1 ? 0 : widths[i]!), i))
      .join(' '.repeat(gap))
      .trimEnd();
  return [
    line(header, (v) => style.bold(v)),
    ...cells.map((c, n) => line(c, (v, i) => (i === 1 ? verdictStyle(style, rows[n]!.verdict)(v) : v))),
  ];
}

/** Narrows the columns that give way, in their order, until the row fits `lineWidth`; past every minimum the row is as narrow as it gets. */
function columnWidths(natural: number[]): number[] {
  const widths = [...natural];
  for (const { column, min } of yields) {
    const over = widths.reduce((a, b) => a + b, 0) + gap * (widths.length - 1) - lineWidth;
    if (over <= 0) break;
    widths[column] = Math.max(Math.min(min, widths[column]!), widths[column]! - over);
  }
  return widths;
}

/** The columns holding repository names: clipped in the middle, where a fleet's names share least (`bigorg/comp…name-001`). */
const names = new Set([0]);

function clipEnd(value: string, width: number): string {
  return value.length > width ? `${value.slice(0, width - 1)}…` : value;
}

function clipMiddle(value: string, width: number): string {
  if (value.length <= width) return value;
  const tail = Math.floor((width - 1) / 2);
  return `${value.slice(0, width - 1 - tail)}…${value.slice(value.length - tail)}`;
}

/**
 * The last release in the 80-column table: its version, marked only when Maven Central does not
 * have it (`no`) or could not say (`?`). The legend under the table says so and when it was asked;
 * the tag and the whole answer are in the sections' formats (Markdown, HTML, --json).
 */
function release(r: FleetRow): string {
  if (r.lastRelease === undefined) return '-';
  const { version, onCentral } = r.lastRelease;
  return onCentral === true ? version : `${version} (${onCentral === false ? 'no' : '?'})`;
}

function releaseLegend(rows: readonly FleetRow[]): string | undefined {
  const releases = rows.flatMap((r) => (r.lastRelease === undefined ? [] : [r.lastRelease]));
  if (releases.length === 0) return undefined;
  // Days only (a document read back may hold anything there): a wrapped line never starts with a value of a repository's.
  const days = [...new Set(releases.flatMap((r) => (r.checked !== undefined && /^\d{4}-\d{2}-\d{2}$/.test(r.checked) ? [r.checked] : [])))].sort();
  const when = days.length === 0 ? '' : ` (checked ${days.length === 1 ? days[0]! : `${days[0]!} to ${days.at(-1)!}`})`;
  const marks = [...(releases.some((r) => r.onCentral === false) ? ['(no): not there'] : []), ...(releases.some((r) => r.onCentral === null) ? ['(?): could not be asked'] : [])];
  return wrap(`LAST RELEASE: the newest release tag's version, on Maven Central${when}${marks.length === 0 ? '.' : ` unless marked ${marks.join(', ')}.`}`);
}

/** Words to lines of at most `lineWidth` (the table's own width). */
function wrap(text: string): string {
  const lines: string[] = [];
  for (const word of text.split(' ')) {
    const last = lines.at(-1);
    if (last !== undefined && last.length + 1 + word.length <= lineWidth) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines.join('\n');
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
