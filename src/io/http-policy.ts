import { EnvironmentError } from '../core/errors.js';
import type { HttpRequest, HttpResponse } from './http-message.js';

/**
 * The words of the HTTP policy (DESIGN §5): how a failed attempt is classified and how an answer
 * that is not the API's is reported. Kept apart from the transport so each reads on its own.
 */

/** Only scheme, host, port and path: a URL never carries a secret in relctl, but be safe. */
export function displayUrl(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    return u.toString();
  } catch {
    return url;
  }
}

/** The system or undici error code of a failed request (ECONNREFUSED, UND_ERR_SOCKET, ...). */
export function networkCode(error: unknown): string | undefined {
  const e = error as { code?: string; cause?: { code?: string } };
  return e.cause?.code ?? e.code;
}

/**
 * Failures that happen before a byte of the request leaves: nothing reached the server, so
 * nothing can have changed, whatever the method.
 */
const notSentCodes = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL', 'UND_ERR_CONNECT_TIMEOUT']);

export interface FailureFacts {
  why: string;
  code?: string;
  /** Provably never sent (refused connection, unknown host). */
  notSent: boolean;
  /** The call's deadline ran out. */
  timedOut: boolean;
  /** The answer passed the size cap. */
  tooLarge: boolean;
}

export function describeFailure(error: unknown, timeoutMs: number): FailureFacts {
  const e = error as { message?: string; timedOut?: boolean; tooLarge?: boolean };
  if (e.tooLarge === true) return { why: 'answer too large', notSent: false, timedOut: false, tooLarge: true };
  const code = networkCode(error);
  const seconds = Math.round(timeoutMs / 1000);
  if (e.timedOut === true || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
    // ETIMEDOUT: the public-repository probe reports it as "no answer within N s".
    return { why: `no complete answer within ${seconds} s (the deadline covers connecting, the headers and the whole body)`, code: 'ETIMEDOUT', notSent: false, timedOut: true, tooLarge: false };
  }
  const facts = (why: string): FailureFacts => ({
    why,
    ...(code === undefined ? {} : { code }),
    notSent: code !== undefined && (notSentCodes.has(code) || code.startsWith('ERR_TLS') || code.includes('CERT')),
    timedOut: false,
    tooLarge: false,
  });
  switch (code) {
    case 'ECONNREFUSED':
      return facts('connection refused');
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
      return facts('connection reset');
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return facts('host name not found');
    case 'UND_ERR_CONNECT_TIMEOUT':
      return facts(`could not connect within ${seconds} s`);
    default:
      return facts(code ?? e.message ?? String(error));
  }
}

function checkFix(req: HttpRequest): string {
  const setting = req.api === undefined ? 'the URL settings' : req.api.setting;
  const settle = req.settle === undefined ? '' : ` Then check what happened: ${req.settle}.`;
  return `Check ${setting} (and HTTPS_PROXY/NO_PROXY): it must point at the API itself, not a web page or a proxy's login.${settle}`;
}

/** An answer that is not what the API sends: never a success (exit 3). */
export function answerProblem(req: HttpRequest, shown: string, what: string): EnvironmentError {
  const who = req.api === undefined ? 'The server' : `The ${req.api.name}`;
  return new EnvironmentError(`${who} ${what} (${shown}).`, { kind: 'unexpected-response', fix: checkFix(req) });
}

/** A redirect on an API call is refused, naming where it pointed (the token must not follow). */
export function redirectTarget(req: HttpRequest, shown: string, res: HttpResponse): EnvironmentError {
  const raw = res.headers.location;
  const location = Array.isArray(raw) ? raw[0] : raw;
  let host: string | undefined;
  try {
    host = location === undefined ? undefined : new URL(location, req.url).host;
  } catch {
    host = undefined;
  }
  const who = req.api === undefined ? 'The server' : `The ${req.api.name}`;
  const setting = req.api?.setting ?? 'the URL setting';
  const where = host === undefined ? 'without a usable target' : `to ${host}`;
  return new EnvironmentError(
    `${who} answered HTTP ${res.status}, a redirect ${where}; relctl follows no redirects on API calls, so the token never travels to another host (${shown}).`,
    {
      kind: 'redirect-refused',
      fix: `Check ${setting}: if ${host ?? 'the target'} is really the service, point ${setting} at it; otherwise a proxy or a wrong URL is in the way.${req.settle === undefined ? '' : ` Then check what happened: ${req.settle}.`}`,
      data: host === undefined ? {} : { redirectHost: host },
    },
  );
}
