import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Asks the health URL until it answers what the caller waits for, or the deadline passes (a
 * bounded loop): 2xx once a distribution starts (`probeHealth`), no answer at all once it stops
 * (`probeDown`). Redirects are followed: a portal's front page usually redirects to its welcome
 * page. The last answer (status and the start of the body, or the network error) is kept for the
 * failure report.
 */
export interface ProbeResult {
  healthy: boolean;
  attempts: number;
  /** `HTTP 503: <body start>` or `connection refused` etc. */
  last: string;
  ms: number;
}

export interface ProbeOptions {
  deadlineMs: number;
  requestTimeoutMs: number;
  intervalMs?: number;
  signal?: AbortSignal;
}

interface Answer {
  /** undefined: no HTTP answer (refused, reset, timed out). */
  status?: number;
  last: string;
}

async function ask(url: string, timeoutMs: number, signal: AbortSignal | undefined): Promise<Answer> {
  try {
    const timeout = AbortSignal.timeout(timeoutMs);
    const res = await fetch(url, { signal: signal === undefined ? timeout : AbortSignal.any([timeout, signal]) });
    const body = (await res.text()).replace(/\s+/g, ' ').trim().slice(0, 200);
    return { status: res.status, last: `HTTP ${res.status}${body === '' ? '' : `: ${body}`}` };
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return { last: cause?.code ?? cause?.message ?? (error as Error).message };
  }
}

async function poll(url: string, options: ProbeOptions, done: (a: Answer) => boolean): Promise<{ reached: boolean; attempts: number; last: string; ms: number }> {
  const started = Date.now();
  const interval = options.intervalMs ?? 500;
  let attempts = 0;
  let last = 'not asked yet';
  while (options.signal?.aborted !== true) {
    attempts++;
    const remaining = options.deadlineMs - (Date.now() - started);
    const answer = await ask(url, Math.max(100, Math.min(options.requestTimeoutMs, remaining)), options.signal);
    last = answer.last;
    if (done(answer)) return { reached: true, attempts, last, ms: Date.now() - started };
    if (Date.now() - started + interval > options.deadlineMs) break;
    await sleep(interval, undefined, options.signal === undefined ? {} : { signal: options.signal }).catch(() => undefined);
  }
  return { reached: false, attempts, last, ms: Date.now() - started };
}

/** Until the URL answers 2xx. */
export async function probeHealth(url: string, options: ProbeOptions): Promise<ProbeResult> {
  const r = await poll(url, options, (a) => a.status !== undefined && a.status >= 200 && a.status < 300);
  return { healthy: r.reached, attempts: r.attempts, last: r.last, ms: r.ms };
}

/**
 * Until the URL gives no HTTP answer at all: after a stop command, any answer (even a 503 or a
 * 404) means a server still holds the port, and deploying under it would test the old one.
 */
export async function probeDown(url: string, options: ProbeOptions): Promise<{ down: boolean; attempts: number; last: string; ms: number }> {
  const r = await poll(url, options, (a) => a.status === undefined);
  return { down: r.reached, attempts: r.attempts, last: r.last, ms: r.ms };
}
