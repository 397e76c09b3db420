import { HttpError } from '../shared/http.js';
import type { Branches } from './branches.js';
import { repoTarget } from './repo-target.js';
import { listOrder, openIssue, updateIssue } from './issue-routes.js';
import { changedFileJson, commitJson, compareJson, pullJson, pullShas, type PullRecord } from './pull-shapes.js';
import { checkBodyLength, jsonBody, notFound, reply, replyPage, requireLogin, saved, str, validationFailed, type GithubCall } from './request.js';
import { githubError } from './shapes.js';
import { nowIso, type RepoRecord } from './state.js';

interface Target {
  record: RepoRecord;
  branches: Branches;
}

function pullsOf(record: RepoRecord): PullRecord[] {
  return record.issues.filter((i): i is PullRecord => i.pull !== undefined);
}

/** `OWNER:BRANCH` or `BRANCH` (the repository's owner). */
function headBranch(record: RepoRecord, head: string): { owner: string; ref: string } {
  const colon = head.indexOf(':');
  return colon < 0 ? { owner: record.owner, ref: head } : { owner: head.slice(0, colon), ref: head.slice(colon + 1) };
}

function invalid(field: string): HttpError {
  return validationFailed([{ resource: 'PullRequest', code: 'invalid', field }]);
}

function custom(message: string, field?: string): HttpError {
  return validationFailed([{ resource: 'PullRequest', code: 'custom', ...(field === undefined ? {} : { field }), message }]);
}

/** GitHub refuses a second open pull request from one head into one base. */
function refuseDuplicate(record: RepoRecord, head: string, base: string, except?: PullRecord): void {
  if (pullsOf(record).some((p) => p !== except && p.state === 'open' && p.pull.head === head && p.pull.base === base)) {
    throw custom(`A pull request already exists for ${record.owner}:${head}.`);
  }
}

/**
 * `/repos/{o}/{r}/pulls[/{n}[/files|commits|merge]]` (DESIGN §13 Sandbox): pull requests between
 * the branches of a `--git-root` bare repository (or of the stand-in's own store), which are read
 * again on every answer, so a push shows in `head.sha` at once. Numbers are the issues' sequence.
 */
export async function handlePulls(call: GithubCall): Promise<void> {
  const target = await repoTarget(call);
  const tail = call.segments.slice(4);
  if (tail.length === 0 && call.method === 'GET') return list(call, target);
  if (tail.length === 0 && call.method === 'POST') return create(call, target);
  const pr = pullsOf(target.record).find((p) => String(p.number) === tail[0]);
  if (pr === undefined || tail.length > 2) throw notFound();
  const { record, branches } = target;
  switch (`${call.method} ${tail[1] ?? ''}`) {
    case 'GET ':
      return reply(call, 200, pullJson(record, pr, call.bases, await branches.tips()));
    case 'PATCH ':
      return update(call, target, pr);
    case 'GET files': {
      const changes = await changesOf(target, pr);
      return replyPage(call, changes?.files ?? [], (f) => changedFileJson(record, f, changes!.head, call.bases));
    }
    case 'GET commits':
      return replyPage(call, (await changesOf(target, pr))?.commits ?? [], (c) => commitJson(record, c, call.bases));
    case 'GET merge':
      // 204 when merged, 404 when not: GitHub's answer to "is it merged?".
      if ((pr.pull.merged_at ?? null) === null) throw notFound();
      call.res.writeHead(204, { 'content-length': '0' });
      call.res.end();
      return;
    case 'PUT merge':
      return merge(call, target, pr);
    default:
      throw notFound();
  }
}

async function changesOf({ branches }: Target, pr: PullRecord) {
  const shas = pullShas(pr, await branches.tips());
  if (shas.head === null || shas.base === null) return undefined;
  const comparison = await branches.compare(shas.base, shas.head);
  return comparison === undefined ? undefined : { ...comparison, head: shas.head };
}

async function list(call: GithubCall, { record, branches }: Target): Promise<void> {
  const state = call.query.get('state') ?? 'open';
  const head = call.query.get('head');
  const base = call.query.get('base');
  const wanted = head === null ? undefined : headBranch(record, head);
  const listed = pullsOf(record)
    .filter((p) => state === 'all' || p.state === state)
    .filter((p) => wanted === undefined || (p.pull.head === wanted.ref && p.pull.headOwner.toLowerCase() === wanted.owner.toLowerCase()))
    .filter((p) => base === null || p.pull.base === base)
    .sort(listOrder(call.query));
  const tips = await branches.tips();
  return replyPage(call, listed, (p) => pullJson(record, p, call.bases, tips));
}

async function create(call: GithubCall, { record, branches }: Target): Promise<void> {
  const login = requireLogin(call);
  const body = await jsonBody(call);
  const title = str(body, 'title');
  const head = str(body, 'head');
  const base = str(body, 'base');
  if (title === undefined || title.trim() === '') throw validationFailed([{ resource: 'PullRequest', code: 'missing_field', field: 'title' }]);
  if (head === undefined) throw validationFailed([{ resource: 'PullRequest', code: 'missing_field', field: 'head' }]);
  if (base === undefined) throw validationFailed([{ resource: 'PullRequest', code: 'missing_field', field: 'base' }]);
  checkBodyLength(body.body, 'PullRequest');
  const h = headBranch(record, head);
  return call.gh.repoLock.run(branches.lockKey, async () => {
    const tips = await branches.tips();
    const baseSha = tips.get(base);
    if (baseSha === undefined) throw invalid('base');
    // Another owner's branch would be a fork's; the stand-in has no forks.
    const headSha = h.owner.toLowerCase() === record.owner.toLowerCase() ? tips.get(h.ref) : undefined;
    if (headSha === undefined) throw invalid('head');
    refuseDuplicate(record, h.ref, base);
    if ((await branches.ahead(baseSha, headSha)) === 0) throw custom(`No commits between ${base} and ${h.ref}`);
    const pull = { head: h.ref, base, headOwner: record.owner, headSha, baseSha, merged_at: null, merge_commit_sha: null, merged_by: null };
    const created = openIssue(call, record, login, { title, body: str(body, 'body') ?? null, labels: [] }, pull) as PullRecord;
    return saved(call, 201, pullJson(record, created, call.bases, tips));
  });
}

async function update(call: GithubCall, { record, branches }: Target, pr: PullRecord): Promise<void> {
  requireLogin(call);
  const body = await jsonBody(call);
  return call.gh.repoLock.run(branches.lockKey, async () => {
    const tips = await branches.tips();
    const state = str(body, 'state');
    const base = str(body, 'base');
    if (base !== undefined && !tips.has(base)) throw invalid('base');
    if (state === 'open' && pr.state === 'closed') {
      // The stand-in's own wording: a merged pull or a deleted head cannot be reopened.
      if ((pr.pull.merged_at ?? null) !== null) throw custom('state cannot be changed. The pull request has been merged.', 'state');
      if (!tips.has(pr.pull.head)) throw custom('state cannot be changed. The head branch has been deleted.', 'state');
      refuseDuplicate(record, pr.pull.head, base ?? pr.pull.base, pr);
    }
    const closing = state === 'closed' && pr.state === 'open';
    const shas = pullShas(pr, tips);
    // First, as it refuses a bad state before anything changed.
    updateIssue(pr, body);
    // Closed, it keeps the commits it had.
    if (closing) Object.assign(pr.pull, { headSha: shas.head, baseSha: shas.base });
    if (base !== undefined) pr.pull.base = base;
    return saved(call, 200, pullJson(record, pr, call.bases, tips));
  });
}

function notMergeable(): HttpError {
  return new HttpError(405, githubError('Pull Request is not mergeable'));
}

/** `PUT .../merge`: fast-forward when the base has nothing of its own, else a merge (or squash) commit. */
async function merge(call: GithubCall, { record, branches }: Target, pr: PullRecord): Promise<void> {
  const login = requireLogin(call);
  const body = await jsonBody(call);
  const method = str(body, 'merge_method') ?? 'merge';
  if (method !== 'merge' && method !== 'squash' && method !== 'rebase') throw invalid('merge_method');
  if (method === 'rebase') throw new HttpError(405, githubError('Rebase merges are not allowed on this repository.'));
  return call.gh.repoLock.run(branches.lockKey, async () => {
    if (pr.state !== 'open') throw notMergeable();
    const tips = await branches.tips();
    const baseSha = tips.get(pr.pull.base);
    const headSha = tips.get(pr.pull.head);
    if (baseSha === undefined || headSha === undefined) throw notMergeable();
    const expected = str(body, 'sha');
    if (expected !== undefined && expected !== headSha) throw new HttpError(409, githubError('Head branch was modified. Review and try the merge again.'));
    const merging = method === 'merge';
    const title = str(body, 'commit_title') ?? (merging ? `Merge pull request #${pr.number} from ${pr.pull.headOwner}/${pr.pull.head}` : `${pr.title} (#${pr.number})`);
    const text = str(body, 'commit_message') ?? (merging ? pr.title : '');
    const outcome = await branches.merge(pr.pull.base, baseSha, headSha, { method, login, message: text === '' ? title : `${title}\n\n${text}` });
    if (outcome.kind === 'conflict') throw notMergeable();
    if (outcome.kind === 'moved') throw new HttpError(409, githubError('Base branch was modified. Review and try the merge again.'));
    const at = nowIso();
    Object.assign(pr.pull, { headSha, baseSha, merged_at: at, merge_commit_sha: outcome.sha, merged_by: login });
    Object.assign(pr, { state: 'closed', closed_at: at, updated_at: at });
    return saved(call, 200, { sha: outcome.sha, merged: true, message: 'Pull Request successfully merged' });
  });
}

/** `GET /repos/{o}/{r}/compare/{base}...{head}`: each side a branch, tag or commit, `OWNER:` allowed. */
export async function handleCompare(call: GithubCall): Promise<void> {
  const { record, branches } = await repoTarget(call);
  const spec = call.segments.slice(4).join('/');
  const dots = spec.indexOf('...');
  if (dots < 0) throw notFound();
  const resolve = async (name: string): Promise<string> => {
    const side = headBranch(record, name);
    const sha = side.owner.toLowerCase() === record.owner.toLowerCase() ? await branches.resolve(side.ref) : undefined;
    if (sha === undefined) throw new HttpError(404, githubError(`No commit found for SHA: ${name}`));
    return sha;
  };
  const [base, head] = [spec.slice(0, dots), spec.slice(dots + 3)];
  const [baseSha, headSha] = [await resolve(base), await resolve(head)];
  const comparison = await branches.compare(baseSha, headSha);
  if (comparison === undefined) throw new HttpError(404, githubError(`No common ancestor between ${base} and ${head}.`));
  return reply(call, 200, compareJson(record, spec, comparison, headSha, call.bases));
}
