import type { ServerResponse } from 'node:http';

/** Responses of the key servers: explicit lengths, no keep-alive surprises for tests. */
function send(res: ServerResponse, status: number, contentType: string, body: string, headers: Record<string, string> = {}): void {
  const bytes = Buffer.from(body);
  res.writeHead(status, { 'content-type': contentType, 'content-length': String(bytes.length), ...headers });
  res.end(bytes);
}

export const sendPlain = (res: ServerResponse, status: number, text: string, headers?: Record<string, string>): void =>
  send(res, status, 'text/plain; charset=utf-8', text.endsWith('\n') ? text : `${text}\n`, headers);

export const sendJsonBody = (res: ServerResponse, status: number, value: unknown): void => send(res, status, 'application/json', JSON.stringify(value));

export const sendHtml = (res: ServerResponse, status: number, html: string): void => send(res, status, 'text/html; charset=utf-8', html);

/**
 * keys.openpgp.org answers key lookups with this type. It also allows any origin to read them
 * (CORS `*`); the sandbox sends no CORS header at all (DESIGN §8): no relctl client is a browser,
 * and a sandbox on a developer's machine offers web pages nothing.
 */
export const sendKey = (res: ServerResponse, armored: string): void => send(res, 200, 'application/pgp-keys', armored);

export function methodNotAllowed(res: ServerResponse, allowed: string): void {
  sendPlain(res, 405, `Method not allowed here; use ${allowed}.`, { allow: allowed });
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The URL below the mount point: a path and its query (the subpath may carry `?…`). */
export function parseSubpath(subpath: string): URL {
  const path = subpath === '' ? '/' : subpath.startsWith('/') ? subpath : `/${subpath}`;
  return new URL(path, 'http://keyserver.invalid');
}

/** JSON body or undefined (the caller answers 400). */
export function parseJsonBody(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
}

export function formField(body: Buffer, name: string): string | undefined {
  return new URLSearchParams(body.toString('utf8')).get(name) ?? undefined;
}
