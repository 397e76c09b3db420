import { HttpError } from './http.js';

/**
 * Fault injection for tests: for a path prefix, the next `count` requests get a status, a
 * connection reset, a delay (then the normal answer), 429 with Retry-After, or a lost answer
 * (`dropAnswer`: the request is carried out, then the connection is closed instead of answering,
 * the worst case of an upload whose answer never arrives).
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
}

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
    if (typeof f.prefix !== 'string' || !f.prefix.startsWith('/')) throw badFault('prefix must be a path starting with /');
    const fault: Fault = { prefix: f.prefix, count: num('count', 1, 1_000_000) ?? 1 };
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

  /** Takes one use of the first fault matching the request, if any. */
  take(pathname: string, method: string): FaultAction | undefined {
    const fault = this.list.find((f) => pathname.startsWith(f.prefix) && (f.method === undefined || f.method === method));
    if (fault === undefined) return undefined;
    fault.count -= 1;
    if (fault.count <= 0) this.list = this.list.filter((f) => f !== fault);
    const delayMs = fault.delayMs ?? 0;
    if (fault.reset === true) return { kind: 'reset', delayMs };
    if (fault.dropAnswer === true) return { kind: 'drop-answer', delayMs };
    if (fault.status === undefined) return { kind: 'delay', delayMs };
    const headers: Record<string, string> = fault.retryAfter === undefined ? {} : { 'retry-after': String(fault.retryAfter) };
    return { kind: 'answer', delayMs, error: new HttpError(fault.status, fault.body ?? '', headers) };
  }
}
