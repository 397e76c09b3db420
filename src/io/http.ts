import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Dispatcher } from 'undici';
import { EnvironmentError } from '../core/errors.js';
import { packageVersion } from './package-info.js';
import { answerProblem, describeFailure, displayUrl, redirectTarget, type FailureFacts } from './http-policy.js';
import { retryDelayMs, shouldRetryStatus } from './retry.js';
import type { HttpRequest, HttpResponse, StreamedBody } from './http-message.js';

export type { ApiTarget, HttpRequest, HttpResponse, StreamedBody } from './http-message.js';

/**
 * The one HTTP layer of relctl (portal, staging API, key servers, public repository) and its
 * policy (DESIGN §5):
 *
 * - undici is imported lazily so commands that never touch the network start fast.
 * - One deadline per call (`timeoutMs`, from --timeout) covers connecting, the headers and the
 *   whole body, retries included: a server that drips bytes cannot keep a command alive past it.
 * - Answers are capped (`maxResponseBytes`, 4 MiB): past it relctl stops reading and drops the
 *   connection, so an endless answer cannot grow memory.
 * - API calls (`api` given) follow no redirects and must answer what the API answers (JSON, or
 *   empty where the API is empty): anything else is `unexpected-response`, never a success.
 * - GETs (and calls marked idempotent) are retried on connection errors, 408, 429 (Retry-After)
 *   and 502-504 within the deadline. A request that provably never left (connection refused,
 *   host not found) may be retried whatever its method. Any other failure of a non-idempotent
 *   request is `request-ambiguous`: the caller looks before it acts again.
 */
export interface HttpOptions {
  /** Deadline of one call (all its attempts), milliseconds. */
  timeoutMs: number;
  env?: NodeJS.ProcessEnv;
  /** Bind outgoing connections to this address (tests use 127.0.0.2). */
  localAddress?: string;
  /** Extra attempts for a retryable call (default 4), all within the deadline. */
  retries?: number;
  /** Cap of one backoff pause, ms (default 8000). */
  maxBackoffMs?: number;
  /** Base of the exponential backoff, ms (default 250). */
  baseBackoffMs?: number;
  /** Largest answer body read, bytes (default 4 MiB). */
  maxResponseBytes?: number;
  /** A --verbose sink; receives method + URL only, never headers. */
  log?: (line: string) => void;
  signal?: AbortSignal;
  /** Tests may inject an undici MockAgent. */
  dispatcher?: Dispatcher;
}

/**
 * The pace a streamed upload is allowed on top of --timeout: the deadline of a request with a
 * streamed body is --timeout plus one second per MiB it sends, so a 1 GiB bundle may take 17
 * minutes more, and a stalled one still ends.
 */
export const minUploadBytesPerSecond = 1024 * 1024;

function isStreamed(body: HttpRequest['body']): body is StreamedBody {
  return typeof body === 'object' && !(body instanceof Uint8Array);
}

/** The request may or may not have reached the server (a POST/DELETE without a usable answer). */
export class AmbiguousRequestError extends EnvironmentError {
  constructor(message: string, options: { fix: string; detail?: string; data?: Record<string, unknown> }) {
    super(message, { ...options, kind: 'request-ambiguous' });
  }
}

export function userAgent(): string {
  return `relctl/${packageVersion()}`;
}

function proxyEnv(env: NodeJS.ProcessEnv): { httpProxy?: string; httpsProxy?: string; noProxy?: string } {
  const pick = (...names: string[]): string | undefined => names.map((n) => env[n]).find((v) => v !== undefined && v !== '');
  const out: { httpProxy?: string; httpsProxy?: string; noProxy?: string } = {};
  const http = pick('http_proxy', 'HTTP_PROXY');
  const https = pick('https_proxy', 'HTTPS_PROXY');
  const no = pick('no_proxy', 'NO_PROXY');
  if (http !== undefined) out.httpProxy = http;
  if (https !== undefined) out.httpsProxy = https;
  if (no !== undefined) out.noProxy = no;
  return out;
}

export const defaultMaxResponseBytes = 4 * 1024 * 1024;
/** A retry is only worth starting with at least this much of the deadline left. */
const minAttemptMs = 200;

class TooLarge extends Error {}

export class HttpClient {
  private dispatcher: Dispatcher | undefined;

  constructor(private readonly options: HttpOptions) {}

  private async getDispatcher(): Promise<Dispatcher> {
    if (this.options.dispatcher !== undefined) return this.options.dispatcher;
    if (this.dispatcher === undefined) {
      const undici = await import('undici');
      const proxies = proxyEnv(this.options.env ?? {});
      const base = {
        connect: { timeout: this.options.timeoutMs },
        ...(this.options.localAddress === undefined ? {} : { localAddress: this.options.localAddress }),
      };
      this.dispatcher =
        proxies.httpProxy !== undefined || proxies.httpsProxy !== undefined
          ? new undici.EnvHttpProxyAgent({ ...base, ...proxies })
          : new undici.Agent(base);
    }
    return this.dispatcher;
  }

  async close(): Promise<void> {
    if (this.dispatcher !== undefined) await this.dispatcher.close().catch(() => undefined);
    this.dispatcher = undefined;
  }

  async request(req: HttpRequest): Promise<HttpResponse> {
    const safe = req.method === 'GET' || req.method === 'HEAD' || req.idempotent === true;
    const retries = this.options.retries ?? 4;
    const shown = `${req.method} ${displayUrl(req.url)}`;
    const budgetMs = this.options.timeoutMs + (isStreamed(req.body) ? Math.ceil((req.body.length / minUploadBytesPerSecond) * 1000) : 0);
    const deadline = Date.now() + budgetMs;
    for (let attempt = 0; ; attempt++) {
      this.options.log?.(attempt === 0 ? shown : `${shown} (retry ${attempt} of ${retries})`);
      let response: HttpResponse;
      try {
        response = await this.once(req, Math.max(1, deadline - Date.now()));
      } catch (error) {
        if (this.options.signal?.aborted === true) throw error;
        const facts: FailureFacts = describeFailure(error, budgetMs);
        const pause = retryDelayMs(attempt, undefined, this.backoff());
        if ((safe || facts.notSent) && !facts.timedOut && !facts.tooLarge && attempt < retries && this.fits(deadline, pause)) {
          this.options.log?.(`${shown}: ${facts.why}`);
          await sleep(pause, undefined, { signal: this.options.signal });
          continue;
        }
        throw this.failure(req, shown, facts, attempt);
      }
      if (shouldRetryStatus(response.status) && (safe || response.status === 429) && attempt < retries) {
        const retryAfter = response.headers['retry-after'];
        const pause = retryDelayMs(attempt, typeof retryAfter === 'string' ? retryAfter : undefined, this.backoff());
        if (this.fits(deadline, pause)) {
          this.options.log?.(`${shown}: HTTP ${response.status}`);
          await sleep(pause, undefined, { signal: this.options.signal });
          continue;
        }
      }
      if (req.api !== undefined) this.checkAnswer(req, response);
      return response;
    }
  }

  /** Whether a pause and one more useful attempt still fit before the deadline. */
  private fits(deadline: number, pauseMs: number): boolean {
    return Date.now() + pauseMs + minAttemptMs <= deadline;
  }

  private failure(req: HttpRequest, shown: string, facts: FailureFacts, attempt: number): Error {
    const safe = req.method === 'GET' || req.method === 'HEAD' || req.idempotent === true;
    if (facts.tooLarge) return answerProblem(req, shown, `sent more than ${sizeText(this.maxBytes(req))}; relctl stopped reading and closed the connection`);
    if (!safe && !facts.notSent) {
      // The request left; the server may have acted on it before the answer was lost.
      return new AmbiguousRequestError(`${shown}: ${facts.why}; the request had left, so the server may or may not have acted on it.`, {
        fix:
          req.settle === undefined
            ? 'Check the state first (relctl search / relctl status), then repeat only what did not happen.'
            : `Check what happened first: ${req.settle}; then repeat only what did not happen.`,
      });
    }
    const tries = attempt > 0 ? ` (after ${attempt + 1} attempts)` : '';
    const nothing = !safe ? ' Nothing was sent, so nothing changed.' : '';
    const error = new EnvironmentError(`${shown} failed: ${facts.why}${tries}.${nothing}`, {
      kind: facts.timedOut ? 'timeout' : 'network',
      fix: facts.timedOut
        ? `The server is too slow or stalls: try again later, raise --timeout (now ${Math.round(this.options.timeoutMs / 1000)} s) if the network is slow, or check the URL settings and any proxy.`
        : 'Check the network, the URL settings (--staging-api-url, --portal-url, --keyserver-url) and any HTTPS_PROXY/NO_PROXY, then run the command again.',
    });
    // The raw code, for callers that report it (the public-repository probe's "unknown" reason).
    return Object.assign(error, { networkCode: facts.code });
  }

  private maxBytes(req: HttpRequest): number {
    return req.maxResponseBytes ?? this.options.maxResponseBytes ?? defaultMaxResponseBytes;
  }

  /** API answers: no redirect, and a 2xx is what the API sends (checked before any caller trusts it). */
  private checkAnswer(req: HttpRequest, res: HttpResponse): void {
    const shown = `${req.method} ${displayUrl(req.url)}`;
    if (res.status >= 300 && res.status < 400) throw redirectTarget(req, shown, res);
    if (res.status < 200 || res.status > 299) return;
    const empty = res.body.length === 0 || res.text().trim() === '';
    if (empty) {
      if (req.expect === 'json-or-empty') return;
      throw answerProblem(req, shown, `answered HTTP ${res.status} with an empty body where the API answers JSON`);
    }
    const type = res.contentType;
    // The upload's answer is not documented (empty in Sonatype's prototype; some clients find a bare UUID in it).
    if (req.expect === 'json-or-empty' && type === 'text/plain' && /^[0-9a-f-]{36}$/i.test(res.text().trim())) return;
    if (type === 'text/html' || type === 'application/xhtml+xml' || /^\s*<(!doctype|html)/i.test(res.text().slice(0, 200))) {
      throw answerProblem(req, shown, `answered HTTP ${res.status} with an HTML page (${type || 'no content type'}), not the API's JSON: the URL points at a web page, a login page or a proxy`);
    }
    if (type !== '' && type !== 'application/json' && !type.endsWith('+json')) {
      throw answerProblem(req, shown, `answered HTTP ${res.status} with Content-Type ${type} where the API answers application/json`);
    }
    if (res.json() === undefined) throw answerProblem(req, shown, `answered HTTP ${res.status} with a body that is not JSON`);
  }

  private backoff(): { baseMs: number; capMs: number } {
    return { baseMs: this.options.baseBackoffMs ?? 250, capMs: this.options.maxBackoffMs ?? 8000 };
  }

  private async once(req: HttpRequest, timeoutMs: number): Promise<HttpResponse> {
    const dispatcher = await this.getDispatcher();
    const { request } = await import('undici');
    const expiry = AbortSignal.timeout(timeoutMs);
    const signal = this.options.signal === undefined ? expiry : AbortSignal.any([this.options.signal, expiry]);
    const cap = this.maxBytes(req);
    try {
      const streamed = isStreamed(req.body) ? req.body : undefined;
      const res = await request(req.url, {
        method: req.method,
        headers: { 'user-agent': userAgent(), ...req.headers, ...(streamed === undefined ? {} : { 'content-length': String(streamed.length) }) },
        body: streamed === undefined ? (req.body as string | Uint8Array | undefined) : Readable.from(streamed.open(), { objectMode: false }),
        dispatcher,
        signal,
      });
      const declared = Number(res.headers['content-length']);
      const chunks: Buffer[] = [];
      let size = 0;
      if (Number.isFinite(declared) && declared > cap) {
        res.body.destroy();
        throw new TooLarge();
      }
      for await (const chunk of res.body as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > cap) {
          // Stop reading and drop the connection: an endless answer must not grow memory.
          res.body.destroy();
          throw new TooLarge();
        }
        chunks.push(chunk);
      }
      const body = new Uint8Array(Buffer.concat(chunks));
      const text = (): string => Buffer.from(body).toString('utf8');
      const rawType = res.headers['content-type'];
      return {
        status: res.statusCode,
        headers: res.headers,
        body,
        text,
        contentType: (Array.isArray(rawType) ? rawType[0] ?? '' : rawType ?? '').split(';')[0]!.trim().toLowerCase(),
        json: () => {
          try {
            return JSON.parse(text()) as unknown;
          } catch {
            return undefined;
          }
        },
      };
    } catch (error) {
      if (error instanceof TooLarge) throw Object.assign(new Error('answer too large'), { tooLarge: true });
      if (expiry.aborted && this.options.signal?.aborted !== true) throw Object.assign(new Error('deadline'), { timedOut: true });
      throw error;
    }
  }
}

function sizeText(bytes: number): string {
  const mib = 1024 * 1024;
  return bytes % mib === 0 ? `${bytes / mib} MiB` : `${bytes} bytes`;
}
