/**
 * The Usage Center's export (`--usage FILE`): the "Usage by Namespace" table as CSV ("Export CSV"
 * on central.sonatype.com/publishing/usage). Sonatype documents the table's metrics (Release Count,
 * File Count, Total Release Size, one row per namespace of the selected organization) but not the
 * file's exact column titles or size format, so columns are found by their metric names
 * (case-insensitive) and sizes read with or without a unit ("1.2 MB", "1200000"; a unit in the
 * column title such as "(MB)" applies to bare numbers; otherwise bare numbers are bytes). Rows the
 * user may not see ("restricted", empty, "-") are counted as unknown and named. The export holds
 * the period chosen on the page: take it with "Current Month" selected. Pure: text in, usage out.
 */
import { parseSize, type Usage } from './publishing-budget.js';

export interface UsageExport {
  usage: Usage;
  namespaces: string[];
  /** Namespaces whose numbers the export withheld (no access). */
  restricted: string[];
}

/** A bad export: what is wrong, for a usage error (exit 2). */
export class UsageExportProblem extends Error {}

/** RFC 4180 rows: quoted fields, doubled quotes, CRLF or LF; a BOM is dropped. */
function csvRows(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  const s = text.replace(/^\uFEFF/, '');
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!;
    if (quoted) {
      if (ch === '"' && s[i + 1] === '"') (field += '"'), i++;
      else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"' && field === '') quoted = true;
    else if (ch === ',') row.push(field), (field = '');
    else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && s[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += ch;
  }
  if (quoted) throw new UsageExportProblem('a quoted field is never closed');
  if (field !== '' || row.length > 0) rows.push([...row, field]);
  return rows.filter((r) => r.some((f) => f.trim() !== ''));
}

const columnTests = {
  namespace: (h: string) => h.includes('namespace'),
  releases: (h: string) => h.includes('release') && h.includes('count'),
  files: (h: string) => h.includes('file') && h.includes('count'),
  bytes: (h: string) => h.includes('size'),
};

const withheld = /^(|-|—|n\/a|restricted|unavailable|no access)$/i;

export function decodeUsageExport(text: string): UsageExport {
  const rows = csvRows(text);
  const header = rows[0]?.map((h) => h.trim().toLowerCase());
  if (header === undefined) throw new UsageExportProblem('the file is empty');
  const col = Object.fromEntries(Object.entries(columnTests).map(([k, test]) => [k, header.findIndex(test)])) as Record<keyof typeof columnTests, number>;
  const missing = Object.entries(col).filter(([, i]) => i < 0).map(([k]) => ({ namespace: 'Namespace', releases: 'Release Count', files: 'File Count', bytes: 'Release Size' })[k]);
  if (missing.length > 0) {
    throw new UsageExportProblem(`its first line has no ${missing.join(', ')} column (it reads: ${rows[0]!.join(', ').slice(0, 200)})`);
  }
  const headerUnit = /\((k|m|g)?i?b\)|\bbytes\b/i.exec(header[col.bytes]!)?.[0].replace(/[()]/g, '') ?? '';
  const usage: Usage = { files: 0, bytes: 0, releases: 0 };
  const namespaces: string[] = [];
  const restricted: string[] = [];
  rows.slice(1).forEach((row, i) => {
    const line = i + 2;
    const ns = (row[col.namespace] ?? '').trim();
    if (ns === '') throw new UsageExportProblem(`line ${line} has no namespace`);
    const cells = { releases: row[col.releases] ?? '', files: row[col.files] ?? '', bytes: row[col.bytes] ?? '' };
    if (Object.values(cells).some((c) => withheld.test(c.trim()))) {
      restricted.push(ns);
      return;
    }
    for (const m of ['releases', 'files'] as const) {
      const n = Number(cells[m].trim().replace(/,/g, ''));
      if (!Number.isInteger(n) || n < 0) throw new UsageExportProblem(`line ${line} (${ns}): "${cells[m].trim().slice(0, 40)}" is not a ${m === 'files' ? 'file' : 'release'} count`);
      usage[m] += n;
    }
    const raw = cells.bytes.trim();
    const bytes = parseSize(/[a-z]/i.test(raw) ? raw : `${raw}${headerUnit === 'bytes' ? '' : headerUnit}`);
    if (bytes === undefined) throw new UsageExportProblem(`line ${line} (${ns}): "${raw.slice(0, 40)}" is not a size`);
    usage.bytes += bytes;
    namespaces.push(ns);
  });
  return { usage, namespaces, restricted };
}
