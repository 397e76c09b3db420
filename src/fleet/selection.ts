/**
 * Which repositories a fleet command works on (DESIGN §13, Selection). Pure: the repos file's
 * lines, the config section's entries and the host's listing become one list of repositories,
 * each named `OWNER/NAME` once, with where to clone it from.
 */

/** A repository of the fleet, before it is cloned. */
export interface FleetRepo {
  /** `OWNER/NAME`. */
  name: string;
  /** Any git URL or local path; undefined: the host's `clone_url` (or `<host>/OWNER/NAME.git`). */
  url?: string;
  /** The default branch when the host said so; else the clone's HEAD decides. */
  branch?: string;
}

export interface RepoLinesResult {
  repos: FleetRepo[];
  /** `line N: why`, one per bad line; nothing is selected when there is one. */
  problems: string[];
}

const namePattern = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/;

/** Whether `OWNER/NAME` is a repository name a host and a folder can both hold. */
export function isRepoName(name: string): boolean {
  return namePattern.test(name) && !name.split('/').some((part) => part === '.' || part === '..');
}

/**
 * A repos file: one repository a line, `OWNER/NAME` or `OWNER/NAME URL`; `#` starts a comment
 * (at the start of a line or after whitespace, so a URL's fragment survives); blank lines are
 * skipped. A name given twice is a problem, not a silent merge: the two lines may disagree on the URL.
 */
export function parseRepoLines(text: string, where = 'line'): RepoLinesResult {
  const repos: FleetRepo[] = [];
  const problems: string[] = [];
  const seen = new Map<string, number>();
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n|\r/);
  lines.forEach((raw, index) => {
    const n = index + 1;
    const line = raw.replace(/(^|\s)#.*$/, '').trim();
    if (line === '') return;
    const words = line.split(/\s+/);
    const [name, url, ...extra] = words;
    if (name === undefined || !isRepoName(name)) {
      problems.push(`${where} ${n}: "${oneLine(raw)}" does not start with OWNER/NAME`);
      return;
    }
    if (extra.length > 0) {
      problems.push(`${where} ${n}: "${oneLine(raw)}" has more than a name and a URL`);
      return;
    }
    const key = name.toLowerCase();
    const first = seen.get(key);
    if (first !== undefined) {
      problems.push(`${where} ${n}: ${name} is already listed (${where} ${first})`);
      return;
    }
    seen.set(key, n);
    repos.push(url === undefined ? { name } : { name, url });
  });
  return { repos, problems };
}

/** A value read from a file, shown on one line and not too long. */
function oneLine(text: string): string {
  const flat = text.replace(/[\u0000-\u001f\u007f]/g, ' ').trim();
  return flat.length > 80 ? `${flat.slice(0, 77)}...` : flat;
}

/** What the host's listing says of one repository. */
export interface ListedRepo {
  fullName: string;
  cloneUrl?: string;
  defaultBranch?: string;
  archived: boolean;
  fork: boolean;
  topics: string[];
}

export interface OrgFilter {
  topic?: string;
  include?: RegExp;
  exclude?: RegExp;
  archived: boolean;
  forks: boolean;
}

/** The listed repositories the filter keeps (archived repositories and forks only on request). */
export function filterListed(listed: readonly ListedRepo[], filter: OrgFilter): FleetRepo[] {
  const kept: FleetRepo[] = [];
  for (const r of listed) {
    if (!isRepoName(r.fullName)) continue;
    if (r.archived && !filter.archived) continue;
    if (r.fork && !filter.forks) continue;
    if (filter.topic !== undefined && !r.topics.includes(filter.topic)) continue;
    if (filter.include !== undefined && !filter.include.test(r.fullName)) continue;
    if (filter.exclude !== undefined && filter.exclude.test(r.fullName)) continue;
    kept.push({ name: r.fullName, ...(r.cloneUrl === undefined ? {} : { url: r.cloneUrl }), ...(r.defaultBranch === undefined ? {} : { branch: r.defaultBranch }) });
  }
  return kept;
}

/**
 * Several sources merged: the first mention of a name wins (a repos file's explicit URL over
 * the host's listing), sorted by name so every run and every format lists them alike.
 */
export function mergeSelections(...lists: readonly (readonly FleetRepo[])[]): FleetRepo[] {
  const byName = new Map<string, FleetRepo>();
  for (const list of lists) for (const r of list) if (!byName.has(r.name.toLowerCase())) byName.set(r.name.toLowerCase(), r);
  return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name, 'en'));
}

/** `--only NAME`: `OWNER/NAME`, or a bare `NAME` when it names one repository only. */
export function onlyOne(repos: readonly FleetRepo[], only: string): FleetRepo | { problem: string } {
  const wanted = only.trim().toLowerCase();
  const exact = repos.find((r) => r.name.toLowerCase() === wanted);
  if (exact !== undefined) return exact;
  const byName = repos.filter((r) => r.name.split('/')[1]!.toLowerCase() === wanted);
  if (byName.length === 1) return byName[0]!;
  if (byName.length > 1) return { problem: `--only ${only} names ${byName.length} repositories (${byName.map((r) => r.name).join(', ')}); give OWNER/NAME` };
  return { problem: `--only ${only} is not one of the ${repos.length} selected repositories` };
}
