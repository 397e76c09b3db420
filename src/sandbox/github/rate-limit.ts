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
