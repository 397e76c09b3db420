import { HttpError } from './http.js';

/**
 * Fault injection for tests: for a path prefix, the next `count` requests get a status, a
 * connection reset, a delay (then the normal answer), 429 with Retry-After, or a lost answer
 * (`dropAnswer`: the request is carried out, then the connection is closed instead of answering,
 * the worst case of an upload whose answer never arrives). A GitHub fault (`github`) is one of
 * GitHub's rate-limit answers for API calls whose path matches `path`.
 */
export interface Fault {
  prefix: string;
  count: number;
  method?: string;
  status?: number;
  body?: unknown;
  reset?: boolean;
  dropAnswer?: boolean;
  delayMs?: number;
  retryAfter?: number;
  /**
   * A GitHub rate-limit or refusal answer (403 or 429, GitHub's message and headers), given by the GitHub
   * stand-in itself after its `x-ratelimit-*` headers are set, not by the dispatcher.
   */
  github?: GithubFaultKind;
  /** With `github`: the API calls it applies to, a path below /github/api in which `*` is any run of characters; default every call. */
  path?: string;
  /** With `github`: the answer says `x-ratelimit-remaining: 0` and an `x-ratelimit-reset` this many seconds ahead. */
  resetAfter?: number;
}

/**
 * GitHub's two limits, the hourly one (`rate-limit`) and the abuse guard (`secondary-rate-limit`),
 * and a token refused the call (`forbidden`: 403 "Resource not accessible by integration", a token
 * that may push but not open pull requests), which no wait cures.
 */
export const githubFaultKinds = ['secondary-rate-limit', 'rate-limit', 'forbidden'] as const;
export type GithubFaultKind = (typeof githubFaultKinds)[number];

export type FaultAction =
  | { kind: 'reset'; delayMs: number }
  | { kind: 'drop-answer'; delayMs: number }
  | { kind: 'delay'; delayMs: number }
  | { kind: 'answer'; delayMs: number; error: HttpError };

export function parseFaults(value: unknown): Fault[] {
  const list = Array.isArray(value) ? value : [value];
  return list.map((item) => {
    if (typeof item !== 'object' || item === null) throw badFault('each fault must be a JSON object');
    const f = item as Record<string, unknown>;
    const num = (k: string, min: number, max: number): number | undefined => {
      const v = f[k];
      if (v === undefined) return undefined;
      if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) throw badFault(`${k} must be an integer from ${min} to ${max}`);
      return v;
    };
    const count = num('count', 1, 1_000_000) ?? 1;
    if (f.github !== undefined) return { ...parseGithubFault(f, num), count };
    if (typeof f.prefix !== 'string' || !f.prefix.startsWith('/')) throw badFault('prefix must be a path starting with /');
    const fault: Fault = { prefix: f.prefix, count };
    if (typeof f.method === 'string') fault.method = f.method.toUpperCase();
    const status = num('status', 100, 599);
    if (status !== undefined) fault.status = status;
    if (f.body !== undefined) fault.body = f.body;
    if (f.reset === true) fault.reset = true;
    if (f.dropAnswer === true) fault.dropAnswer = true;
    const delay = num('delayMs', 0, 600_000);
    if (delay !== undefined) fault.delayMs = delay;
    const retryAfter = num('retryAfter', 0, 86_400);
    if (retryAfter !== undefined) {
      fault.retryAfter = retryAfter;
      fault.status ??= 429;
    }
    if (fault.status === undefined && fault.reset !== true && fault.dropAnswer !== true && fault.delayMs === undefined) {
      throw badFault('give status, reset, dropAnswer, delayMs or retryAfter');
    }
    return fault;
  });
}

function parseGithubFault(f: Record<string, unknown>, num: (k: string, min: number, max: number) => number | undefined): Omit<Fault, 'count'> {
  const kind = githubFaultKinds.find((k) => k === f.github);
  if (kind === undefined) throw badFault(`github must be one of ${githubFaultKinds.join(', ')}`);
  // The path may name its method first, as GitHub's docs write a route: `POST /repos/...`.
  const routed = typeof f.path === 'string' ? /^([A-Za-z]+) +(\/.*)$/.exec(f.path) : null;
  const path = routed?.[2] ?? f.path;
  const method = routed?.[1] ?? f.method;
  if (path !== undefined && (typeof path !== 'string' || !path.startsWith('/'))) throw badFault('path must be an API path starting with / (below /github/api)');
  const status = num('status', 100, 599) ?? 403;
  if (status !== 403 && status !== 429) throw badFault('a GitHub rate limit answers 403 or 429');
  if (kind === 'forbidden' && status !== 403) throw badFault('a refused token answers 403');
  const retryAfter = num('retryAfter', 0, 86_400);
  const resetAfter = num('resetAfter', 0, 86_400);
  return {
    prefix: '/github/api',
    github: kind,
    status,
    ...(typeof method === 'string' ? { method: method.toUpperCase() } : {}),
    ...(typeof path === 'string' ? { path } : {}),
    ...(retryAfter === undefined ? {} : { retryAfter }),
    ...(resetAfter === undefined ? {} : { resetAfter }),
  };
}

/** `*` is any run of characters; the rest is literal; the whole path must match. */
function globMatches(glob: string, path: string): boolean {
  const pattern = glob.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*');
  return new RegExp(`^${pattern}$`).test(path);
}

function badFault(why: string): HttpError {
  return new HttpError(400, { error: `Bad fault: ${why}` });
}

export class Faults {
  private list: Fault[] = [];

  add(faults: Fault[]): void {
    this.list.push(...faults);
  }
  clear(): void {
    this.list = [];
  }
  pending(): Fault[] {
    return this.list.map((f) => ({ ...f }));
  }

  /** Takes one use of the first fault matching the request, if any (GitHub's own kinds excepted). */
  take(pathname: string, method: string): FaultAction | undefined {
    const fault = this.use((f) => f.github === undefined && pathname.startsWith(f.prefix) && (f.method === undefined || f.method === method));
    if (fault === undefined) return undefined;
    const delayMs = fault.delayMs ?? 0;
    if (fault.reset === true) return { kind: 'reset', delayMs };
    if (fault.dropAnswer === true) return { kind: 'drop-answer', delayMs };
    if (fault.status === undefined) return { kind: 'delay', delayMs };
    const headers: Record<string, string> = fault.retryAfter === undefined ? {} : { 'retry-after': String(fault.retryAfter) };
    return { kind: 'answer', delayMs, error: new HttpError(fault.status, fault.body ?? '', headers) };
  }

  /** Takes one use of the first GitHub fault for this API call (`apiPath` below /github/api, no query). */
  takeGithub(apiPath: string, method: string): Fault | undefined {
    const fault = this.use((f) => f.github !== undefined && globMatches(f.path ?? '*', apiPath) && (f.method === undefined || f.method === method));
    return fault === undefined ? undefined : { ...fault };
  }

  private use(matches: (f: Fault) => boolean): Fault | undefined {
    const fault = this.list.find(matches);
    if (fault === undefined) return undefined;
    fault.count -= 1;
    if (fault.count <= 0) this.list = this.list.filter((f) => f !== fault);
    return fault;
  }
}
