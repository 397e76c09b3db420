import type { IncomingMessage, ServerResponse } from 'node:http';

/** Bodies above this size are refused with 413 (no real artifact of a test comes close). */
export const maxBodyBytes = 64 * 1024 * 1024;

/** An answer decided deep inside a handler; the router turns it into a response. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown = '',
    readonly headers: Record<string, string> = {},
  ) {
    super(`HTTP ${status}`);
  }
}

/** The portal's error body: `{"error":"Failed to process request: ..."}` with 400. */
export function portalError(text: string, status = 400, extra: Record<string, unknown> = {}): HttpError {
  return new HttpError(status, { error: `Failed to process request: ${text}`, ...extra });
}

export function sendJson(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  const body = Buffer.from(JSON.stringify(value));
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(body.length), ...headers });
  res.end(body);
}

export function sendText(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  const body = Buffer.from(text);
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': String(body.length), ...headers });
  res.end(body);
}

export function sendEmpty(res: ServerResponse, status: number, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-length': '0', ...headers });
  res.end();
}

export function sendError(res: ServerResponse, error: HttpError): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  if (error.body === '' || error.body === undefined) sendEmpty(res, error.status, error.headers);
  else if (typeof error.body === 'string') sendText(res, error.status, error.body, error.headers);
  else sendJson(res, error.status, error.body, error.headers);
}

/** Reads the whole body, refusing more than `limit` bytes (413) whatever Content-Length says. */
export async function readBody(req: IncomingMessage, limit = maxBodyBytes): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? '0');
  if (Number.isFinite(declared) && declared > limit) throw new HttpError(413, { error: 'Request body too large' });
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new HttpError(413, { error: 'Request body too large' });
    chunks.push(chunk);
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
}

export function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    throw new HttpError(400, { error: 'Failed to process request: the body is not valid JSON' });
  }
}

/** The client's address as the service sees it (IPv4-mapped IPv6 written as plain IPv4). */
export function sourceAddress(req: IncomingMessage): string {
  const address = req.socket.remoteAddress ?? 'unknown';
  return address.startsWith('::ffff:') ? address.slice(7) : address;
}

export interface Credentials {
  name: string;
  password: string;
}

/**
 * Decodes `Basic|Bearer|UserToken base64(user:password)`. Anything malformed yields undefined, so
 * the caller answers 401 exactly as for a missing header.
 */
export function parseAuthorization(header: string | undefined, schemes: readonly string[]): Credentials | undefined {
  if (header === undefined) return undefined;
  const match = /^(\S+) +([A-Za-z0-9+/=_-]+)\s*$/.exec(header);
  if (match === null) return undefined;
  if (!schemes.some((s) => s.toLowerCase() === match[1]!.toLowerCase())) return undefined;
  const decoded = Buffer.from(match[2]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return undefined;
  return { name: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/**
 * Splits a request path below a mount point into decoded segments, refusing anything that
 * could name a file outside the store: `.`/`..` (also percent-encoded), empty segments,
 * separators or NUL inside a segment, and undecodable escapes.
 */
export function safeSegments(rawPath: string): string[] {
  const parts = rawPath.split('/').filter((p, i, all) => !(p === '' && (i === 0 || i === all.length - 1)));
  if (parts.length === 0) throw new HttpError(400, { error: 'Failed to process request: empty path' });
  return parts.map((part) => {
    let seg: string;
    try {
      seg = decodeURIComponent(part);
    } catch {
      throw new HttpError(400, { error: 'Failed to process request: malformed path' });
    }
    if (seg === '' || seg === '.' || seg === '..' || /[/\\\0]/.test(seg) || seg.length > 255) {
      throw new HttpError(400, { error: `Failed to process request: invalid path segment` });
    }
    return seg;
  });
}

/**
 * Answers `Expect: 100-continue` (the server listens to 'checkContinue', so Node leaves it to
 * us) and reads the body. Called only once the request passed the checks that need no body, so
 * a refused upload never sends its bytes.
 */
export async function continueAndRead(req: IncomingMessage, res: ServerResponse, limit = maxBodyBytes): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? '0');
  if (Number.isFinite(declared) && declared > limit) throw new HttpError(413, { error: 'Request body too large' });
  if (/100-continue/i.test(String(req.headers.expect ?? ''))) res.writeContinue();
  return readBody(req, limit);
}

/**
 * A service's request handler, mounted under `/<name>` by server.ts: `rest` is the path below
 * the mount (undecoded), `search` the raw `?query` (or '').
 */
export type Route = (req: IncomingMessage, res: ServerResponse, rest: string, query: URLSearchParams, search: string) => Promise<void>;
