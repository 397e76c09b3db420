import { randomBytes } from 'node:crypto';
import type { Fault } from '../shared/faults.js';
import { HttpError } from '../shared/http.js';
import { userId } from './shapes.js';

/** GitHub's primary rate limit for a token: 5,000 calls an hour (DESIGN §13 Sandbox). */
const hourlyLimit = 5000;
/** Callers remembered at once; the oldest is forgotten first (any token names a caller). */
const maxCallers = 10_000;

export interface RateWindow {
  limit: number;
  remaining: number;
  /** Epoch seconds at which the window starts again. */
  reset: number;
  used: number;
}

/**
 * The `x-ratelimit-*` counters of the GitHub stand-in, one hourly window per caller (a login, or
 * the source address without a token). They are reported, not enforced: a test that wants a 403
 * or 429 asks the fault injector for it, so no suite waits an hour by accident.
 */
export class RateLimits {
  private readonly windows = new Map<string, { reset: number; used: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Counts one call by `caller`. */
  take(caller: string): RateWindow {
    const w = this.current(caller);
    w.used += 1;
    return this.view(w);
  }

  /** What `caller` has left, without counting (GET /rate_limit does not count on GitHub either). */
  peek(caller: string): RateWindow {
    return this.view(this.current(caller));
  }

  reset(): void {
    this.windows.clear();
  }

  private current(caller: string): { reset: number; used: number } {
    const nowSeconds = Math.floor(this.now() / 1000);
    let w = this.windows.get(caller);
    if (w === undefined || w.reset <= nowSeconds) {
      w = { reset: nowSeconds + 3600, used: 0 };
      this.windows.delete(caller);
      if (this.windows.size >= maxCallers) this.windows.delete(this.windows.keys().next().value!);
      this.windows.set(caller, w);
    }
    return w;
  }

  private view(w: { reset: number; used: number }): RateWindow {
    return { limit: hourlyLimit, remaining: Math.max(0, hourlyLimit - w.used), reset: w.reset, used: w.used };
  }
}

/** The headers GitHub sends with every REST answer. */
export function rateLimitHeaders(w: RateWindow): Record<string, string> {
  return {
    'x-ratelimit-limit': String(w.limit),
    'x-ratelimit-remaining': String(w.remaining),
    'x-ratelimit-reset': String(w.reset),
    'x-ratelimit-used': String(w.used),
    'x-ratelimit-resource': 'core',
  };
}

const rateLimitDocs = 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api';

/**
 * A `github` fault's answer, in GitHub's words: the secondary limit's message (403 or 429, with
 * `Retry-After` when the fault gives one), or the hourly limit's (`x-ratelimit-remaining: 0`).
 * `resetAfter` puts the reset that many seconds ahead; the other `x-ratelimit-*` headers stay
 * as the caller's window set them.
 */
export function rateLimitAnswer(fault: Fault, login: string | undefined, address: string, now: number = Date.now()): HttpError {
  // GitHub's request id: five hex fields, `C4A2:3F1B:1A2B3C:4D5E6F:66A1B2C3`.
  const hex = randomBytes(14).toString('hex').toUpperCase();
  const requestId = [hex.slice(0, 4), hex.slice(4, 8), hex.slice(8, 14), hex.slice(14, 20), hex.slice(20)].join(':');
  const support = `If you reach out to GitHub Support for help, please include the request ID ${requestId}.`;
  const secondary = fault.github === 'secondary-rate-limit';
  const message = secondary
    ? `You have exceeded a secondary rate limit. Please wait a few minutes before you try again. ${support}`
    : login === undefined
      ? `API rate limit exceeded for ${address}. (But here's the good news: Authenticated requests get a higher rate limit. Check out the documentation for more details.) ${support}`
      : `API rate limit exceeded for user ID ${userId(login)}. ${support}`;
  const resetAfter = fault.resetAfter ?? (secondary ? undefined : 60);
  const headers: Record<string, string> = {
    'x-github-request-id': requestId,
    ...(fault.retryAfter === undefined ? {} : { 'retry-after': String(fault.retryAfter) }),
    ...(resetAfter === undefined ? {} : { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(Math.floor(now / 1000) + resetAfter) }),
  };
  const anchor = secondary ? '#about-secondary-rate-limits' : '#about-the-primary-rate-limit';
  return new HttpError(fault.status ?? 403, { message, documentation_url: `${rateLimitDocs}${anchor}` }, headers);
}

/** A `forbidden` fault's answer: GitHub's 403 to a token without the right, no Retry-After, nothing to wait for. */
export function forbiddenAnswer(): HttpError {
  return new HttpError(403, { message: 'Resource not accessible by integration', documentation_url: 'https://docs.github.com/rest', status: '403' });
}
