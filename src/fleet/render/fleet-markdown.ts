import type { FleetReport } from '../report-types.js';
import { environmentItems, environmentNote, fails, fleetRows, linkUrl, rehearsalLine, rehearsalRows, rehearsalSummary, reportTitle, splitAt, summaryText, type DetailItem, type FleetRow } from './fleet-rows.js';
import { fleetSections, headerText, planLines, type FleetReportMeta, type FleetSection } from './fleet-sections.js';

/** What the dashboard keeps when the whole report is too long for an issue (dashboard-issue.ts). */
export interface MarkdownCut {
  /** Only the rows of repositories that are not ready. */
  notReadyRows?: boolean;
  /** No findings sections (they are in the HTML artifact). */
  details?: boolean;
  /** Only the columns that say what is wrong and whose fix it is (repository, verdict, blocking, parent). */
  compact?: boolean;
  /** At most this many rows; the rest counted. */
  maxRows?: number;
  /** A closing note (where the rest is). */
  note?: string;
}

/** The columns the dashboard shows: what fits GitHub's 880 px issue column. */
export const markdownColumns = ['repository', 'verdict', 'blocking', 'parent', 'last release', 'pull request'] as const;

/**
 * The fleet dashboard (DESIGN §13; the body of the `relctl fleet readiness` issue): a heading, the
 * header and counts, the plan, one table row per repository, the findings grouped by whose fix they
 * are (each in a `<details>`), the machine's findings. Every value comes from a repository: it is
 * escaped so that it reads as the text it is, and can neither end a table cell nor become a link,
 * an image, HTML, a mention or an issue reference. Same report, same bytes.
 */
export function fleetMarkdown(report: FleetReport, options: MarkdownCut & { meta?: FleetReportMeta } = {}): string {
  const header = headerText(options.meta);
  const lines = [`# ${reportTitle}`, '', ...(header === '' ? [] : [`_${markdownText(header)}_`, '']), `**${markdownText(summaryText(report))}**`, ''];
  const plan = planLines(report, markdownText);
  if (plan.steps.length > 0) lines.push(`## ${plan.title}`, '', ...plan.steps.map((s, i) => `${i + 1}. ${s}`), '');
  const all = fleetRows(report);
  const kept = options.notReadyRows === true ? all.filter((r) => fails(r.verdict)) : all;
  const rows = options.maxRows === undefined ? kept : kept.slice(0, options.maxRows);
  if (rows.length > 0) {
    const columns = options.compact === true ? markdownColumns.slice(0, 4) : markdownColumns;
    lines.push(`| ${columns.join(' | ')} |`, `|${columns.map(() => ' --- |').join('')}`);
    lines.push(...rows.map((r) => `| ${rowCells(r).slice(0, columns.length).join(' | ')} |`), '');
  }
  const left = all.length - rows.length;
  if (left > 0) lines.push(`_${left} more ${left === 1 ? 'repository' : 'repositories'} (${kept.length - rows.length} of them not ready) not shown here._`, '');
  const rehearsals = rehearsalRows(report);
  if (rehearsals.length > 0 && options.details !== false) {
    lines.push('## Rehearsals', '', `**${markdownText(rehearsalSummary(rehearsals))}**`, '', ...rehearsals.map((r) => `- ${r.failed ? '**failed**: ' : ''}${markdownText(rehearsalLine(r))}`), '');
  }
  const sections = options.details === false ? [] : fleetSections(report);
  if (sections.length > 0) {
    lines.push('## Findings by whose fix they are', '');
    for (const d of sections) lines.push(...section(d), '');
  }
  const environment = environmentItems(report);
  if (environment.length > 0) {
    lines.push('## Environment', '', `Findings ${environmentNote}.`, '', ...environment.map(listItem), '');
  }
  if (options.note !== undefined) lines.push(options.note, '');
  return lines.join('\n');
}

/** One collapsed section: `NAME: blocked, 10 repositories wait on this`, its findings, its children's lines. */
function section(d: FleetSection): string[] {
  const verdict = d.kind === 'warnings' ? d.note : `${d.verdict ?? 'not in this report'}${d.note === '' ? '' : `, ${d.note}`}`;
  const open = d.kind === 'warnings' ? '<details>' : '<details open>';
  return [
    open,
    `<summary>${summaryHtml(d.name)}: ${summaryHtml(verdict)}</summary>`,
    '',
    ...d.items.map(listItem),
    ...d.children.map((c) => `- ${markdownText(c.name)}: ${markdownText(c.text)}`),
    '',
    '</details>',
  ];
}

/** Text inside an HTML element (GitHub reads no Markdown there): HTML's specials as entities, no mention or reference. */
function summaryHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/#(?=\d)/g, '#&#8203;')
    .replace(/@(?=\w)/g, '@&#8203;')
    .replace(/[`[\]|*_~\\]/g, (c) => `&#${c.charCodeAt(0)};`);
}

const none = '—';

function rowCells(r: FleetRow): string[] {
  const cell = (value: string): string => (value === '' ? none : markdownText(value));
  const verdict = r.verdict === 'ready' || r.verdict === 'not-published' ? markdownText(r.verdictLabel) : `**${r.verdict}**`;
  const tag = r.releasePage === undefined ? markdownText(r.release) : `[${markdownText(r.release)}](${encodeLink(r.releasePage)})`;
  const release = r.release === '' ? none : `${tag} (on Maven Central: ${markdownText(r.published)})`;
  const name = r.page === undefined ? cell(r.name) : `[${markdownText(r.name)}](${encodeLink(r.page)})`;
  return [name, verdict, cell(r.blocking), cell(r.parentRepository || r.parent), release, pullRequestCell(r)];
}

function pullRequestCell(r: FleetRow): string {
  if (r.pullRequest === null) return none;
  const label = markdownText(r.pullRequest.label);
  const url = linkUrl(r.pullRequest.url);
  // Only an http(s) URL becomes a link; its characters that Markdown or a table reads are encoded.
  return url === undefined ? label : `[${label}](${encodeLink(url)})`;
}

/** A link target with the characters Markdown or a table reads percent-encoded. */
function encodeLink(url: string): string {
  return url.replace(/[()|`\\<>[\] ]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

function listItem(item: DetailItem): string {
  const fix = item.fix === undefined ? '' : ` Fix: ${markdownText(item.fix)}`;
  const parts = splitAt(item);
  const text = parts === undefined || item.at === undefined ? markdownText(item.text) : `${markdownText(parts[0])}[${markdownText(parts[1])}](${encodeLink(item.at.url)})${markdownText(parts[2])}`;
  return `- ${item.severity}: ${text}${fix}`;
}

/**
 * Literal text in a GitHub Markdown table cell or list item. HTML's three as entities (no tag,
 * no autolink, no entity of the value's own); the punctuation Markdown reads backslash-escaped (no
 * code span, emphasis, strike-through, link or image; `\|` keeps a table cell whole, even in GFM's first pass); a
 * zero-width space after `@` and before an issue number's digits, as Renovate does, so that a
 * value mentions nobody and references no issue each time the dashboard is edited.
 */
export function markdownText(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/[\\`*_[\]|~]/g, '\\$&')
    .replace(/#(?=\d)/g, '#&#8203;')
    .replace(/@(?=\w)/g, '@&#8203;');
}
