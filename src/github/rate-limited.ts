/**
 * A GitHub call that waits out a rate limit (DESIGN §13): a 403 or 429 that says when to come
 * back (`Retry-After`, else `x-ratelimit-reset`) is retried after that moment, at most three
 * times; a wait longer than `maxWaitMs` is not waited out (the caller's error says when to run
 * again). Any other failure goes straight to the caller.
 */
import { InterruptedError } from '../core/errors.js';
import { rateLimitReset } from './errors.js';

export interface RateLimitOptions {
  /** What the call does, for the waiting line: "opening the pull request on o/r". */
  what: string;
  log: (line: string) => void;
  retries?: number;
  /** The longest single wait (default ten minutes). */
  maxWaitMs?: number;
  /** When the answer names no moment (a secondary limit without Retry-After): GitHub asks for a minute. */
  defaultWaitMs?: number;
  signal?: AbortSignal;
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** An abortable pause: Ctrl-C during a rate-limit wait stops at once. */
export function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted === true) return reject(new InterruptedError('Interrupted while waiting for GitHub\'s rate limit to reset.'));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new InterruptedError('Interrupted while waiting for GitHub\'s rate limit to reset.'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export async function withRateLimitRetry<T>(call: () => Promise<T>, options: RateLimitOptions): Promise<T> {
  const retries = options.retries ?? 3;
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? pause;
  for (let attempt = 0; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      const limit = rateLimitReset(error, now());
      if (!limit.limited || attempt >= retries) throw error;
      const wait = Math.max(0, limit.retryAt === undefined ? (options.defaultWaitMs ?? 60_000) : limit.retryAt.getTime() - now());
      if (wait > (options.maxWaitMs ?? 600_000)) throw error;
      options.log(`GitHub's rate limit: waiting ${Math.ceil(wait / 1000)} s before ${options.what} again (retry ${attempt + 1} of ${retries}).`);
      await sleep(wait, options.signal);
    }
  }
}
