import type { Octokit } from '@octokit/rest';
import { RelctlError } from '../core/errors.js';
import type { HttpClient, HttpRequest } from '../io/http.js';
import { userAgent } from '../io/http.js';
import { checkGithubApiUrl } from './api-url.js';

/**
 * @octokit/rest on relctl's one HTTP layer: octokit builds GitHub's requests and decodes its
 * answers, HttpClient carries them (per-request deadline, bounded GET retries, proxies, no
 * redirects, --verbose lines without headers). Loaded lazily: only notes (and later distribute)
 * pay for octokit.
 */
function fetchOver(http: HttpClient): typeof fetch {
  return async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.toString() : input.url;
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((value, key) => {
      headers[key] = value;
    });
    const method = (init?.method ?? 'GET').toUpperCase() as HttpRequest['method'];
    const body = typeof init?.body === 'string' ? init.body : init?.body instanceof Uint8Array ? init.body : undefined;
    const res = await http.request({ method, url, headers, ...(body === undefined ? {} : { body }) });
    const out = new Headers();
    for (const [k, v] of Object.entries(res.headers)) {
      if (Array.isArray(v)) for (const one of v) out.append(k, one);
      else if (v !== undefined) out.set(k, v);
    }
    const empty = res.status === 204 || res.status === 205 || res.status === 304 || method === 'HEAD';
    return new Response(empty ? null : Buffer.from(res.body), { status: res.status, headers: out });
  };
}

export interface GithubClientOptions {
  baseUrl: string;
  token?: string;
  http: HttpClient;
}

export async function githubClient(options: GithubClientOptions): Promise<Octokit> {
  const baseUrl = checkGithubApiUrl(options.baseUrl);
  const { Octokit } = await import('@octokit/rest');
  const silent = (): void => undefined;
  return new Octokit({
    baseUrl: baseUrl.replace(/\/+$/, ''),
    userAgent: userAgent(),
    ...(options.token === undefined ? {} : { auth: options.token }),
    request: { fetch: fetchOver(options.http) },
    log: { debug: silent, info: silent, warn: silent, error: silent },
  });
}

/** The HTTP status of an octokit failure, or undefined when no answer came. */
export function statusOf(error: unknown): number | undefined {
  const e = error as { status?: number; response?: unknown; cause?: unknown };
  if (e.cause instanceof RelctlError) return undefined;
  return typeof e.status === 'number' && e.response !== undefined ? e.status : undefined;
}

/** relctl's own error behind an octokit failure (network, timeout, ambiguous write), if any. */
export function relctlCause(error: unknown): RelctlError | undefined {
  const cause = (error as { cause?: unknown }).cause;
  return cause instanceof RelctlError ? cause : undefined;
}

/** GitHub's own message of a failed call (`Not Found`, `Validation Failed`), for the user to read verbatim. */
export function githubMessage(error: unknown): string {
  const data = (error as { response?: { data?: unknown } }).response?.data;
  if (data !== null && typeof data === 'object' && typeof (data as { message?: unknown }).message === 'string') {
    return (data as { message: string }).message;
  }
  return relctlCause(error)?.message ?? (error instanceof Error ? error.message : String(error));
}

/**
 * relctl follows no redirects on API calls (DESIGN §5): GitHub answers 301 for a renamed or moved
 * repository, and the caller says where it moved instead of reading a page it did not ask for.
 */
export function redirectOf(res: { status: number; headers: Record<string, unknown> }): string | undefined {
  if (res.status < 300 || res.status >= 400) return undefined;
  const location = res.headers.location;
  return `HTTP ${res.status}${typeof location === 'string' ? ` to ${location}` : ''}`;
}
