import { repoTarget } from './repo-target.js';
import { checkBodyLength, jsonBody, notFound, reply, replyPage, requireLogin, saved, str, validationFailed, type GithubCall } from './request.js';
import { commentJson } from './shapes.js';
import { nowIso, type CommentRecord } from './state.js';

function bodyOf(body: Record<string, unknown>): string {
  const text = str(body, 'body');
  if (text === undefined || text.trim() === '') throw validationFailed([{ resource: 'IssueComment', code: 'missing_field', field: 'body' }]);
  checkBodyLength(text, 'IssueComment');
  return text;
}

/**
 * An issue's or a pull request's conversation: `GET|POST /repos/{o}/{r}/issues/{n}/comments`
 * (listed oldest first, `since`, paged) and `GET|PATCH|DELETE /repos/{o}/{r}/issues/comments/{id}`.
 */
export async function handleComments(call: GithubCall): Promise<void> {
  const { record: repo } = await repoTarget(call);
  const comments = (repo.comments ??= []);
  const [first, second, ...rest] = call.segments.slice(4);
  if (rest.length > 0) throw notFound();
  if (first === 'comments') {
    const comment = comments.find((c) => String(c.id) === second);
    const issue = repo.issues.find((i) => i.number === comment?.issue_number);
    if (comment === undefined || issue === undefined) throw notFound();
    if (call.method === 'GET') return reply(call, 200, commentJson(repo, issue, comment, call.bases));
    if (call.method === 'PATCH') {
      requireLogin(call);
      comment.body = bodyOf(await jsonBody(call));
      comment.updated_at = nowIso();
      return saved(call, 200, commentJson(repo, issue, comment, call.bases));
    }
    if (call.method === 'DELETE') {
      requireLogin(call);
      repo.comments = comments.filter((c) => c !== comment);
      await call.gh.save();
      call.res.writeHead(204, { 'content-length': '0' });
      call.res.end();
      return;
    }
    throw notFound();
  }
  const issue = repo.issues.find((i) => String(i.number) === first);
  if (issue === undefined) throw notFound();
  if (call.method === 'GET') {
    const since = call.query.get('since');
    const listed = comments.filter((c) => c.issue_number === issue.number && (since === null || c.updated_at >= since));
    return replyPage(call, listed, (c) => commentJson(repo, issue, c, call.bases));
  }
  if (call.method === 'POST') {
    const login = requireLogin(call);
    const text = bodyOf(await jsonBody(call));
    const at = nowIso();
    const created: CommentRecord = { id: call.gh.nextId(), issue_number: issue.number, user: login, body: text, created_at: at, updated_at: at };
    comments.push(created);
    // A comment updates its issue, as on GitHub (sort=updated sees it).
    issue.updated_at = at;
    return saved(call, 201, commentJson(repo, issue, created, call.bases));
  }
  throw notFound();
}
