import { describe, expect, it } from 'vitest';
import { parseRetryAfter, retryDelayMs, shouldRetryStatus } from './retry.js';

describe('retry policy', () => {
  it('retries only the statuses that mean "later"', () => {
    expect([408, 429, 502, 503, 504].every(shouldRetryStatus)).toBe(true);
    expect([400, 401, 404, 409, 500].some(shouldRetryStatus)).toBe(false);
  });
  it('honours Retry-After in seconds and as a date, capped', () => {
    expect(parseRetryAfter('3')).toBe(3000);
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 4_000)).toBe(6000);
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(retryDelayMs(0, '2', { baseMs: 250, capMs: 8000 })).toBe(2000);
    expect(retryDelayMs(0, '86400', { baseMs: 250, capMs: 8000 })).toBe(30_000);
  });
  it('backs off exponentially up to the cap', () => {
    const policy = { baseMs: 250, capMs: 1000 };
    expect([0, 1, 2, 3, 4].map((a) => retryDelayMs(a, undefined, policy))).toEqual([250, 500, 1000, 1000, 1000]);
  });
});
