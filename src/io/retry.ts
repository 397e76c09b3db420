/** Pure retry policy of the HTTP layer (DESIGN §5). */

/** Statuses worth a second GET: the server said "later" or a proxy in front of it failed. */
export function shouldRetryStatus(status: number): boolean {
  return status === 408 || status === 429 || status === 502 || status === 503 || status === 504;
}

/** Retry-After as seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/**
 * The pause before attempt `attempt + 1`: the server's Retry-After when given (capped, so a
 * hostile or confused server cannot park relctl for an hour), else exponential backoff.
 */
export function retryDelayMs(attempt: number, retryAfter: string | undefined, policy: { baseMs: number; capMs: number }): number {
  const hinted = parseRetryAfter(retryAfter);
  if (hinted !== undefined) return Math.min(hinted, Math.max(policy.capMs, 30_000));
  return Math.min(policy.baseMs * 2 ** attempt, policy.capMs);
}
