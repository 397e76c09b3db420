import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Asks the health URL until it answers 2xx or the deadline passes (a bounded loop). Redirects are
 * followed: a portal's front page usually redirects to its welcome page. The last answer (status
 * and the start of the body, or the network error) is kept for the failure report.
 */
export interface ProbeResult {
  healthy: boolean;
  attempts: number;
  /** `HTTP 503: <body start>` or `connection refused` etc. */
  last: string;
  ms: number;
}

export async function probeHealth(url: string, options: { deadlineMs: number; requestTimeoutMs: number; intervalMs?: number; signal?: AbortSignal }): Promise<ProbeResult> {
  const started = Date.now();
  const interval = options.intervalMs ?? 500;
  let attempts = 0;
  let last = 'not asked yet';
  while (options.signal?.aborted !== true) {
    attempts++;
    const remaining = options.deadlineMs - (Date.now() - started);
    try {
      const timeout = AbortSignal.timeout(Math.max(100, Math.min(options.requestTimeoutMs, remaining)));
      const res = await fetch(url, { signal: options.signal === undefined ? timeout : AbortSignal.any([timeout, options.signal]) });
      const body = (await res.text()).replace(/\s+/g, ' ').trim().slice(0, 200);
      last = `HTTP ${res.status}${body === '' ? '' : `: ${body}`}`;
      if (res.status >= 200 && res.status < 300) return { healthy: true, attempts, last, ms: Date.now() - started };
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      last = cause?.code ?? cause?.message ?? (error as Error).message;
    }
    if (Date.now() - started + interval > options.deadlineMs) break;
    await sleep(interval, undefined, options.signal === undefined ? {} : { signal: options.signal }).catch(() => undefined);
  }
  return { healthy: false, attempts, last, ms: Date.now() - started };
}
