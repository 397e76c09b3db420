import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { PortalClient } from '../portal/client.js';
import { HttpClient } from './http.js';
import { KeyServers } from '../portal/keyservers.js';

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  from: string;
}

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
});

/** A scripted loopback server: answers are taken in order, the last one repeats. */
async function server(answers: { status: number; body?: string; headers?: Record<string, string> }[]): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  let i = 0;
  const s = http.createServer((req, res) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, from: (req.socket.remoteAddress ?? '').replace(/^::ffff:/, '') });
    const a = answers[Math.min(i++, answers.length - 1)]!;
    res.writeHead(a.status, a.headers ?? {});
    res.end(a.body ?? '');
  });
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => s.close(() => resolve())));
  return { url: `http://127.0.0.1:${(s.address() as AddressInfo).port}`, seen };
}

const token = { username: 'tu', password: 'tp', source: 'test' };
const fast = { timeoutMs: 2000, baseBackoffMs: 5, maxBackoffMs: 20 };

describe('HttpClient and PortalClient', () => {
  it('sends the user agent and the Bearer header to the portal, and no Authorization to key servers', async () => {
    const srv = await server([{ status: 200, body: '{"repositories":[],"future":1}' }]);
    const client = new HttpClient(fast);
    await new PortalClient(client, { stagingApiUrl: srv.url, portalUrl: srv.url }, token).search({ namespace: 'g', ip: 'any' });
    await new KeyServers(client, { keyserverUrl: srv.url, secondaryKeyserverUrl: srv.url }).primaryByFingerprint('ab'.repeat(20));
    await client.close();
    expect(srv.seen[0]!.headers['user-agent']).toMatch(/^relctl\/\d+\.\d+\.\d+/);
    expect(srv.seen[0]!.headers.authorization).toBe(`Bearer ${Buffer.from('tu:tp').toString('base64')}`);
    expect(srv.seen[0]!.url).toBe('/manual/search/repositories?ip=any&profile_id=g');
    expect(srv.seen[1]!.headers.authorization).toBeUndefined();
    expect(srv.seen[1]!.url).toBe(`/vks/v1/by-fingerprint/${'AB'.repeat(20)}`);
  });

  it('retries a GET through 503 and 429, but sends a POST once', async () => {
    const srv = await server([{ status: 503 }, { status: 429, headers: { 'retry-after': '0' } }, { status: 200, body: '{"repositories":[]}' }]);
    const client = new HttpClient(fast);
    const portal = new PortalClient(client, { stagingApiUrl: srv.url, portalUrl: srv.url }, token);
    await expect(portal.search({ namespace: 'g', ip: 'any' })).resolves.toEqual([]);
    expect(srv.seen).toHaveLength(3);
    const post = await server([{ status: 503 }]);
    const p2 = new PortalClient(client, { stagingApiUrl: post.url, portalUrl: post.url }, token);
    await expect(p2.upload('g', 'user_managed')).rejects.toMatchObject({ kind: 'portal-unavailable', exitCode: 3 });
    expect(post.seen).toHaveLength(1);
    await client.close();
  });

  it('binds to the requested local address (the source address the staging API matches)', async () => {
    const srv = await server([{ status: 404 }]);
    const client = new HttpClient({ ...fast, localAddress: '127.0.0.2' });
    await client.request({ method: 'GET', url: `${srv.url}/x` });
    await client.close();
    expect(srv.seen[0]!.from).toBe('127.0.0.2');
  });

  it('goes through HTTP_PROXY, and around it for NO_PROXY hosts', async () => {
    const target = await server([{ status: 200, body: 'ok' }]);
    const tunnels: string[] = [];
    const proxy = http.createServer((_req, res) => res.end());
    proxy.on('connect', (req: http.IncomingMessage, socket: net.Socket, head: Buffer) => {
      tunnels.push(req.url ?? '');
      const [host, port] = (req.url ?? '').split(':');
      const up = net.connect(Number(port), host, () => {
        socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        up.write(head);
        up.pipe(socket);
        socket.pipe(up);
      });
      up.on('error', () => socket.destroy());
      socket.on('error', () => up.destroy());
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise((resolve) => proxy.close(() => resolve())));
    const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    const via = new HttpClient({ ...fast, env: { HTTP_PROXY: proxyUrl } });
    expect((await via.request({ method: 'GET', url: `${target.url}/a` })).text()).toBe('ok');
    await via.close();
    expect(tunnels).toHaveLength(1);
    const around = new HttpClient({ ...fast, env: { HTTP_PROXY: proxyUrl, NO_PROXY: '127.0.0.1' } });
    await around.request({ method: 'GET', url: `${target.url}/b` });
    await around.close();
    expect(tunnels).toHaveLength(1);
  });

  it('applies the API policy: JSON where the API answers JSON, empty only where it may be, a size cap before reading', async () => {
    const api = { name: 'staging API', setting: '--staging-api-url' };
    const srv = await server([
      { status: 200, body: '' },
      { status: 200, body: '' },
      { status: 200, body: 'x'.repeat(5000), headers: { 'content-type': 'application/json' } },
      { status: 200, body: '{"a":1}', headers: { 'content-type': 'application/problem+json' } },
    ]);
    const client = new HttpClient({ ...fast, maxResponseBytes: 1000 });
    await expect(client.request({ method: 'POST', url: `${srv.url}/p`, api, expect: 'json-or-empty' })).resolves.toMatchObject({ status: 200 });
    await expect(client.request({ method: 'GET', url: `${srv.url}/g`, api })).rejects.toMatchObject({ kind: 'unexpected-response', exitCode: 3 });
    await expect(client.request({ method: 'GET', url: `${srv.url}/big` })).rejects.toMatchObject({ kind: 'unexpected-response', message: expect.stringContaining('more than 1000 bytes') });
    await expect(client.request({ method: 'GET', url: `${srv.url}/j`, api })).resolves.toMatchObject({ status: 200 });
    await client.close();
  });

  it('retries a read-only POST like a GET; a POST refused at connect says nothing was sent, never "may or may not"', async () => {
    const srv = await server([{ status: 503 }, { status: 200, body: '{}' }]);
    const client = new HttpClient(fast);
    await expect(client.request({ method: 'POST', url: `${srv.url}/status`, idempotent: true })).resolves.toMatchObject({ status: 200 });
    expect(srv.seen).toHaveLength(2);
    const gone = await server([{ status: 200 }]);
    await closers.pop()!();
    const refused = client.request({ method: 'DELETE', url: `${gone.url}/x` });
    await expect(refused).rejects.toMatchObject({ kind: 'network', message: expect.stringContaining('Nothing was sent') });
    await expect(refused).rejects.not.toMatchObject({ message: expect.stringContaining('may or may not') });
    await client.close();
  });
});
