import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError, sourceAddress } from '../shared/http.js';
import { runCgi } from './cgi.js';
import { gitProcessEnv, type GitRepoLocation } from './git-root.js';
import { loginOf } from './request.js';
import type { GithubService } from './service.js';
import { nowIso, type RefUpdate } from './state.js';
import { validName } from './repo-name.js';

/**
 * What may follow `OWNER/NAME.git/`: the smart protocol's three paths and the dumb protocol's
 * files, the same list git http-backend serves. Anything else (`..`, a NUL, a config file) is 404
 * before git is started.
 */
const servedPaths = /^(?:info\/refs|HEAD|git-upload-pack|git-receive-pack|objects\/info\/(?:alternates|http-alternates|packs)|objects\/[0-9a-f]{2}\/[0-9a-f]{38}|objects\/pack\/pack-[0-9a-f]{40}\.(?:pack|idx))$/;

const zeroId = '0'.repeat(40);

function repositoryNotFound(): HttpError {
  return new HttpError(404, 'Repository not found.\n');
}

/** `/OWNER/NAME.git/TAIL` → its parts, each checked; undefined when it is not such a path at all. */
export function gitPath(rest: string): { owner: string; name: string; tail: string } | undefined {
  const m = /^\/([^/]+)\/([^/]+)\.git\/(.+)$/.exec(rest);
  if (m === null) return undefined;
  let parts: string[];
  try {
    parts = [m[1]!, m[2]!, m[3]!].map((p) => decodeURIComponent(p));
  } catch {
    throw repositoryNotFound();
  }
  const [owner, name, tail] = parts as [string, string, string];
  if (!validName(owner) || !validName(name) || !servedPaths.test(tail)) throw repositoryNotFound();
  return { owner, name, tail };
}

/** The ref changes between two `for-each-ref` snapshots, in ref order. */
function changes(before: Map<string, string>, after: Map<string, string>): RefUpdate[] {
  const names = [...new Set([...before.keys(), ...after.keys()])].sort();
  return names.filter((ref) => before.get(ref) !== after.get(ref)).map((ref) => ({ ref, before: before.get(ref) ?? zeroId, after: after.get(ref) ?? zeroId }));
}

/** The CGI/1.1 variables git http-backend reads (git-http-backend(1)). */
function cgiEnv(gh: GithubService, req: IncomingMessage, repo: GitRepoLocation, tail: string, search: string, login: string | undefined): NodeJS.ProcessEnv {
  const header = (name: string): string | undefined => {
    const value = req.headers[name];
    return typeof value === 'string' ? value : undefined;
  };
  const length = header('content-length');
  const protocol = header('git-protocol');
  const encoding = header('content-encoding');
  return gitProcessEnv({
    GATEWAY_INTERFACE: 'CGI/1.1',
    GIT_PROJECT_ROOT: gh.gitRoot!.dir,
    GIT_HTTP_EXPORT_ALL: '1',
    PATH_INFO: `/${repo.owner}/${repo.name}.git/${tail}`,
    REQUEST_METHOD: req.method ?? 'GET',
    QUERY_STRING: search.replace(/^\?/, ''),
    CONTENT_TYPE: header('content-type') ?? '',
    REMOTE_ADDR: sourceAddress(req),
    // A chunked body has no length: http-backend then reads to the end.
    ...(length !== undefined && req.headers['transfer-encoding'] === undefined ? { CONTENT_LENGTH: length } : {}),
    // http-backend inflates a gzip body itself when told so.
    ...(encoding !== undefined ? { HTTP_CONTENT_ENCODING: encoding } : {}),
    // Protocol v2, as git clients ask for it; only its own characters pass.
    ...(protocol !== undefined && /^[\w.=:-]+$/.test(protocol) ? { HTTP_GIT_PROTOCOL: protocol } : {}),
    // With REMOTE_USER set, http-backend enables receive-pack (http.receivepack unset); it is set
    // only for a caller with a token, and a push without one never reaches git.
    ...(login === undefined ? {} : { REMOTE_USER: login }),
  });
}

/**
 * `/github/OWNER/NAME.git/...`: git's smart HTTP for `--git-root DIR`, through git http-backend
 * as a CGI child. Clone and fetch need no token; a push (its advertisement and its POST) needs
 * one, like GitHub (Basic with the token as password, `x-access-token:TOKEN`, or Bearer), and is
 * recorded with the refs it changed.
 */
export async function handleSmartHttp(gh: GithubService, req: IncomingMessage, res: ServerResponse, rest: string, search: string): Promise<void> {
  const parsed = gitPath(rest);
  if (parsed === undefined || gh.gitRoot === undefined) throw repositoryNotFound();
  const repo = await gh.gitRoot.locate(parsed.owner, parsed.name);
  if (repo === undefined) throw repositoryNotFound();
  const service = new URLSearchParams(search).get('service');
  const pushing = parsed.tail === 'git-receive-pack' || (parsed.tail === 'info/refs' && service === 'git-receive-pack');
  const login = loginOf(req.headers.authorization);
  if (pushing && login === undefined) {
    throw new HttpError(401, 'Authentication required: push with a token (https://x-access-token:TOKEN@HOST/OWNER/NAME.git).\n', {
      'www-authenticate': 'Basic realm="GitHub"',
    });
  }
  const env = cgiEnv(gh, req, repo, parsed.tail, search, login);
  if (!pushing || req.method !== 'POST') {
    await runCgi(req, res, 'git', ['http-backend'], env);
    res.end();
    return;
  }
  await gh.repoLock.run(repo.dir, async () => {
    const before = await gh.gitRoot!.refs(repo.dir);
    const { exitCode } = await runCgi(req, res, 'git', ['http-backend'], env);
    if (exitCode === 0) {
      const refs = changes(before, await gh.gitRoot!.refs(repo.dir));
      // Recorded before the answer ends, so a test that asserts after `git push` sees it.
      if (refs.length > 0) await gh.recordPush({ repository: `${repo.owner}/${repo.name}`, login: login!, refs, at: nowIso() });
    }
    res.end();
  });
}
