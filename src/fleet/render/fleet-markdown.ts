import type { FleetReport } from '../report-types.js';
import { environmentItems, environmentNote, fleetDetails, fleetRows, linkUrl, rehearsalLine, rehearsalRows, rehearsalSummary, reportTitle, rowColumns, summaryText, type DetailItem, type FleetRow } from './fleet-rows.js';

/**
 * The fleet dashboard (DESIGN §13; the body of the `relctl fleet readiness` issue): a heading, the
 * counts, one table row per repository, the failing repositories' findings, the machine's findings.
 * Every value comes from a repository: it is escaped so that it reads as the text it is, and can
 * neither end a table cell nor become a link, an image, HTML, a mention or an issue reference.
 * Same report, same bytes.
 */
export function fleetMarkdown(report: FleetReport, options: { details?: boolean } = {}): string {
  const lines = [`# ${reportTitle}`, '', `**${markdownText(summaryText(report))}**`, ''];
  const rows = fleetRows(report);
  if (rows.length > 0) {
    lines.push(`| ${rowColumns.join(' | ')} |`, `|${rowColumns.map(() => ' --- |').join('')}`);
    lines.push(...rows.map((r) => `| ${rowCells(r).join(' | ')} |`), '');
  }
  const rehearsals = rehearsalRows(report);
  if (rehearsals.length > 0) {
    lines.push('## Rehearsals', '', `**${markdownText(rehearsalSummary(rehearsals))}**`, '', ...rehearsals.map((r) => `- ${r.failed ? '**failed**: ' : ''}${markdownText(rehearsalLine(r))}`), '');
  }
  // Without details: the dashboard of a fleet too large for one issue body keeps its table.
  const details = options.details === false ? [] : fleetDetails(report);
  if (details.length > 0) {
    lines.push('## Not ready', '');
    for (const d of details) {
      lines.push(`### ${markdownText(d.name)}: ${d.verdict}`, '', ...d.items.map(listItem), '');
    }
  }
  const environment = environmentItems(report);
  if (environment.length > 0) {
    lines.push('## Environment', '', `Findings ${environmentNote}.`, '', ...environment.map(listItem), '');
  }
  return lines.join('\n');
}

const none = '—';

function rowCells(r: FleetRow): string[] {
  const cell = (value: string): string => (value === '' ? none : markdownText(value));
  const verdict = r.verdict === 'ready' || r.verdict === 'not-published' ? r.verdict : `**${r.verdict}**`;
  return [cell(r.name), cell(r.build), cell(r.route), cell(r.parent), verdict, cell(r.blocking), cell(r.release), cell(r.published), pullRequestCell(r)];
}

function pullRequestCell(r: FleetRow): string {
  if (r.pullRequest === null) return none;
  const label = markdownText(r.pullRequest.label);
  const url = linkUrl(r.pullRequest.url);
  // Only an http(s) URL becomes a link; its characters that Markdown or a table reads are encoded.
  return url === undefined ? label : `[${label}](${url.replace(/[()|`\\<>[\] ]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`)})`;
}

function listItem(item: DetailItem): string {
  const fix = item.fix === undefined ? '' : ` Fix: ${markdownText(item.fix)}`;
  return `- ${item.severity}: ${markdownText(item.text)}${fix}`;
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
