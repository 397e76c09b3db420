import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError, continueAndRead, parseJson, sendJson } from '../shared/http.js';
import type { GithubService } from './service.js';
import { paginate } from './paging.js';
import { githubError, type Bases } from './shapes.js';
import type { RepoRecord } from './state.js';

/** What a GitHub stand-in route gets: the parsed call, its caller and the store. */
export interface GithubCall {
  gh: GithubService;
  req: IncomingMessage;
  res: ServerResponse;
  method: string;
  /** Decoded path segments below /github/api. */
  segments: string[];
  query: URLSearchParams;
  bases: Bases;
  /** The caller's login, from any token; undefined without one. */
  login: string | undefined;
}

/**
 * Any token is accepted and names its user: a token that is a valid login is that login (tests
 * say `token alice`); any other token is a stable `user-<hash>` (so a secret-looking token never
 * comes back in a response).
 */
export function loginOf(authorization: string | undefined): string | undefined {
  if (authorization === undefined) return undefined;
  const m = /^(token|bearer|basic)\s+(\S+)\s*$/i.exec(authorization);
  if (m === null) return undefined;
  let token = m[2]!;
  if (m[1]!.toLowerCase() === 'basic') {
    const decoded = Buffer.from(token, 'base64').toString('utf8');
    token = decoded.slice(decoded.indexOf(':') + 1);
  }
  // `x-access-token:` with nothing after it carries no token at all.
  if (token === '') return undefined;
  if (/^[A-Za-z0-9](?:[A-Za-z0-9-]{0,37}[A-Za-z0-9])?$/.test(token)) return token;
  return `user-${createHash('sha256').update(token).digest('hex').slice(0, 8)}`;
}

export function requireLogin(call: GithubCall): string {
  if (call.login === undefined) throw new HttpError(401, githubError('Requires authentication'));
  return call.login;
}

export function notFound(): HttpError {
  return new HttpError(404, githubError('Not Found'));
}

export function validationFailed(errors: Record<string, unknown>[], message = 'Validation Failed'): HttpError {
  return new HttpError(422, githubError(message, errors));
}

/** GitHub's longest issue, pull request or comment body, in characters. */
export const maxBodyChars = 65_536;

/**
 * GitHub refuses a longer body with a 422 naming the field (`body is too long (maximum is 65536
 * characters)`); characters are code points, as GitHub counts them.
 */
export function checkBodyLength(text: unknown, resource: 'Issue' | 'PullRequest' | 'IssueComment'): void {
  if (typeof text !== 'string' || text.length <= maxBodyChars) return;
  let chars = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    // A surrogate pair is one character.
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) i++;
    if (++chars > maxBodyChars) {
      throw validationFailed([{ resource, code: 'custom', field: 'body', message: `body is too long (maximum is ${maxBodyChars} characters)` }]);
    }
  }
}

export async function jsonBody(call: GithubCall): Promise<Record<string, unknown>> {
  const buf = await continueAndRead(call.req, call.res, 16 * 1024 * 1024);
  if (buf.length === 0) return {};
  let value: unknown;
  try {
    value = parseJson(buf);
  } catch {
    throw new HttpError(400, githubError('Problems parsing JSON'));
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new HttpError(400, githubError('Problems parsing JSON'));
  return value as Record<string, unknown>;
}

export function str(body: Record<string, unknown>, key: string): string | undefined {
  const v = body[key];
  return typeof v === 'string' ? v : undefined;
}

export function reply(call: GithubCall, status: number, value: unknown, headers: Record<string, string> = {}): void {
  sendJson(call.res, status, value, { 'x-github-media-type': 'github.v3; format=json', ...headers });
}

/** One page of a list, with GitHub's `Link` header built on the request's own URL. */
export function replyPage<T>(call: GithubCall, items: readonly T[], json: (item: T) => unknown): void {
  const self = new URL(call.req.url ?? '/', new URL(call.bases.api).origin);
  const page = paginate(items, call.query, self);
  reply(call, 200, page.items.map(json), page.headers);
}

/** Writes change the store: persist, then answer. */
export async function saved(call: GithubCall, status: number, value: unknown): Promise<void> {
  await call.gh.save();
  reply(call, status, value);
}

export function repoOf(call: GithubCall): RepoRecord {
  return call.gh.repo(call.segments[1]!, call.segments[2]!);
}
