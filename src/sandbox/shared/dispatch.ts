import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Faults } from './faults.js';
import { HttpError, sendError, type Route } from './http.js';

/** Services by the first path segment: `/staging/...` → mounts.staging. */
export type MountTable = ReadonlyMap<string, Route>;

export interface DispatchOptions {
  mounts: MountTable;
  faults: Faults;
  /** Mounts the fault injector never touches (the control service itself). */
  faultFree: ReadonlySet<string>;
  /** The origins a browser may send state-changing requests from (the sandbox's own). */
  ownOrigins: () => readonly string[];
  log?: ((line: string) => void) | undefined;
}

/** Splits `/mount/rest?query` without decoding (the handlers decode segment by segment). */
function splitUrl(raw: string): { mount: string; rest: string; query: URLSearchParams; search: string } {
  const q = raw.indexOf('?');
  const pathname = q < 0 ? raw : raw.slice(0, q);
  if (!pathname.startsWith('/')) throw new HttpError(400, { error: 'Bad request target' });
  const slash = pathname.indexOf('/', 1);
  return {
    mount: slash < 0 ? pathname.slice(1) : pathname.slice(1, slash),
    rest: slash < 0 ? '' : pathname.slice(slash),
    query: new URLSearchParams(q < 0 ? '' : raw.slice(q + 1)),
    search: q < 0 ? '' : raw.slice(q),
  };
}

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A web page the developer visits can send requests to 127.0.0.1 (a form post, a fetch with
 * no-cors). Browsers name the page's origin in `Origin`; anything that changes state and comes
 * from another origin is refused before it is routed. No CORS header is ever sent, so such a page
 * cannot read any answer either.
 */
function refuseForeignOrigin(req: IncomingMessage, own: readonly string[]): void {
  const origin = req.headers.origin;
  if (origin === undefined || safeMethods.has(req.method ?? 'GET')) return;
  if (!own.includes(origin)) throw new HttpError(403, { error: `Cross-origin request refused: ${origin} is not this sandbox.` });
}

async function route(options: DispatchOptions, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const raw = req.url ?? '/';
  const { mount, rest, query, search } = splitUrl(raw);
  refuseForeignOrigin(req, options.ownOrigins());
  if (!options.faultFree.has(mount)) {
    const fault = options.faults.take(raw, req.method ?? 'GET');
    if (fault !== undefined && fault.delayMs > 0) await sleep(fault.delayMs);
    if (fault?.kind === 'reset') {
      req.socket.destroy();
      return;
    }
    if (fault?.kind === 'answer') throw fault.error;
    if (fault?.kind === 'drop-answer') dropAnswer(req, res);
  }
  const handler = options.mounts.get(mount);
  if (handler === undefined) throw new HttpError(404, { error: `Not found: ${raw.split('?')[0]}` });
  await handler(req, res, rest, query, search);
}

/** The handler runs to the end (its change is made), but the client never hears the answer. */
function dropAnswer(req: IncomingMessage, res: ServerResponse): void {
  const hangUp = (): ServerResponse => {
    req.socket.destroy();
    return res;
  };
  res.writeHead = hangUp as unknown as ServerResponse['writeHead'];
  res.write = (() => (hangUp(), false)) as unknown as ServerResponse['write'];
  res.end = hangUp as unknown as ServerResponse['end'];
}

/** A body read that failed because the client hung up (not a fault of the sandbox). */
function clientWentAway(req: IncomingMessage, error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  // (req.destroyed says nothing: a request is destroyed once its body has been read.)
  return req.socket.destroyed || code === 'ECONNRESET' || code === 'ECONNABORTED' || (error instanceof Error && error.message === 'aborted');
}

/**
 * The request listener: routes, and turns every outcome into one answer. A client that hangs up
 * mid-request is one log line; an unexpected error is logged once with its stack and a request
 * id the client also receives.
 */
export function dispatcher(options: DispatchOptions): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    // A client that hangs up mid-request must not take the server down with an unhandled 'error'.
    req.on('error', () => undefined);
    res.on('error', () => undefined);
    route(options, req, res).catch((error: unknown) => {
      const where = `${req.method ?? '?'} ${(req.url ?? '/').split('?')[0]}`;
      let answer: HttpError;
      if (error instanceof HttpError) answer = error;
      else if (clientWentAway(req, error)) {
        options.log?.(`sandbox: ${where}: client went away`);
        res.destroy();
        return;
      } else {
        const requestId = randomBytes(6).toString('hex');
        const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
        options.log?.(`sandbox: internal error (request id ${requestId}) on ${where}: ${detail}`);
        answer = new HttpError(500, { error: `Internal sandbox error (request id ${requestId})`, requestId }, { 'x-request-id': requestId });
      }
      // A refused request whose body was never read cannot share the connection any more.
      const headers = req.complete ? answer.headers : { ...answer.headers, connection: 'close' };
      sendError(res, new HttpError(answer.status, answer.body, headers));
    });
  };
}
