import { fleetBudgetLine } from '../../core/publishing-budget.js';
import { plainText } from '../../core/plain-text.js';
import { maskUrlCredentials } from '../../core/secret-mask.js';
import { fleetVerdicts, type FleetFinding, type FleetLastRelease, type FleetReport, type FleetRepositoryReport, type FleetVerdict } from '../report-types.js';

/**
 * What every fleet format shows, as plain strings: each format only escapes them for its own syntax
 * (text pads them, Markdown and HTML and XML escape them). Every value from a repository passes
 * through `oneLine` here, so no format can forget it.
 */

/** A value from a repository: plain text (DESIGN §3) on one line, URL credentials masked. */
export function oneLine(value: unknown): string {
  return maskUrlCredentials(plainText(String(value), { singleLine: true }));
}

/** The verdicts that fail the fleet (exit 1): their repositories get a details section. */
const failing: ReadonlySet<FleetVerdict> = new Set(['blocked', 'waits-on-parent', 'error']);

export function fails(verdict: FleetVerdict): boolean {
  return failing.has(verdict);
}

export interface FleetRow {
  name: string;
  build: string;
  route: string;
  /** The nearest parent's coordinates, and the fleet repository that builds it; '' without a parent. */
  parent: string;
  /** The fleet repository that builds the nearest parent; '' when none does. */
  parentRepository: string;
  verdict: FleetVerdict;
  /** The verdict in words: `ready (2 warnings)`. */
  verdictLabel: string;
  /** The blocking codes, comma-separated; '' when none. */
  blocking: string;
  /** The newest release tag; '' when none is known. */
  release: string;
  /** `yes`, `no`, `unknown`, with the day it was asked (`no, checked 2026-12-06`); '' without a release. */
  published: string;
  /** The newest release's version, whether Maven Central has it (null: unknown) and the day that was asked; undefined without a release. */
  lastRelease: { version: string; onCentral: boolean | null; checked: string | undefined } | undefined;
  /** The public repository's page for the last release; undefined when unknown or not http(s). */
  releasePage: string | undefined;
  pullRequest: { url: string; label: string } | null;
  /** The repository's page on its host (an http(s) clone URL without `.git`); undefined for a local path. */
  page: string | undefined;
}

export const rowColumns = ['repository', 'build', 'route', 'parent', 'verdict', 'blocking', 'last release', 'on Maven Central', 'pull request'] as const;

export function fleetRows(report: FleetReport): FleetRow[] {
  return report.repositories.map(fleetRow);
}

export function fleetRow(r: FleetRepositoryReport): FleetRow {
  const parent = r.parents[0];
  const builtBy = parent?.repository == null ? '' : ` (${oneLine(parent.repository)})`;
  const release = r.lastRelease;
  const pr = r.pullRequest;
  return {
    name: oneLine(r.name),
    build: oneLine(r.build),
    route: oneLine(r.route),
    parent: parent === undefined ? '' : `${oneLine(parent.coordinates)}${builtBy}`,
    parentRepository: parent?.repository == null ? '' : oneLine(parent.repository),
    verdict: r.verdict,
    verdictLabel: verdictText(r),
    blocking: r.blocking.map(oneLine).join(', '),
    release: release == null ? '' : oneLine(release.tag),
    published: release == null ? '' : publishedText(release),
    lastRelease: release == null ? undefined : { version: oneLine(release.version), onCentral: release.published, checked: release.checked === undefined ? undefined : oneLine(release.checked) },
    releasePage: release?.page === undefined ? undefined : linkUrl(oneLine(release.page)),
    pullRequest: pr == null ? null : { url: oneLine(pr.url), label: `#${oneLine(pr.number)} ${oneLine(pr.state)}` },
    page: repositoryPage(r.url),
  };
}

/**
 * `no, checked 2026-12-06`: a fact as of a day, shown after "on Maven Central:" so that it never
 * reads like the verdict `not-published`.
 */
function publishedText(release: FleetLastRelease): string {
  const answer = release.published === null ? 'unknown' : release.published ? 'yes' : 'no';
  return `${answer}${release.checked === undefined ? '' : `, checked ${oneLine(release.checked)}`}`;
}

/** A ready repository's verdict as the formats show it: `ready (2 warnings)`. */
export function verdictText(r: FleetRepositoryReport): string {
  const warnings = r.findings.filter((f) => f.severity === 'warning').length;
  return r.verdict === 'ready' && warnings > 0 ? `ready (${warnings} ${warnings === 1 ? 'warning' : 'warnings'})` : r.verdict;
}

/** One line of a details list: its severity, its text, and the fix it names when there is one. */
export interface DetailItem {
  severity: 'error' | 'warning';
  text: string;
  fix?: string;
  /** The `file:line` inside `text` and its page at the audited commit, when the host has one. */
  at?: { label: string; url: string };
}

/** The item's text around its `file:line`: `[before, label, after]`, or undefined without a link. */
export function splitAt(item: DetailItem): [string, string, string] | undefined {
  const at = item.at;
  const i = at === undefined ? -1 : item.text.indexOf(at.label);
  if (at === undefined || i < 0) return undefined;
  return [item.text.slice(0, i), at.label, item.text.slice(i + at.label.length)];
}

/**
 * A file at the audited commit on the repository's host, GitHub's form (GitHub Enterprise's too):
 * `PAGE/blob/HEAD/PATH#L12`. None for a local path or without a commit.
 */
export function fileLink(r: Pick<FleetRepositoryReport, 'url' | 'head'>, file: string, line: number | undefined): string | undefined {
  const page = repositoryPage(r.url);
  if (page === undefined || r.head == null || !/^[0-9a-f]{7,64}$/i.test(r.head)) return undefined;
  const parts = file.split(/[\\/]/).filter((p) => p !== '' && p !== '.');
  if (parts.length === 0 || parts.includes('..') || /^[a-z]:$/i.test(parts[0]!) || /^[\\/]/.test(file)) return undefined;
  return `${page}/blob/${r.head}/${parts.map(encodeURIComponent).join('/')}${line === undefined ? '' : `#L${line}`}`;
}

export interface FleetDetail {
  name: string;
  verdict: FleetVerdict;
  /** The fleet repositories whose fixes it waits on. */
  fixIn: string[];
  items: DetailItem[];
}


export function repositoryDetail(r: FleetRepositoryReport): FleetDetail {
  const items = r.findings.filter((f) => f.severity === 'error').map(findingItem);
  if (r.error !== undefined) {
    const { code, message, fix } = r.error;
    items.push({ severity: 'error', text: `could not audit: ${oneLine(code)}: ${oneLine(message)}`, ...(fix === undefined ? {} : { fix: oneLine(fix) }) });
  }
  return { name: oneLine(r.name), verdict: r.verdict, fixIn: r.fixIn.map(oneLine), items };
}

function findingItem(f: FleetFinding): DetailItem {
  const where = f.file === undefined ? '' : ` ${oneLine(f.file)}${f.line === undefined ? '' : `:${oneLine(f.line)}`}`;
  const fixIn = f.fixIn === undefined ? '' : ` (fix in ${oneLine(f.fixIn)})`;
  return { severity: 'error', text: `${oneLine(f.code)}${where}: ${oneLine(f.message)}${fixIn}`, fix: oneLine(f.fix) };
}

/** The machine's findings, listed once: `code: message (seen in a, b, c and 2 more)`. */
export function environmentItems(report: FleetReport): DetailItem[] {
  return report.environment.map((e) => {
    const names = e.repositories.map(oneLine);
    const seen = names.length === 0 ? '' : ` (seen in ${names.slice(0, 3).join(', ')}${names.length > 3 ? ` and ${names.length - 3} more` : ''})`;
    return { severity: e.severity === 'error' ? 'error' : 'warning', text: `${oneLine(e.code)}: ${oneLine(e.message)}${seen}`, fix: oneLine(e.fix) };
  });
}

export const environmentNote = 'about this machine: they change no verdict';

/** `6 repositories: 2 ready, 1 blocked, 1 waits-on-parent, 1 not-published, 1 error`. */
export function summaryText(report: FleetReport): string {
  const { total, verdicts } = report.summary;
  const counts = fleetVerdicts.map((v) => `${oneLine(verdicts[v] ?? 0)} ${v}`).join(', ');
  const budget = report.summary.publishingBudget === undefined ? '' : `\n${fleetBudgetLine(report.summary.publishingBudget)}`;
  return `${oneLine(total)} ${total === 1 ? 'repository' : 'repositories'}: ${counts}${budget}`;
}

/** An http(s) URL as the WHATWG parser serialises it, else undefined: only such a URL becomes a link. */
export function linkUrl(value: string): string | undefined {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** A repository's page: its http(s) clone URL without `.git` (GitHub's and GitHub Enterprise's form), credentials never. */
export function repositoryPage(cloneUrl: string): string | undefined {
  const url = linkUrl(oneLine(cloneUrl));
  if (url === undefined) return undefined;
  const page = new URL(url);
  page.username = '';
  page.password = '';
  return page.href.replace(/\.git$/, '');
}

export const reportTitle = 'relctl fleet readiness';

/** A repository's rehearsal as every format lists it (after `fleet rehearse`; none after an audit). */
export interface RehearsalRow {
  name: string;
  verdict: string;
  /** The version it released; '' when none. */
  version: string;
  /** Why it was skipped or failed; '' when it succeeded. */
  reason: string;
  /** A ready repository whose rehearsal did not reach VALIDATED or PUBLISHED (exit 1). */
  failed: boolean;
  succeeded: boolean;
}

export function rehearsalRows(report: FleetReport): RehearsalRow[] {
  return report.repositories.flatMap((r) => {
    const h = r.rehearsal;
    if (h == null) return [];
    const succeeded = h.verdict === 'VALIDATED' || h.verdict === 'PUBLISHED';
    return [{ name: oneLine(r.name), verdict: oneLine(h.verdict), version: h.version == null ? '' : oneLine(h.version), reason: h.reason == null ? '' : oneLine(h.reason), failed: r.verdict === 'ready' && !succeeded, succeeded }];
  });
}

/** `rehearsals: 2 succeeded, 1 failed, 3 not rehearsed`. */
export function rehearsalSummary(rows: readonly RehearsalRow[]): string {
  const succeeded = rows.filter((r) => r.succeeded).length;
  const failed = rows.filter((r) => r.failed).length;
  return `rehearsals: ${succeeded} succeeded, ${failed} failed, ${rows.length - succeeded - failed} not rehearsed`;
}

/** `NAME: VERDICT VERSION (reason)`, the line each format shows. */
export function rehearsalLine(r: RehearsalRow): string {
  return `${r.name}: ${r.verdict}${r.version === '' ? '' : ` ${r.version}`}${r.reason === '' ? '' : ` (${r.reason})`}`;
}
