import { HttpError } from '../shared/http.js';
import { jsonBody, notFound, repoOf, reply, requireLogin, saved, str, validationFailed, type GithubCall } from './request.js';
import { githubError } from './shapes.js';
import { blobSha, newCommit, own, type CommitRecord, type RepoRecord } from './state.js';

/**
 * `git/refs` and `contents` on the stand-in's own store: what a distribution pull request needs
 * (branch from a commit, change one file on it); the pull request itself is pull-routes.ts'.
 */
export async function handleGit(call: GithubCall): Promise<void> {
  const repo = repoOf(call);
  if (call.segments[3] === 'git') return refs(call, repo);
  return contents(call, repo);
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
