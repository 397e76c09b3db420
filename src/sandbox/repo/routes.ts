import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError, safeSegments, type Route } from '../shared/http.js';
import type { PublicStore } from './public-store.js';

// A null-prototype table: a file named x.constructor or x.__proto__ is just an unknown type.
const contentTypes: Record<string, string> = Object.assign(Object.create(null) as Record<string, string>, {
  pom: 'application/xml',
  xml: 'application/xml',
  jar: 'application/java-archive',
  war: 'application/java-archive',
  asc: 'text/plain',
  md5: 'text/plain',
  sha1: 'text/plain',
  sha256: 'text/plain',
  sha512: 'text/plain',
});

/** `/repo/<maven path>`: the public repository (published files over the seed folder). */
export function repoRoutes(store: PublicStore): Route {
  return async (req: IncomingMessage, res: ServerResponse, rest: string): Promise<void> => {
    const method = req.method ?? 'GET';
    if (method !== 'GET' && method !== 'HEAD') throw new HttpError(405, '', { allow: 'GET, HEAD' });
    const segments = safeSegments(rest);
    const found = await store.locate(segments);
    if (found === undefined) throw new HttpError(404, '');
    const ext = segments[segments.length - 1]!.split('.').pop() ?? '';
    res.writeHead(200, { 'content-type': contentTypes[ext] ?? 'application/octet-stream', 'content-length': String(found.size) });
    if (method === 'HEAD') return void res.end();
    // Streamed from disk: a published war or distribution is never held in memory whole.
    await pipeline(createReadStream(found.file), res);
  };
}
