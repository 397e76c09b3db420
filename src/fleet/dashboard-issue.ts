/**
 * The fleet's dashboard issue (DESIGN §13 Report): one issue titled `relctl fleet readiness` in the
 * repository `--issue` names, opened by the token's own user, whose body is the Markdown report.
 * Found by title and author, so that an issue of the same title by anyone else is never touched;
 * created once, then edited in place; a body that is already the report is left alone (no edit,
 * no notification, no `updated_at` change). Every call waits out a rate limit (withRateLimitRetry)
 * and a failure reads as githubFailure says.
 */
import type { Octokit } from '@octokit/rest';
import { EnvironmentError, UsageError } from '../core/errors.js';
import type { RepoName } from '../core/notes/tracker.js';
import { githubFailure } from '../github/errors.js';
import { withRateLimitRetry } from '../github/rate-limited.js';
import { dataOf, isObject } from '../github/repo-api.js';
import { tokenLogin } from '../github/token-login.js';
import { fleetMarkdown, type MarkdownCut } from './render/fleet-markdown.js';
import type { FleetReportMeta } from './render/fleet-sections.js';
import { reportTitle } from './render/fleet-rows.js';
import type { FleetReport } from './report-types.js';

/** An issue of the list, as far as the choice needs it. */
export interface ListedIssue {
  number: number;
  url: string;
  state: 'open' | 'closed';
  title: string;
  body: string;
  author: string;
  pullRequest: boolean;
}

/** GitHub refuses a longer issue body (422, "body is too long"). */
export const issueBodyLimit = 65_536;

/** Where the rest of a cut dashboard is. */
const elsewhere = 'the relctl-fleet-report artifact of the relctl fleet workflow (`relctl fleet audit --format html`)';

/**
 * The issue's body: the Markdown report under the output rule (`shown`), measured. Past GitHub's
 * limit, the first candidate that fits: without the findings sections (each repository's findings
 * are in the HTML artifact); then only the rows that are not ready; then those rows' first four
 * columns; then as many of those as fit, the rest counted.
 * The counts and the plan are in every candidate.
 */
export function dashboardBody(report: FleetReport, shown: (text: string) => string, meta?: FleetReportMeta): string {
  const render = (cut: MarkdownCut): string => shown(fleetMarkdown(report, { ...cut, ...(meta === undefined ? {} : { meta }) }));
  const full = render({});
  if (full.length <= issueBodyLimit) return full;
  const note = (what: string): string => `_${what} do not fit in an issue (${full.length} characters; GitHub takes ${issueBodyLimit}): ${elsewhere} has them._`;
  const candidates: MarkdownCut[] = [
    { details: false, note: note("Each repository's findings") },
    { details: false, notReadyRows: true, note: note("The ready repositories' rows and each repository's findings") },
    { details: false, notReadyRows: true, compact: true, note: note("The ready repositories' rows, the releases, pull requests and findings") },
  ];
  for (const cut of candidates) {
    const body = render(cut);
    if (body.length <= issueBodyLimit) return body;
  }
  // Fewer rows until it fits: halving, then one by one up (a handful of renders even at 10,000 rows).
  const last = candidates[candidates.length - 1]!;
  let fits = 0;
  let step = report.repositories.length;
  while (step >= 1) {
    if (render({ ...last, maxRows: fits + step }).length <= issueBodyLimit) fits += step;
    step = Math.floor(step / 2);
  }
  return render({ ...last, maxRows: fits });
}

export type DashboardAction = 'create' | 'edit' | 'reopen' | 'unchanged';

export interface DashboardPlan {
  action: DashboardAction;
  /** The issue edited, reopened or left alone; undefined for create. */
  issue?: ListedIssue;
}

/**
 * Which issue is the dashboard and what it needs. The newest open one of the token's user with the
 * title; else the newest closed one, reopened (someone closed it, and a new issue would scatter the
 * history); else a new one. Bodies compare without the CR a browser's edit leaves. Pure.
 */
export function planDashboard(issues: readonly ListedIssue[], login: string, body: string): DashboardPlan {
  const own = issues
    .filter((i) => !i.pullRequest && i.title === reportTitle && i.author.toLowerCase() === login.toLowerCase())
    .sort((a, b) => b.number - a.number);
  const issue = own.find((i) => i.state === 'open') ?? own[0];
  if (issue === undefined) return { action: 'create' };
  if (issue.state === 'closed') return { action: 'reopen', issue };
  return { action: issue.body.replace(/\r\n/g, '\n') === body ? 'unchanged' : 'edit', issue };
}

export interface DashboardOutcome {
  action: DashboardAction;
  repository: string;
  /** Undefined only for a create on --dry-run. */
  number?: number;
  url?: string;
  dryRun: boolean;
}

const maxPages = 100;

const isIssue = (d: unknown): d is { number: number; html_url: string } => isObject(d) && typeof d.number === 'number' && typeof d.html_url === 'string';
const isIssueList = (d: unknown): d is Record<string, unknown>[] => Array.isArray(d) && d.every(isIssue);

function listedIssue(d: Record<string, unknown>): ListedIssue {
  const user = isObject(d.user) ? d.user : {};
  return {
    number: d.number as number,
    url: d.html_url as string,
    state: d.state === 'closed' ? 'closed' : 'open',
    title: typeof d.title === 'string' ? d.title : '',
    body: typeof d.body === 'string' ? d.body : '',
    author: typeof user.login === 'string' ? user.login : '',
    pullRequest: d.pull_request !== undefined && d.pull_request !== null,
  };
}

export interface DashboardOptions {
  log: (line: string) => void;
  signal?: AbortSignal;
}

/** The dashboard issue of one repository, through one session's Octokit. */
export class DashboardIssue {
  private constructor(
    private readonly gh: Octokit,
    private readonly repo: RepoName,
    /** The token's user: the author of the issue this run may edit. */
    readonly login: string,
    private readonly options: DashboardOptions,
  ) {}

  /** Asks GitHub whose token this is before anything else runs: a missing or refused token fails first. */
  static async open(gh: Octokit, repo: RepoName, hasToken: boolean, options: DashboardOptions): Promise<DashboardIssue> {
    if (!hasToken) {
      throw new UsageError(`fleet report --issue ${repo.owner}/${repo.name} needs a GitHub token: the issue is found by its author, the token's user.`, {
        kind: 'missing-github-token',
        fix: 'Set RELCTL_GITHUB_TOKEN (or GITHUB_TOKEN), or log in with `gh auth login`, with a token that may write issues of that repository.',
      });
    }
    const probe = new DashboardIssue(gh, repo, '', options);
    const login = await probe.call('asking GitHub whose token this is (GET /user)', () => tokenLogin(gh));
    if (typeof login !== 'string' || login === '') {
      throw new EnvironmentError("GitHub's answer to GET /user names no login.", { kind: 'unexpected-response', fix: 'Check --github-url: it must be the REST API root (https://api.github.com, or https://HOST/api/v3).' });
    }
    return new DashboardIssue(gh, repo, login, options);
  }

  private get where(): string {
    return `${this.repo.owner}/${this.repo.name}`;
  }

  private call<T>(what: string, fn: () => Promise<T>): Promise<T> {
    const words = { rights: `read and write the issues of ${this.where}`, retry: `run relctl fleet report again (it edits the same issue)` };
    return withRateLimitRetry(fn, { what, log: this.options.log, ...(this.options.signal === undefined ? {} : { signal: this.options.signal }) }).catch((error: unknown) =>
      Promise.reject(githubFailure(error, what, words)),
    );
  }

  private data<T>(res: { status: number; headers: unknown; data: unknown }, what: string, shape: (d: unknown) => d is T): T {
    return dataOf(res, this.repo, what, shape, 'pass its current OWNER/NAME to --issue');
  }

  /** The issues `creator` opened (every issue without one), open or closed, every page. */
  async list(creator?: string): Promise<ListedIssue[]> {
    const out: ListedIssue[] = [];
    const id = { owner: this.repo.owner, repo: this.repo.name, ...(creator === undefined ? {} : { creator }) };
    const what = `listing the issues${creator === undefined ? '' : ` of ${creator}`} in ${this.where}`;
    for (let page = 1; page <= maxPages; page++) {
      const res = await this.call(what, () => this.gh.rest.issues.listForRepo({ ...id, state: 'all', per_page: 100, page }));
      const items = this.data(res, what, isIssueList);
      out.push(...items.map(listedIssue));
      if (!/rel="next"/.test(String((res.headers as Record<string, unknown>).link ?? '')) || items.length === 0) break;
    }
    return out;
  }

  /**
   * Which issue is the dashboard. An app's bot login (`github-actions[bot]`) is not a user name:
   * should GitHub's `creator` filter not know it, the first answer would be empty every week and
   * each run would open a new issue; so before a bot opens one, the whole list is read too.
   */
  private async plan(body: string): Promise<DashboardPlan> {
    const plan = planDashboard(await this.list(this.login), this.login, body);
    if (plan.action !== 'create' || !this.login.endsWith('[bot]')) return plan;
    return planDashboard(await this.list(), this.login, body);
  }

  /** Makes the dashboard say `body` (on dry-run: says what it would do). */
  async sync(body: string, dryRun: boolean): Promise<DashboardOutcome> {
    const plan = await this.plan(body);
    const id = { owner: this.repo.owner, repo: this.repo.name };
    const base = { repository: this.where, dryRun };
    if (plan.issue === undefined) {
      if (dryRun) return { ...base, action: 'create' };
      const what = `opening the dashboard issue in ${this.where}`;
      const created = this.data(await this.call(what, () => this.gh.rest.issues.create({ ...id, title: reportTitle, body })), what, isIssue);
      return { ...base, action: 'create', number: created.number, url: created.html_url };
    }
    const { number, url } = plan.issue;
    if (plan.action !== 'unchanged' && !dryRun) {
      const what = `${plan.action === 'reopen' ? 'reopening' : 'editing'} the dashboard issue #${number} in ${this.where}`;
      const state = plan.action === 'reopen' ? { state: 'open' as const } : {};
      this.data(await this.call(what, () => this.gh.rest.issues.update({ ...id, issue_number: number, body, ...state })), what, isIssue);
    }
    return { ...base, action: plan.action, number, url };
  }
}
