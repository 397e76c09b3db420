import { EnvironmentError, RelctlError } from '../core/errors.js';
import { githubMessage, relctlCause, statusOf } from './client.js';

/**
 * One reading of a failed GitHub call for every command that talks to GitHub (notes --publish,
 * distribute, the tracker check): the words GitHub said, plus what they mean. A rate limit says so
 * and when it resets; a 422 names the field GitHub refused; a refused token says which rights the
 * call needs. `what` is the action ("opening the pull request on o/r"), `fix` the command's own
 * next step for the remaining cases.
 */
export interface GithubFailureWords {
  /** What the token must be allowed to do, for 401/403: "open pull requests on the distribution repository". */
  rights: string;
  /** The next step for any other failure: "run relctl distribute again (it is idempotent)". */
  retry: string;
}

interface ResponseLike {
  status?: number;
  response?: { headers?: Record<string, unknown>; data?: unknown };
}

function headerOf(error: unknown, name: string): string | undefined {
  const v = (error as ResponseLike).response?.headers?.[name];
  return Array.isArray(v) ? String(v[0]) : v === undefined || v === null ? undefined : String(v);
}

/** When a rate limit resets: `Retry-After` seconds, else `x-ratelimit-reset` (epoch seconds). */
export function rateLimitReset(error: unknown, now = Date.now()): { limited: boolean; retryAt?: Date } {
  const status = statusOf(error);
  if (status !== 403 && status !== 429) return { limited: false };
  const retryAfter = Number(headerOf(error, 'retry-after'));
  const reset = Number(headerOf(error, 'x-ratelimit-reset'));
  const remaining = headerOf(error, 'x-ratelimit-remaining');
  const said = githubMessage(error).toLowerCase();
  const limited = status === 429 || remaining === '0' || Number.isFinite(retryAfter) && headerOf(error, 'retry-after') !== undefined || said.includes('rate limit');
  if (!limited) return { limited: false };
  if (Number.isFinite(retryAfter) && retryAfter >= 0) return { limited, retryAt: new Date(now + retryAfter * 1000) };
  if (Number.isFinite(reset) && reset > 0) return { limited, retryAt: new Date(reset * 1000) };
  return { limited };
}

/** GitHub's field-level reasons of a 422 (`errors: [{resource, field, code, message}]`), readable. */
export function validationDetails(error: unknown): string[] {
  const data = (error as ResponseLike).response?.data;
  const errors = data !== null && typeof data === 'object' ? (data as { errors?: unknown }).errors : undefined;
  if (!Array.isArray(errors)) return [];
  return errors
    .filter((e): e is Record<string, unknown> => e !== null && typeof e === 'object')
    .map((e) => {
      const where = [e.resource, e.field].filter((x) => typeof x === 'string').join('.');
      const why = typeof e.message === 'string' ? e.message : typeof e.code === 'string' ? e.code : 'invalid';
      return where === '' ? why : `${where}: ${why}`;
    })
    .slice(0, 5);
}

export function githubFailure(error: unknown, what: string, words: GithubFailureWords): RelctlError {
  if (error instanceof RelctlError) return error;
  const own = relctlCause(error);
  if (own !== undefined) return own;
  const status = statusOf(error);
  const said = githubMessage(error);
  const limit = rateLimitReset(error);
  if (limit.limited) {
    const when = limit.retryAt === undefined ? 'later' : `after ${limit.retryAt.toISOString()}`;
    return new EnvironmentError(`${what}: GitHub's rate limit is used up (HTTP ${status}; GitHub said: ${said}).`, {
      kind: 'github-rate-limited',
      fix: `Wait and try again ${when}; a token (RELCTL_GITHUB_TOKEN) has a far higher limit than anonymous calls.`,
      ...(limit.retryAt === undefined ? {} : { data: { retryAt: limit.retryAt.toISOString() } }),
    });
  }
  if (status === 401 || status === 403) {
    return new EnvironmentError(`${what}: GitHub refused the call (HTTP ${status}; GitHub said: ${said}).`, {
      kind: 'github-auth-rejected',
      fix: `Set RELCTL_GITHUB_TOKEN (or GITHUB_TOKEN, or log in with gh) to a token that may ${words.rights}.`,
    });
  }
  if (status === 422) {
    const details = validationDetails(error);
    return new EnvironmentError(`${what}: GitHub refused the request as invalid (HTTP 422; GitHub said: ${said}${details.length === 0 ? '' : `; ${details.join('; ')}`}).`, {
      kind: 'github-invalid-request',
      fix: `Look at the field GitHub names, then ${words.retry}.`,
    });
  }
  return new EnvironmentError(`${what}: GitHub answered ${status === undefined ? 'nothing' : `HTTP ${status}`} (GitHub said: ${said}).`, {
    kind: 'github-failed',
    fix: `Check the repository name and the GitHub API URL (RELCTL_GITHUB_API_URL), then ${words.retry}.`,
  });
}
