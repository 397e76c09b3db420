import { attr, text } from '../../ui/render/findings-junit.js';
import { fleetVerdicts, type FleetReport, type FleetVerdict } from '../report-types.js';
import { fleetGraphSvg, verdictColours } from './fleet-graph.js';
import { fleetSections, headerText, planLines, type FleetReportMeta } from './fleet-sections.js';
import { environmentItems, environmentNote, fleetRows, linkUrl, rehearsalLine, rehearsalRows, rehearsalSummary, reportTitle, rowColumns, splitAt, type DetailItem, type FleetRow } from './fleet-rows.js';

/**
 * The fleet report as one self-contained HTML page (DESIGN §13, `--format html`): the summary, the
 * parent graph (inline SVG), the dashboard's table, the failing repositories' findings and the
 * machine's. No script, and nothing loaded from anywhere: the CSS is inline, and the page's own
 * Content-Security-Policy forbids any load, so even a value that escaped its escaping could load
 * nothing. Every value from a repository is HTML-escaped. Same report, same bytes.
 */
export function fleetHtml(report: FleetReport, meta?: FleetReportMeta): string {
  const header = headerText(meta);
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${text(reportTitle)}</title>`,
    `<style>${css()}</style>`,
    '</head>',
    '<body>',
    `<h1>${text(reportTitle)}</h1>`,
    ...(header === '' ? [] : [`<p class="note">${text(header)}</p>`]),
    summary(report),
    ...plan(report),
    '<h2>Parent graph</h2>',
    '<p class="note">Each repository under the fleet repository that builds its parent, a line from each child to its parent; a parent says how many repositories its fix unblocks.</p>',
    `<div class="graph-box">\n${fleetGraphSvg(report)}\n</div>`,
    '<h2>Repositories</h2>',
    table(fleetRows(report)),
    ...rehearsals(report),
    ...details(report),
    ...environment(report),
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

function summary(report: FleetReport): string {
  const { total, verdicts } = report.summary;
  const counts = fleetVerdicts.map((v) => `<li>${verdictBadge(v)} ${text(String(verdicts[v] ?? 0))}</li>`);
  const state = report.ok ? 'every repository is ready or publishes nothing' : 'some repositories are not ready';
  return `<p class="summary">${text(String(total))} ${total === 1 ? 'repository' : 'repositories'}: ${state}.</p>\n<ul class="counts">${counts.join('')}</ul>`;
}

function verdictBadge(verdict: FleetVerdict, label: string = verdict): string {
  return `<span class="verdict v-${verdict}">${text(label)}</span>`;
}

/** The plan: what to do first, each step with what it unblocks. */
function plan(report: FleetReport): string[] {
  const { title, steps } = planLines(report);
  if (steps.length === 0) return [];
  return [`<h2>${text(title)}</h2>`, `<ol class="steps">\n${steps.map((s) => `<li>${text(s)}</li>`).join('\n')}\n</ol>`];
}

function table(rows: FleetRow[]): string {
  const head = `<thead><tr>${rowColumns.map((c) => `<th scope="col">${text(c)}</th>`).join('')}</tr></thead>`;
  const body = rows.map((r) => {
    // Names, coordinates and tags are long unbroken words: only their cells break anywhere.
    const name = r.page === undefined ? cell(r.name, 'long') : `<td class="long"><a href=${attr(r.page)} rel="noopener noreferrer">${text(r.name)}</a></td>`;
    const cells = [name, cell(r.build), cell(r.route), cell(r.parent, 'long'), `<td>${verdictBadge(r.verdict, r.verdictLabel)}</td>`];
    const release = r.releasePage === undefined || r.release === '' ? cell(r.release, 'long') : `<td class="long"><a href=${attr(r.releasePage)} rel="noopener noreferrer">${text(r.release)}</a></td>`;
    cells.push(cell(r.blocking), release, cell(r.published), `<td>${pullRequest(r)}</td>`);
    return `<tr data-verdict=${attr(r.verdict)}>${cells.join('')}</tr>`;
  });
  return `<div class="table-box"><table>\n${head}\n<tbody>\n${body.join('\n')}\n</tbody>\n</table></div>`;
}

function cell(value: string, kind?: 'long'): string {
  return `<td${kind === undefined ? '' : ` class="${kind}"`}>${value === '' ? '—' : text(value)}</td>`;
}

function pullRequest(r: FleetRow): string {
  if (r.pullRequest === null) return '—';
  const url = linkUrl(r.pullRequest.url);
  const label = text(r.pullRequest.label);
  return url === undefined ? label : `<a href=${attr(url)} rel="noopener noreferrer">${label}</a>`;
}

/** The findings grouped by whose fix they are; a ready repository's warnings collapsed. */
function details(report: FleetReport): string[] {
  const sections = fleetSections(report);
  if (sections.length === 0) return [];
  return [
    '<h2>Findings by whose fix they are</h2>',
    ...sections.map((d) => {
      const badge = d.verdict === undefined ? '' : ` ${verdictBadge(d.verdict, d.kind === 'warnings' ? d.note : d.verdict)}`;
      const note = d.kind === 'parent' ? ` <span class="note">${text(d.note)}</span>` : '';
      const children = d.children.length === 0 ? '' : `\n<ul class="items children">\n${d.children.map((c) => `<li>${text(c.name)}: ${text(c.text)}</li>`).join('\n')}\n</ul>`;
      return `<details class="details"${d.kind === 'warnings' ? '' : ' open'}><summary><h3>${text(d.name)}${badge}${note}</h3></summary>\n${list(d.items)}${children}</details>`;
    }),
  ];
}

function rehearsals(report: FleetReport): string[] {
  const rows = rehearsalRows(report);
  if (rows.length === 0) return [];
  const lis = rows.map((r) => `<li${r.failed ? ' class="sev-error"' : ''}>${text(rehearsalLine(r))}</li>`);
  return ['<h2>Rehearsals</h2>', `<p class="note">${text(rehearsalSummary(rows))}; parents first.</p>`, `<ul class="items">\n${lis.join('\n')}\n</ul>`];
}

function environment(report: FleetReport): string[] {
  const items = environmentItems(report);
  if (items.length === 0) return [];
  return ['<h2>Environment</h2>', `<p class="note">Findings ${text(environmentNote)}.</p>`, list(items)];
}

function list(items: DetailItem[]): string {
  const lis = items.map((i) => {
    const fix = i.fix === undefined ? '' : `<br><span class="fix">fix: ${text(i.fix)}</span>`;
    const parts = splitAt(i);
    const body = parts === undefined || i.at === undefined ? text(i.text) : `${text(parts[0])}<a href=${attr(i.at.url)} rel="noopener noreferrer">${text(parts[1])}</a>${text(parts[2])}`;
    return `<li><span class="sev sev-${i.severity}">${i.severity}</span> ${body}${fix}</li>`;
  });
  return `<ul class="items">\n${lis.join('\n')}\n</ul>`;
}

function css(): string {
  const verdicts = fleetVerdicts.map((v) => `.v-${v}{background:${verdictColours[v].fill};color:${verdictColours[v].ink};border-color:${verdictColours[v].ink}}`);
  return [
    'body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2328;margin:24px auto;max-width:1232px;padding:0 16px}',
    'h1{font-size:24px;margin:0 0 8px}h2{font-size:18px;margin:28px 0 8px}h3{font-size:15px;margin:16px 0 4px;overflow-wrap:anywhere}',
    '.note{color:#57606a;margin:4px 0}.counts{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:8px}',
    '.verdict{display:inline-block;border:1px solid;border-radius:10px;padding:0 8px;font-weight:600;font-size:12px;white-space:nowrap}',
    '.graph-box{overflow-x:auto}.graph{max-width:100%;height:auto;display:block;margin:0 auto}',
    '.graph .edge{stroke:#57606a;stroke-width:1.5}.graph text{text-anchor:middle;font:13px system-ui,sans-serif}',
    '.graph .owner{fill:#57606a;font-size:11px}.graph .name{fill:#1f2328;font-weight:600}.graph .word{font-weight:700;font-size:12px}.graph .counts{fill:#57606a;font-size:12px}',
    'table{border-collapse:collapse;width:100%;font-size:13px}th,td{border:1px solid #d0d7de;padding:4px 6px;text-align:left;vertical-align:top;overflow-wrap:break-word}th{white-space:nowrap}td.long{overflow-wrap:anywhere}td:first-child{min-width:240px}',
    'th{background:#f6f8fa}.items{padding-left:20px}.items li{margin:4px 0;overflow-wrap:anywhere}.fix{color:#57606a}',
    '.sev{font-weight:600}.sev-error{color:#a40e26}.sev-warning{color:#7d4e00}',
    '.steps li{margin:4px 0;overflow-wrap:anywhere}details.details summary{cursor:pointer}details.details summary h3{display:inline}.table-box{overflow-x:auto}',
    // A phone: the graph at its own size and the table scroll in their boxes rather than shrinking text or squeezing names letter by letter.
    '@media (max-width:600px){body{margin:12px auto;padding:0 10px}.graph{max-width:none;margin:0}td:first-child{min-width:160px}table{font-size:12px}}',
    // A4: no scroll boxes, the graph and the table within the page, every section open.
    '@media print{@page{size:A4;margin:12mm}body{max-width:none;margin:0;padding:0;font-size:11px}.graph-box,.table-box{overflow:visible}table{font-size:10px}td:first-child{min-width:0}tr,li,svg{break-inside:avoid}details.details>*{display:block}}',
    ...verdicts,
  ].join('\n');
}
