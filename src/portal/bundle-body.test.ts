import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir, type TempDir } from '../../test/helpers/temp.js';
import { bundleFormBody } from './bundle-body.js';
import { PortalClient } from './client.js';
import { HttpClient } from '../io/http.js';

let dir: TempDir;
beforeAll(async () => {
  dir = await tempDir();
});
afterAll(async () => {
  await dir?.[Symbol.asyncDispose]();
});

/** A Publisher API stand-in that keeps what it received and answers a deployment id. */
async function receiver(): Promise<{ url: string; got: { headers: http.IncomingHttpHeaders; body: Buffer }[]; close(): Promise<void> }> {
  const got: { headers: http.IncomingHttpHeaders; body: Buffer }[] = [];
  const s = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (d: Buffer) => parts.push(d));
    req.on('end', () => {
      got.push({ headers: req.headers, body: Buffer.concat(parts) });
      res.writeHead(201, { 'content-type': 'text/plain' });
      res.end('11111111-2222-3333-4444-555555555555');
    });
  });
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(s.address() as AddressInfo).port}`, got, close: () => new Promise((resolve) => s.close(() => resolve())) };
}

describe('the bundle upload body', () => {
  it('streams the zip from disk as the multipart part "bundle" with a Content-Length, never chunked, and a new stream per request', async () => {
    const file = path.join(dir.path, 'central-bundle.zip');
    const content = randomBytes(3 * 1024 * 1024 + 5);
    await writeFile(file, content);
    const sent: number[] = [];
    const form = await bundleFormBody(file, (n) => sent.push(n));
    const server = await receiver();
    const http = new HttpClient({ timeoutMs: 5000 });
    try {
      const portal = new PortalClient(http, { stagingApiUrl: server.url, portalUrl: server.url }, { username: 'u', password: 'p', source: 'test' });
      for (let i = 0; i < 2; i++) {
        expect(await portal.uploadBundle(form, { name: 'demo-1.0.0', publishingType: 'USER_MANAGED' })).toEqual({ deploymentId: '11111111-2222-3333-4444-555555555555' });
      }
      for (const { headers, body } of server.got) {
        expect(headers['transfer-encoding']).toBeUndefined();
        expect(Number(headers['content-length'])).toBe(body.length);
        expect(body.length).toBe(form.body.length);
        const parsed = await new Response(body, { headers: { 'content-type': headers['content-type']! } }).formData();
        const bundle = parsed.get('bundle') as File;
        expect(bundle.name).toBe('central-bundle.zip');
        expect(Buffer.from(await bundle.arrayBuffer()).equals(content)).toBe(true);
      }
      // Each request read the file anew from its start, up to its whole size.
      expect(sent.filter((n) => n === 0)).toHaveLength(2);
      expect(sent.at(-1)).toBe(content.length);
    } finally {
      await http.close();
      await server.close();
    }
  });
});
