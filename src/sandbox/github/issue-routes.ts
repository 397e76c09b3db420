import { paginate } from './paging.js';
import { notFound, repoOf, reply, requireLogin, saved, jsonBody, str, validationFailed, type GithubCall } from './request.js';
import { issueJson } from './shapes.js';
import { nowIso, type IssueRecord } from './state.js';

/** `/repos/{o}/{r}/issues[/{n}]`: list (by state and creator, paged), get, create, update (state, title, body, labels). */
export async function handleIssues(call: GithubCall): Promise<void> {
  const repo = repoOf(call);
  const tail = call.segments.slice(4);
  const issue = tail.length === 1 ? repo.issues.find((i) => String(i.number) === tail[0]) : undefined;
  if (call.method === 'GET' && tail.length === 0) {
    const state = call.query.get('state') ?? 'open';
    // `creator`: GitHub's filter by the login that opened the issue (case-insensitive, as logins are).
    const creator = call.query.get('creator')?.toLowerCase();
    const list = repo.issues.filter((i) => (state === 'all' || i.state === state) && (creator === undefined || i.user.toLowerCase() === creator)).sort((a, b) => b.number - a.number);
    const page = paginate(list, call.query, new URL(call.req.url ?? '/', new URL(call.bases.api).origin));
    return reply(call, 200, page.items.map((i) => issueJson(repo, i, call.bases)), page.headers);
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
    const created: IssueRecord = {
      number: repo.issues.length + 1,
      id: call.gh.nextId(),
      title,
      body: str(body, 'body') ?? null,
      state: 'open',
      state_reason: null,
      labels: labelsOf(body.labels),
      user: login,
      created_at: nowIso(),
      updated_at: nowIso(),
      closed_at: null,
    };
    repo.issues.push(created);
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
