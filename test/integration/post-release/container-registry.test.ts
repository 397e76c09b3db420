import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EnvironmentError } from '../../../src/core/errors.js';
import { checkSameDigest } from '../../../src/io/container-registry.js';
import { HttpClient } from '../../../src/io/http.js';

// The digest check against a loopback registry API that challenges the way real ones do: Basic
// (htpasswd registries), Bearer with a token realm (Docker Hub, ghcr.io; anonymous tokens for
// public images), or nothing at all.
type Scheme = 'open' | 'basic' | 'bearer';
const digest = `sha256:${'a'.repeat(64)}`;
const creds = { username: 'bot', password: 'Digest-Canary-11' };
const basic = `Basic ${Buffer.from(`${creds.username}:${creds.password}`).toString('base64')}`;

let scheme: Scheme = 'open';
/** Where the Bearer challenge sends the client for its token (default: this server, by 127.0.0.1). */
let realmBase: string | undefined;
let digests: Record<string, string> = {};
const seen: { url: string; authorization?: string }[] = [];
let server: http.Server;
let base: string;
let client: HttpClient;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    seen.push({ url: req.url ?? '', ...(req.headers.authorization === undefined ? {} : { authorization: req.headers.authorization }) });
    if (req.url?.startsWith('/token')) {
      const anonymous = req.headers.authorization === undefined;
      if (!anonymous && req.headers.authorization !== basic) return void res.writeHead(401).end();
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end(JSON.stringify(anonymous ? { token: 'anonymous-pull' } : { access_token: 'bot-pull' }));
    }
    const allowed =
      scheme === 'open' ||
      (scheme === 'basic' && req.headers.authorization === basic) ||
      (scheme === 'bearer' && /^Bearer (anonymous-pull|bot-pull)$/.test(req.headers.authorization ?? ''));
    if (!allowed) {
      const challenge = scheme === 'basic' ? 'Basic realm="registry"' : `Bearer realm="${realmBase ?? base}/token",service="loopback",scope="repository:example/demo:pull"`;
      return void res.writeHead(401, { 'www-authenticate': challenge }).end();
    }
    const tag = /\/manifests\/([^/]+)$/.exec(req.url ?? '')?.[1] ?? '';
    const found = digests[tag];
    res.writeHead(found === undefined ? 404 : 200, found === undefined ? {} : { 'docker-content-digest': found, 'content-type': 'application/vnd.oci.image.manifest.v1+json' });
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  client = new HttpClient({ timeoutMs: 5000, retries: 0 });
});
afterEach(() => {
  seen.length = 0;
  realmBase = undefined;
  digests = { '1.2.3': digest, latest: digest };
});
afterAll(async () => {
  await client.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const check = (withCreds: boolean) => checkSameDigest(client, base, 'example/demo', ['1.2.3', 'latest'], withCreds ? creds : undefined);

describe('the digest check (HEAD /v2/<name>/manifests/<tag>)', () => {
  it.each([
    ['open', false],
    ['open', true],
    ['basic', true],
    ['bearer', true],
    ['bearer', false],
  ] as const)('%s registry, credentials given: %s → both tags resolve to one digest', async (s, withCreds) => {
    scheme = s;
    digests = { '1.2.3': digest, latest: digest };
    expect(await check(withCreds)).toBe(digest);
    const tokenRequests = seen.filter((r) => r.url.startsWith('/token'));
    if (s === 'bearer') {
      expect(tokenRequests.length).toBeGreaterThan(0);
      // A token realm gets the credentials only when there are some; else it is asked anonymously.
      for (const t of tokenRequests) expect(t.authorization).toBe(withCreds ? basic : undefined);
      expect(tokenRequests[0]!.url).toContain('scope=repository%3Aexample%2Fdemo%3Apull');
    }
    if (s === 'open') expect(seen.every((r) => r.authorization === undefined)).toBe(true);
  });

  it('a token realm reached over plain HTTP off loopback gets no credentials (asked anonymously)', async () => {
    scheme = 'bearer';
    digests = { '1.2.3': digest, latest: digest };
    // The same server by its IPv4-mapped IPv6 address: plain HTTP to a host that is not loopback by name.
    realmBase = base.replace('127.0.0.1', '[::ffff:127.0.0.1]');
    expect(await check(true)).toBe(digest);
    const tokenRequests = seen.filter((r) => r.url.startsWith('/token'));
    expect(tokenRequests.length).toBeGreaterThan(0);
    for (const t of tokenRequests) expect(t.authorization).toBeUndefined();
  });

  it('a registry that wants a login to read, without credentials: exit 3 saying which variables to set', async () => {
    scheme = 'basic';
    const error = await check(false).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EnvironmentError);
    expect((error as EnvironmentError).message).toContain('HTTP 401');
    expect((error as EnvironmentError).fix).toContain('RELCTL_REGISTRY_USERNAME and RELCTL_REGISTRY_PASSWORD');
  });

  it('tags with different digests: exit 3 naming both', async () => {
    scheme = 'open';
    digests = { '1.2.3': digest, latest: `sha256:${'b'.repeat(64)}` };
    const error = (await check(false).catch((e: unknown) => e)) as EnvironmentError;
    expect(error.kind).toBe('image-digest-mismatch');
    expect(error.message).toContain(`sha256:${'b'.repeat(64)}`);
  });
});
