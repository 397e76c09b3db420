import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError } from '../shared/http.js';
import { handleGit } from './git-routes.js';
import { handleIssues } from './issue-routes.js';
import { handleReleases } from './release-routes.js';
import { jsonBody, loginOf, notFound, reply, requireLogin, saved, str, validationFailed, type GithubCall } from './request.js';
import type { GithubService } from './service.js';
import { validName } from './service.js';
import { repoJson, userJson } from './shapes.js';

/**
 * `/github/api/...`: the subset of GitHub's REST API relctl uses (DESIGN §8, §11), with GitHub's
 * status codes and JSON shapes so that @octokit/rest works against it unchanged.
 */
export async function handleGithub(gh: GithubService, origin: string, req: IncomingMessage, res: ServerResponse, rest: string, query: URLSearchParams): Promise<void> {
  if (!rest.startsWith('/api/') && rest !== '/api') throw notFound();
  let segments: string[];
  try {
    segments = rest.slice('/api'.length).split('/').filter((s) => s !== '').map((s) => decodeURIComponent(s));
  } catch {
    throw notFound();
  }
  const call: GithubCall = {
    gh,
    req,
    res,
    method: req.method ?? 'GET',
    segments,
    query,
    bases: { api: `${origin}/github/api`, html: `${origin}/github` },
    login: loginOf(req.headers.authorization),
  };
  const [first, , , area] = segments;
  if (first === 'user') return handleUser(call);
  if (first === 'repos' && segments.length >= 3) {
    if (segments.length === 3) return handleRepo(call);
    if (area === 'releases') return handleReleases(call);
    if (area === 'issues') return handleIssues(call);
    if (area === 'git' || area === 'contents' || area === 'pulls') return handleGit(call);
  }
  throw notFound();
}

async function handleUser(call: GithubCall): Promise<void> {
  const login = requireLogin(call);
  const route = `${call.method} ${call.segments.slice(1).join('/')}`;
  if (route === 'GET ') return reply(call, 200, userJson(login, call.bases));
  if (route === 'POST repos') {
    const body = await jsonBody(call);
    const name = str(body, 'name');
    if (name === undefined || !validName(name)) {
      throw validationFailed([{ resource: 'Repository', code: 'missing_field', field: 'name' }], 'Repository creation failed.');
    }
    const created = call.gh.create(login, name, { private: body.private === true, description: str(body, 'description') ?? null });
    if (created === undefined) {
      throw validationFailed([{ resource: 'Repository', code: 'custom', field: 'name', message: 'name already exists on this account' }], 'Repository creation failed.');
    }
    return saved(call, 201, repoJson(created, call.bases));
  }
  throw new HttpError(404, { message: 'Not Found' });
}

async function handleRepo(call: GithubCall): Promise<void> {
  if (call.method !== 'GET') throw notFound();
  const repo = call.gh.repo(call.segments[1]!, call.segments[2]!);
  return saved(call, 200, repoJson(repo, call.bases));
}
