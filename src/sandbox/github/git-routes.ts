import { HttpError } from '../shared/http.js';
import { updateIssue } from './issue-routes.js';
import { jsonBody, notFound, repoOf, reply, requireLogin, saved, str, validationFailed, type GithubCall } from './request.js';
import { githubError, pullJson } from './shapes.js';
import { blobSha, newCommit, nowIso, own, type CommitRecord, type IssueRecord, type RepoRecord } from './state.js';

/**
 * `git/refs`, `contents` and `pulls`: what a distribution pull request needs (branch from a
 * commit, change one file on it, open the pull request, find it again by head).
 */
export async function handleGit(call: GithubCall): Promise<void> {
  const repo = repoOf(call);
  const area = call.segments[3];
  if (area === 'git') return refs(call, repo);
  if (area === 'contents') return contents(call, repo);
  return pulls(call, repo);
}

function refJson(call: GithubCall, repo: RepoRecord, name: string): Record<string, unknown> {
  const api = `${call.bases.api}/repos/${repo.owner}/${repo.name}`;
  const sha = own(repo.refs, name)!;
  return { ref: `refs/${name}`, node_id: `REF_${name}`, url: `${api}/git/refs/${name}`, object: { sha, type: 'commit', url: `${api}/git/commits/${sha}` } };
}

async function refs(call: GithubCall, repo: RepoRecord): Promise<void> {
  const [, , , , kind, ...rest] = call.segments;
  const name = rest.join('/');
  if (call.method === 'GET' && (kind === 'ref' || kind === 'refs') && name !== '') {
    if (own(repo.refs, name) !== undefined) return reply(call, 200, refJson(call, repo, name));
    const matching = Object.keys(repo.refs).filter((r) => kind === 'refs' && r.startsWith(`${name}/`));
    if (matching.length === 0) throw notFound();
    return reply(call, 200, matching.map((r) => refJson(call, repo, r)));
  }
  if (call.method === 'POST' && kind === 'refs' && rest.length === 0) {
    requireLogin(call);
    const body = await jsonBody(call);
    const ref = str(body, 'ref');
    const sha = str(body, 'sha');
    if (ref === undefined || !/^refs\/[^/]+\/.+/.test(ref)) throw validationFailed([], 'Reference name must start with \'refs/\' and have at least two slashes.');
    if (sha === undefined || own(repo.commits, sha) === undefined) throw validationFailed([], 'Object does not exist');
    const key = ref.slice('refs/'.length);
    if (own(repo.refs, key) !== undefined) throw validationFailed([], 'Reference already exists');
    repo.refs[key] = sha;
    return saved(call, 201, refJson(call, repo, key));
  }
  if ((call.method === 'PATCH' || call.method === 'DELETE') && kind === 'refs' && own(repo.refs, name) !== undefined) {
    requireLogin(call);
    if (call.method === 'DELETE') {
      delete repo.refs[name];
      await call.gh.save();
      call.res.writeHead(204, { 'content-length': '0' });
      call.res.end();
      return;
    }
    const body = await jsonBody(call);
    const sha = str(body, 'sha');
    if (sha === undefined || own(repo.commits, sha) === undefined) throw validationFailed([], 'Object does not exist');
    repo.refs[name] = sha;
    return saved(call, 200, refJson(call, repo, name));
  }
  throw notFound();
}

function headOf(repo: RepoRecord, ref: string | null): CommitRecord | undefined {
  const name = ref ?? repo.default_branch;
  const sha = own(repo.refs, `heads/${name}`) ?? own(repo.refs, name.replace(/^refs\//, '')) ?? name;
  return own(repo.commits, sha);
}

function wrap64(b64: string): string {
  return b64.replace(/.{1,60}/g, '$&\n');
}

function fileJson(call: GithubCall, repo: RepoRecord, path: string, content: string, ref: string): Record<string, unknown> {
  const sha = blobSha(content);
  const api = `${call.bases.api}/repos/${repo.owner}/${repo.name}`;
  const url = `${api}/contents/${path}?ref=${encodeURIComponent(ref)}`;
  const html = `${call.bases.html}/${repo.owner}/${repo.name}/blob/${ref}/${path}`;
  return {
    type: 'file',
    encoding: 'base64',
    size: Buffer.from(content, 'base64').length,
    name: path.split('/').pop(),
    path,
    content: wrap64(content),
    sha,
    url,
    git_url: `${api}/git/blobs/${sha}`,
    html_url: html,
    download_url: `${call.bases.html}/${repo.owner}/${repo.name}/raw/${ref}/${path}`,
    _links: { self: url, git: `${api}/git/blobs/${sha}`, html },
  };
}

async function contents(call: GithubCall, repo: RepoRecord): Promise<void> {
  const path = call.segments.slice(4).join('/');
  if (call.method === 'GET') {
    const ref = call.query.get('ref');
    const commit = headOf(repo, ref);
    if (commit === undefined) throw new HttpError(404, githubError(`No commit found for the ref ${ref ?? repo.default_branch}`));
    const shown = ref ?? repo.default_branch;
    const file = own(commit.files, path);
    if (file !== undefined) return reply(call, 200, fileJson(call, repo, path, file, shown));
    const prefix = path === '' ? '' : `${path}/`;
    const below = Object.keys(commit.files).filter((f) => f.startsWith(prefix));
    if (below.length === 0) throw notFound();
    const entries = new Map<string, Record<string, unknown>>();
    for (const f of below) {
      const name = f.slice(prefix.length).split('/')[0]!;
      const isDir = f.slice(prefix.length).includes('/');
      entries.set(name, isDir ? { type: 'dir', name, path: `${prefix}${name}`, sha: null } : { ...fileJson(call, repo, f, commit.files[f]!, shown), content: undefined, encoding: undefined });
    }
    return reply(call, 200, [...entries.values()]);
  }
  if (call.method === 'PUT' && path !== '') {
    const login = requireLogin(call);
    const body = await jsonBody(call);
    const message = str(body, 'message');
    const content = str(body, 'content');
    if (message === undefined) throw validationFailed([], 'Invalid request.\n\n"message" wasn\'t supplied.');
    if (content === undefined || !/^[A-Za-z0-9+/=\s]*$/.test(content)) throw validationFailed([], 'Invalid request.\n\n"content" wasn\'t supplied.');
    const branch = str(body, 'branch') ?? repo.default_branch;
    const head = own(repo.commits, own(repo.refs, `heads/${branch}`) ?? '');
    if (head === undefined) throw new HttpError(404, githubError(`Branch ${branch} not found`));
    const existing = own(head.files, path);
    const given = str(body, 'sha');
    if (existing !== undefined && given === undefined) throw validationFailed([], 'Invalid request.\n\n"sha" wasn\'t supplied.');
    if (existing !== undefined && given !== blobSha(existing)) throw new HttpError(409, githubError(`${path} does not match ${given}`));
    const normalised = Buffer.from(content.replace(/\s+/g, ''), 'base64').toString('base64');
    const commit = newCommit(head, message, { ...head.files, [path]: normalised });
    repo.commits[commit.sha] = commit;
    repo.refs[`heads/${branch}`] = commit.sha;
    const api = `${call.bases.api}/repos/${repo.owner}/${repo.name}`;
    return saved(call, existing === undefined ? 201 : 200, {
      content: fileJson(call, repo, path, normalised, branch),
      commit: {
        sha: commit.sha,
        node_id: `C_${commit.sha}`,
        url: `${api}/git/commits/${commit.sha}`,
        html_url: `${call.bases.html}/${repo.owner}/${repo.name}/commit/${commit.sha}`,
        message,
        author: { name: login, email: `${login}@users.noreply.invalid`, date: commit.at },
        committer: { name: login, email: `${login}@users.noreply.invalid`, date: commit.at },
        parents: head === undefined ? [] : [{ sha: head.sha }],
        tree: { sha: commit.sha },
      },
    });
  }
  throw notFound();
}

function headBranch(repo: RepoRecord, head: string): { owner: string; ref: string } {
  const colon = head.indexOf(':');
  return colon < 0 ? { owner: repo.owner, ref: head } : { owner: head.slice(0, colon), ref: head.slice(colon + 1) };
}

async function pulls(call: GithubCall, repo: RepoRecord): Promise<void> {
  const tail = call.segments.slice(4);
  const prs = repo.issues.filter((i): i is IssueRecord & { pull: NonNullable<IssueRecord['pull']> } => i.pull !== undefined);
  if (call.method === 'GET' && tail.length === 0) {
    const state = call.query.get('state') ?? 'open';
    const head = call.query.get('head');
    const base = call.query.get('base');
    const wanted = head === null ? undefined : headBranch(repo, head);
    const list = prs
      .filter((p) => state === 'all' || p.state === state)
      .filter((p) => wanted === undefined || (p.pull.head === wanted.ref && p.pull.headOwner.toLowerCase() === wanted.owner.toLowerCase()))
      .filter((p) => base === null || p.pull.base === base)
      .sort((a, b) => b.number - a.number);
    return reply(call, 200, list.map((p) => pullJson(repo, p, call.bases)));
  }
  const pr = tail.length === 1 ? prs.find((p) => String(p.number) === tail[0]) : undefined;
  if (call.method === 'GET' && tail.length === 1) {
    if (pr === undefined) throw notFound();
    return reply(call, 200, pullJson(repo, pr, call.bases));
  }
  if (call.method === 'POST' && tail.length === 0) {
    const login = requireLogin(call);
    const body = await jsonBody(call);
    const title = str(body, 'title');
    const head = str(body, 'head');
    const base = str(body, 'base');
    if (title === undefined || title.trim() === '') throw validationFailed([{ resource: 'PullRequest', code: 'missing_field', field: 'title' }]);
    if (head === undefined) throw validationFailed([{ resource: 'PullRequest', code: 'missing_field', field: 'head' }]);
    if (base === undefined || own(repo.refs, `heads/${base}`) === undefined) throw validationFailed([{ resource: 'PullRequest', code: 'invalid', field: 'base' }]);
    const h = headBranch(repo, head);
    if (own(repo.refs, `heads/${h.ref}`) === undefined) throw validationFailed([{ resource: 'PullRequest', code: 'invalid', field: 'head' }]);
    if (prs.some((p) => p.state === 'open' && p.pull.head === h.ref && p.pull.base === base)) {
      throw validationFailed([{ resource: 'PullRequest', code: 'custom', message: `A pull request already exists for ${h.owner}:${h.ref}.` }]);
    }
    if (own(repo.refs, `heads/${h.ref}`) === own(repo.refs, `heads/${base}`)) {
      throw validationFailed([{ resource: 'PullRequest', code: 'custom', message: `No commits between ${base} and ${h.ref}` }]);
    }
    const created: IssueRecord = {
      number: repo.issues.length + 1,
      id: call.gh.nextId(),
      title,
      body: str(body, 'body') ?? null,
      state: 'open',
      state_reason: null,
      labels: [],
      user: login,
      created_at: nowIso(),
      updated_at: nowIso(),
      closed_at: null,
      pull: { head: h.ref, base, headOwner: h.owner },
    };
    repo.issues.push(created);
    return saved(call, 201, pullJson(repo, created, call.bases));
  }
  if (call.method === 'PATCH' && tail.length === 1) {
    requireLogin(call);
    if (pr === undefined) throw notFound();
    updateIssue(pr, await jsonBody(call));
    return saved(call, 200, pullJson(repo, pr, call.bases));
  }
  throw notFound();
}
