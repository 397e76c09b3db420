import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Dispatcher } from 'undici';
import { EnvironmentError } from '../core/errors.js';
import { retryDelayMs, shouldRetryStatus } from './retry.js';

/**
 * The one HTTP layer of relctl (portal, staging API, key servers, public repository).
 *
 * - undici is imported lazily so commands that never touch the network start fast.
 * - Every request has a timeout (headers and body).
 * - GETs (and HEADs) are retried on connection errors, 408, 429 (Retry-After) and 502-504 with capped
 *   backoff. Other methods are never repeated: a failure without an answer is reported as
 *   ambiguous (AmbiguousRequestError) so the caller can look before it acts again.
 */
export interface HttpOptions {
  /** Per request, milliseconds. */
  timeoutMs: number;
  env?: NodeJS.ProcessEnv;
  /** Bind outgoing connections to this address (tests use 127.0.0.2). */
  localAddress?: string;
  /** Extra attempts for a GET (default 4). */
  retries?: number;
  /** Cap of one backoff pause, ms (default 8000). */
  maxBackoffMs?: number;
  /** Base of the exponential backoff, ms (default 250). */
  baseBackoffMs?: number;
  /** A --verbose sink; receives method + URL only, never headers. */
  log?: (line: string) => void;
  signal?: AbortSignal;
  /** Tests may inject an undici MockAgent. */
  dispatcher?: Dispatcher;
}

export interface HttpRequest {
  method: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Uint8Array;
  text(): string;
  /** Tolerant JSON: undefined when the body is not JSON. */
  json(): unknown;
}

/** The request may or may not have reached the server (POST/DELETE without an answer). */
export class AmbiguousRequestError extends EnvironmentError {
  constructor(message: string, options: { fix: string; detail?: string; data?: Record<string, unknown> }) {
    super(message, { ...options, kind: 'request-ambiguous' });
  }
}

let cachedVersion: string | undefined;
export function userAgent(): string {
  if (cachedVersion === undefined) {
    try {
      const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string };
      cachedVersion = pkg.version ?? '0.0.0';
    } catch {
      cachedVersion = '0.0.0';
    }
  }
  return `relctl/${cachedVersion}`;
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

/** Only scheme, host, port and path: a URL never carries a secret in relctl, but be safe. */
function displayUrl(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    return u.toString();
  } catch {
    return url;
  }
}

/** The system or undici error code of a failed request (ECONNREFUSED, UND_ERR_HEADERS_TIMEOUT, ...). */
function networkCode(error: unknown): string | undefined {
  const e = error as { code?: string; cause?: { code?: string } };
  return e.cause?.code ?? e.code;
}

function describeNetworkError(error: unknown): string {
  const e = error as { message?: string };
  const code = networkCode(error);
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
      return 'connection reset';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'host name not found';
    case 'UND_ERR_HEADERS_TIMEOUT':
    case 'UND_ERR_BODY_TIMEOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
      return 'timed out';
    default:
      return code ?? e.message ?? String(error);
  }
}

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
    const safe = req.method === 'GET' || req.method === 'HEAD';
    const retries = safe ? (this.options.retries ?? 4) : 0;
    const shown = `${req.method} ${displayUrl(req.url)}`;
    for (let attempt = 0; ; attempt++) {
      this.options.log?.(attempt === 0 ? shown : `${shown} (retry ${attempt} of ${retries})`);
      let response: HttpResponse;
      try {
        response = await this.once(req);
      } catch (error) {
        if (this.options.signal?.aborted === true) throw error;
        const why = describeNetworkError(error);
        if (attempt < retries) {
          this.options.log?.(`${shown}: ${why}`);
          await sleep(retryDelayMs(attempt, undefined, this.backoff()), undefined, { signal: this.options.signal });
          continue;
        }
        if (!safe) {
          throw new AmbiguousRequestError(`${shown} got no answer (${why}); the server may or may not have acted on it.`, {
            fix: 'Check the state first (relctl search / relctl status), then repeat only what did not happen.',
          });
        }
        throw new EnvironmentError(`${shown} failed: ${why}${attempt > 0 ? ` (after ${attempt + 1} attempts)` : ''}.`, {
          kind: 'network',
          // The raw code, for callers that report it (the public-repository probe's "unknown" reason).
          ...(networkCode(error) === undefined ? {} : { data: { code: networkCode(error) } }),
          fix: 'Check the network, the URL settings (--staging-api-url, --portal-url, --keyserver-url) and any HTTPS_PROXY/NO_PROXY, then run the command again.',
        });
      }
      if (attempt < retries && shouldRetryStatus(response.status)) {
        const retryAfter = response.headers['retry-after'];
        this.options.log?.(`${shown}: HTTP ${response.status}`);
        await sleep(retryDelayMs(attempt, typeof retryAfter === 'string' ? retryAfter : undefined, this.backoff()), undefined, {
          signal: this.options.signal,
        });
        continue;
      }
      return response;
    }
  }

  private backoff(): { baseMs: number; capMs: number } {
    return { baseMs: this.options.baseBackoffMs ?? 250, capMs: this.options.maxBackoffMs ?? 8000 };
  }

  private async once(req: HttpRequest): Promise<HttpResponse> {
    const dispatcher = await this.getDispatcher();
    const { request } = await import('undici');
    const res = await request(req.url, {
      method: req.method,
      headers: { 'user-agent': userAgent(), ...req.headers },
      body: req.body,
      dispatcher,
      headersTimeout: this.options.timeoutMs,
      bodyTimeout: this.options.timeoutMs,
      ...(this.options.signal === undefined ? {} : { signal: this.options.signal }),
    });
    const body = new Uint8Array(await res.body.arrayBuffer());
    const text = (): string => Buffer.from(body).toString('utf8');
    return {
      status: res.statusCode,
      headers: res.headers,
      body,
      text,
      json: () => {
        try {
          return JSON.parse(text()) as unknown;
        } catch {
          return undefined;
        }
      },
    };
  }
}
