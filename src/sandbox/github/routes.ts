import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError, sourceAddress } from '../shared/http.js';
import { handleGit } from './git-routes.js';
import { handleIssues } from './issue-routes.js';
import { handleOwnerRepos } from './owner-routes.js';
import { handleCompare, handlePulls } from './pull-routes.js';
import { forbiddenAnswer, rateLimitAnswer, rateLimitHeaders } from './rate-limit.js';
import { handleReleases } from './release-routes.js';
import { jsonBody, loginOf, notFound, reply, requireLogin, saved, str, validationFailed, type GithubCall } from './request.js';
import type { GithubService } from './service.js';
import { validName } from './repo-name.js';
import { repoJson, userJson } from './shapes.js';
import { gitPath, handleSmartHttp } from './smart-http.js';

/**
 * `/github/api/...`: the subset of GitHub's REST API relctl uses (DESIGN §8, §11, §13), with
 * GitHub's status codes, JSON shapes and `x-ratelimit-*` headers so that @octokit/rest works
 * against it unchanged; `/github/OWNER/NAME.git/...`: git's smart HTTP for `--git-root`.
 */
export async function handleGithub(gh: GithubService, origin: string, req: IncomingMessage, res: ServerResponse, rest: string, query: URLSearchParams, search: string): Promise<void> {
  if (!rest.startsWith('/api/') && rest !== '/api') {
    if (gitPath(rest) !== undefined) return handleSmartHttp(gh, req, res, rest, search);
    throw notFound();
  }
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
  // On every answer, errors included (headers set here survive writeHead); GET /rate_limit does not count.
  const caller = call.login ?? `address ${sourceAddress(req)}`;
  const rateRoute = segments.length === 1 && segments[0] === 'rate_limit';
  const window = rateRoute ? gh.rateLimits.peek(caller) : gh.rateLimits.take(caller);
  for (const [name, value] of Object.entries(rateLimitHeaders(window))) res.setHeader(name, value);
  if (rateRoute && call.method === 'GET') {
    const core = { ...window, resource: 'core' };
    return reply(call, 200, { resources: { core }, rate: core });
  }
  // A test's rate-limit fault: after the headers above, so the answer carries them as GitHub's does.
  const fault = gh.faults?.takeGithub(rest.slice('/api'.length) || '/', call.method);
  if (fault !== undefined) throw fault.github === 'forbidden' ? forbiddenAnswer() : rateLimitAnswer(fault, call.login, sourceAddress(req));
  const [first, second, , area] = segments;
  if (call.method === 'GET' && (first === 'orgs' || first === 'users') && segments.length === 3 && segments[2] === 'repos' && second !== undefined) {
    return handleOwnerRepos(call);
  }
  if (first === 'user') return handleUser(call);
  if (first === 'repos' && segments.length >= 3) {
    if (segments.length === 3) return handleRepo(call);
    if (area === 'releases') return handleReleases(call);
    if (area === 'issues') return handleIssues(call);
    if (area === 'pulls') return handlePulls(call);
    if (area === 'compare' && call.method === 'GET' && segments.length > 4) return handleCompare(call);
    if (area === 'git' || area === 'contents') return handleGit(call);
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
  const [, owner, name] = call.segments as [string, string, string];
  const repo = call.gh.repo(owner, name);
  return saved(call, 200, repoJson(repo, call.bases, await call.gh.facts(owner, name)));
}
