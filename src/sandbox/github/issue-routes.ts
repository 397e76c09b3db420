import { repoTarget } from './repo-target.js';
import { handleComments } from './comment-routes.js';
import { checkBodyLength, notFound, reply, replyPage, requireLogin, saved, jsonBody, str, validationFailed, type GithubCall } from './request.js';
import { issueJson } from './shapes.js';
import { nowIso, type IssueRecord, type PullFields, type RepoRecord } from './state.js';

/**
 * `/repos/{o}/{r}/issues[/{n}]`: list (`state`, `creator`, `labels`, `since`, `sort`,
 * `direction`, paged), get, create, update (state, title, body, labels); their comments in
 * comment-routes.ts. Pull requests are listed among the issues, as on GitHub.
 */
export async function handleIssues(call: GithubCall): Promise<void> {
  const tail = call.segments.slice(4);
  if (tail[0] === 'comments' || tail[1] === 'comments') return handleComments(call);
  const { record: repo } = await repoTarget(call);
  const issue = tail.length === 1 ? repo.issues.find((i) => String(i.number) === tail[0]) : undefined;
  if (call.method === 'GET' && tail.length === 0) {
    const state = call.query.get('state') ?? 'open';
    const creator = call.query.get('creator')?.toLowerCase();
    const labels = (call.query.get('labels') ?? '').split(',').map((l) => l.trim().toLowerCase()).filter((l) => l !== '');
    const since = call.query.get('since');
    const list = repo.issues
      .filter((i) => state === 'all' || i.state === state)
      .filter((i) => creator === undefined || i.user.toLowerCase() === creator)
      .filter((i) => labels.every((l) => i.labels.some((own) => own.toLowerCase() === l)))
      .filter((i) => since === null || i.updated_at >= since)
      .sort(listOrder(call.query, repo));
    return replyPage(call, list, (i) => issueJson(repo, i, call.bases));
  }
  if (call.method === 'GET' && tail.length === 1) {
    if (issue === undefined) throw notFound();
    return reply(call, 200, issueJson(repo, issue, call.bases));
  }
  if (call.method === 'POST' && tail.length === 0) {
    const login = requireLogin(call);
    const body = await jsonBody(call);
    const title = str(body, 'title');
    if (title === undefined || title.trim() === '') throw validationFailed([{ resource: 'Issue', code: 'missing_field', field: 'title' }]);
    checkBodyLength(body.body, 'Issue');
    const created = openIssue(call, repo, login, { title, body: str(body, 'body') ?? null, labels: labelsOf(body.labels) });
    return saved(call, 201, issueJson(repo, created, call.bases));
  }
  if (call.method === 'PATCH' && tail.length === 1) {
    requireLogin(call);
    if (issue === undefined) throw notFound();
    const body = await jsonBody(call);
    updateIssue(issue, body);
    return saved(call, 200, issueJson(repo, issue, call.bases));
  }
  throw notFound();
}

/** A new issue, or with `pull` a pull request: the next number of the one sequence both share. */
export function openIssue(call: GithubCall, repo: RepoRecord, login: string, fields: Pick<IssueRecord, 'title' | 'body' | 'labels'>, pull?: PullFields): IssueRecord {
  const at = nowIso();
  const created: IssueRecord = {
    number: repo.issues.length + 1,
    id: call.gh.nextId(),
    ...fields,
    state: 'open',
    state_reason: null,
    user: login,
    created_at: at,
    updated_at: at,
    closed_at: null,
    ...(pull === undefined ? {} : { pull }),
  };
  repo.issues.push(created);
  return created;
}

/**
 * GitHub's list order: `sort` created (the default), updated or comments (`popularity` and
 * `long-running` of pulls read as created), `direction` desc by default; ties by number.
 */
export function listOrder(query: URLSearchParams, repo?: RepoRecord): (a: IssueRecord, b: IssueRecord) => number {
  const sort = query.get('sort');
  const sign = query.get('direction') === 'asc' ? 1 : -1;
  const comments = (i: IssueRecord): number => (repo?.comments ?? []).filter((c) => c.issue_number === i.number).length;
  const key = (i: IssueRecord): string | number => (sort === 'updated' ? i.updated_at : sort === 'comments' ? comments(i) : i.number);
  return (a, b) => {
    const [ka, kb] = [key(a), key(b)];
    return sign * (ka < kb ? -1 : ka > kb ? 1 : a.number - b.number);
  };
}

function labelsOf(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value.map((l) => (typeof l === 'string' ? l : typeof (l as { name?: unknown })?.name === 'string' ? (l as { name: string }).name : '')).filter((l) => l !== '');
}

/** PATCH semantics shared by issues and pulls: only the fields given change. */
export function updateIssue(issue: IssueRecord, body: Record<string, unknown>): void {
  const state = str(body, 'state');
  if (state !== undefined && state !== 'open' && state !== 'closed') {
    throw validationFailed([{ resource: 'Issue', code: 'invalid', field: 'state' }]);
  }
  checkBodyLength(body.body, issue.pull === undefined ? 'Issue' : 'PullRequest');
  if (typeof body.title === 'string') issue.title = body.title;
  if (typeof body.body === 'string' || body.body === null) issue.body = body.body;
  if (body.labels !== undefined) issue.labels = labelsOf(body.labels);
  if (state !== undefined && state !== issue.state) {
    issue.state = state;
    issue.closed_at = state === 'closed' ? nowIso() : null;
    issue.state_reason = state === 'closed' ? (str(body, 'state_reason') ?? 'completed') : 'reopened';
  } else if (state === 'closed' && str(body, 'state_reason') !== undefined) {
    issue.state_reason = str(body, 'state_reason')!;
  }
  issue.updated_at = nowIso();
}
