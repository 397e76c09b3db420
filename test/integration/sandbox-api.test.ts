import { readdir } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { createTestKey, type TestKey } from '../helpers/gpg.js';
import { tempDir, type TempDir } from '../helpers/temp.js';
import {
  basic,
  bearer,
  call,
  controlCall,
  deployUrl,
  manualUpload,
  pomXml,
  publishKeyConfirmed,
  publisher,
  putAll,
  rawRequest,
  signAll,
  signedComponent,
  withChecksums,
} from './sandbox-fixture.js';

let tmp: TempDir;
let key: TestKey;
let sandbox: RunningSandbox;
let origin: string;
const sb = basic('sandbox', 'sandbox');

beforeAll(async () => {
  tmp = await tempDir('relctl-sbapi-');
  key = await createTestKey();
  sandbox = await startSandbox({
    dataDir: path.join(tmp.path, 'data'),
    users: [{ name: 'sandbox', password: 'sandbox' }, { name: 'alice', password: 'a-secret', namespaces: ['com.acme'] }],
  });
  origin = new URL(sandbox.urls.stagingApiUrl).origin;
  await publishKeyConfirmed(sandbox, key);
});
afterAll(async () => {
  await sandbox?.close();
  await key?.cleanup();
  await tmp?.[Symbol.asyncDispose]();
});

describe('authentication', () => {
  test('the Maven deploy path answers 401 with a Basic challenge to a missing, malformed or wrong token', async () => {
    const url = deployUrl(sandbox, 'org/example/a/1.0.0/a-1.0.0.pom');
    for (const auth of [undefined, 'Basic !!!', 'Bearer', 'Digest abc', basic('sandbox', 'wrong'), `Basic ${Buffer.from('nocolon').toString('base64')}`]) {
      const r = await call(url, { method: 'PUT', body: 'x', ...(auth === undefined ? {} : { auth }) });
      expect(r.status, String(auth)).toBe(401);
      expect(r.text).toBe('');
      expect(r.headers['www-authenticate']).toBe('Basic realm="staging"');
    }
    expect((await call(url, { method: 'PUT', body: 'x', auth: bearer('sandbox', 'sandbox') })).status).toBe(201);
  });

  test('manual endpoints and the Publisher API refuse a bad token with 401', async () => {
    expect((await manualUpload(sandbox, 'org.example', { auth: bearer('sandbox', 'nope') })).status).toBe(401);
    expect((await call(`${sandbox.urls.stagingApiUrl}/manual/search/repositories?ip=any`)).status).toBe(401);
    expect((await publisher(sandbox, 'POST', 'status?id=00000000-0000-0000-0000-000000000000', 'UserToken x')).status).toBe(401);
  });
});

describe('staging repositories', () => {
  test('a user limited to namespaces cannot deploy outside them; inside them the key names user, address and namespace', async () => {
    const alice = basic('alice', 'a-secret');
    const outside = await call(deployUrl(sandbox, 'org/other/x/1.0/x-1.0.pom'), { method: 'PUT', auth: alice, body: 'x' });
    expect(outside.status).toBe(400);
    expect(outside.json()).toEqual({ error: 'Failed to process request: File is not associated with an authorized namespace' });
    const inside = await call(deployUrl(sandbox, 'com/acme/tools/lib/1.0/lib-1.0.pom'), { method: 'PUT', auth: alice, body: 'x' });
    expect(inside.status).toBe(201);
    const search = await call(`${sandbox.urls.stagingApiUrl}/manual/search/repositories?ip=any&profile_id=com.acme`, { auth: bearer('alice', 'a-secret') });
    expect(search.json()).toEqual({
      repositories: [{ key: 'alice/127.0.0.1/com.acme--default-repository', state: 'open', description: null, portal_deployment_id: null }],
    });
  });

  test('a manual upload with nothing staged, or only metadata staged, gets the real 400 texts', async () => {
    const none = await manualUpload(sandbox, 'org.nothing');
    expect(none.status).toBe(400);
    expect(none.json()).toEqual({ error: 'Failed to process request: No repository found for sandbox/127.0.0.1/org.nothing--default-repository' });
    expect((await call(deployUrl(sandbox, 'org/meta/lib/maven-metadata.xml'), { method: 'PUT', auth: sb, body: '<metadata/>' })).status).toBe(201);
    expect((await call(deployUrl(sandbox, 'org/meta/lib/maven-metadata.xml'), { auth: sb })).status).toBe(404);
    const empty = await manualUpload(sandbox, 'org.meta');
    expect(empty.json()).toEqual({ error: 'Failed to process request: No objects found in the repository' });
  });

  test('another address finds no repository; search ip=any then upload by key works from there and publishes automatically', async () => {
    const files = await signedComponent(key, 'io.moved', 'lib', '2.0.0');
    expect(await putAll(sandbox, files)).toEqual([]);
    const elsewhere = await manualUpload(sandbox, 'io.moved', { from: '127.0.0.2' });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.json().error).toBe('Failed to process request: No repository found for sandbox/127.0.0.2/io.moved--default-repository');
    const client = await call(`${sandbox.urls.stagingApiUrl}/manual/search/repositories?ip=client&profile_id=io.moved`, { auth: bearer('sandbox', 'sandbox'), from: '127.0.0.2' });
    expect(client.json().repositories).toEqual([]);
    const any = await call(`${sandbox.urls.stagingApiUrl}/manual/search/repositories?ip=any&profile_id=io.moved&state=open`, { auth: bearer('sandbox', 'sandbox'), from: '127.0.0.2' });
    const repoKey = any.json().repositories[0].key as string;
    expect(repoKey).toBe('sandbox/127.0.0.1/io.moved--default-repository');
    const byKey = await call(`${sandbox.urls.stagingApiUrl}/manual/upload/repository/${encodeURIComponent(repoKey)}?publishing_type=automatic`, {
      method: 'POST',
      auth: bearer('sandbox', 'sandbox'),
      from: '127.0.0.2',
    });
    expect(byKey.status).toBe(200);
    const id = byKey.json().deploymentId as string;
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    const status = (await publisher(sandbox, 'POST', `status?id=${id}`)).json();
    expect(status).toEqual({
      deploymentId: id,
      deploymentName: `${repoKey} (via OSSRH API Proxy)`,
      deploymentState: 'PUBLISHED',
      purls: ['pkg:maven/io.moved/lib@2.0.0'],
      errors: {},
    });
    const jar = await call(`${sandbox.urls.publicRepoUrl}/io/moved/lib/2.0.0/lib-2.0.0.jar`);
    expect(jar.text).toBe('jar of lib');
    expect((await publisher(sandbox, 'GET', 'published?namespace=io.moved&name=lib&version=2.0.0')).json()).toEqual({ published: true });
    const closed = await call(`${sandbox.urls.stagingApiUrl}/manual/search/repositories?ip=any&profile_id=io.moved`, { auth: bearer('sandbox', 'sandbox') });
    expect(closed.json().repositories).toEqual([{ key: repoKey, state: 'closed', description: null, portal_deployment_id: id }]);
  });

  test('a failed deployment blocks its namespace for PUTs and manual uploads until it is dropped', async () => {
    const dir = 'net/blocked/app/1.0.0/app-1.0.0';
    const pom = pomXml('net.blocked', 'app', '1.0.0', 'pom').replace(/<developers>.*<\/developers>/, '');
    const files = withChecksums(await signAll(new Map([[`${dir}.pom`, Buffer.from(pom)]]), key));
    expect(await putAll(sandbox, files)).toEqual([]);
    const failed = await manualUpload(sandbox, 'net.blocked');
    expect(failed.status).toBe(400);
    const id = failed.json().deploymentId as string;
    expect(failed.json().error).toBe('Deployment reached an unexpected status: Failed\n- pkg:maven/net.blocked/app@1.0.0\n  - Developers information is missing');
    const status = (await publisher(sandbox, 'POST', `status?id=${id}`)).json();
    expect(status.deploymentState).toBe('FAILED');
    expect(status.errors).toEqual({ 'pkg:maven/net.blocked/app@1.0.0': ['Developers information is missing'] });
    const blockedText = `Failed to process request: Repository sandbox/127.0.0.1/net.blocked--default-repository is in state closed/failed: deployment ${id} failed validation and must be dropped before a new release can be made`;
    const put = await call(deployUrl(sandbox, `${dir}.pom`), { method: 'PUT', auth: sb, body: pom });
    expect(put.status).toBe(400);
    expect(put.json()).toEqual({ error: blockedText });
    expect((await manualUpload(sandbox, 'net.blocked')).json()).toEqual({ error: blockedText });
    expect((await publisher(sandbox, 'POST', `deployment/${id}`)).status).toBe(400);
    expect((await publisher(sandbox, 'DELETE', `deployment/${id}`)).status).toBe(204);
    expect((await publisher(sandbox, 'POST', `status?id=${id}`)).status).toBe(404);
    expect((await call(deployUrl(sandbox, `${dir}.pom`), { method: 'PUT', auth: sb, body: pom })).status).toBe(201);
  });

  test('an open repository is dropped by its key, raw or URL-encoded', async () => {
    for (const encode of [false, true]) {
      expect((await call(deployUrl(sandbox, 'org/dropme/x/1.0/x-1.0.pom'), { method: 'PUT', auth: sb, body: 'x' })).status).toBe(201);
      const repoKey = 'sandbox/127.0.0.1/org.dropme--default-repository';
      const r = await call(`${sandbox.urls.stagingApiUrl}/manual/drop/repository/${encode ? encodeURIComponent(repoKey) : repoKey}`, {
        method: 'DELETE',
        auth: bearer('sandbox', 'sandbox'),
      });
      expect(r.status).toBe(204);
      const search = await call(`${sandbox.urls.stagingApiUrl}/manual/search/repositories?ip=any&profile_id=org.dropme`, { auth: bearer('sandbox', 'sandbox') });
      expect(search.json().repositories).toEqual([]);
    }
  });

  test('parallel PUTs, including re-PUTs of the same path, all land', async () => {
    const paths = Array.from({ length: 20 }, (_, i) => `org/parallel/m${i}/1.0/m${i}-1.0.jar`);
    const results = await Promise.all(
      [...paths, ...paths].map((p, i) => call(deployUrl(sandbox, p), { method: 'PUT', auth: sb, body: `${p}#${i < 20 ? 'a' : 'b'}` })),
    );
    expect(results.map((r) => r.status)).toEqual(results.map(() => 201));
    for (const p of paths) expect((await call(deployUrl(sandbox, p), { auth: sb })).text).toMatch(/#[ab]$/);
  });
});

describe('robustness', () => {
  test('traversal, bad segments, bad JSON and unknown routes get 4xx and nothing is written outside the data folder', async () => {
    const evil = ['org/../../../../evil/1/x.jar', 'org/%2e%2e/%2E%2E/%2e%2e/evil/1/x.jar', 'org/a%2F..%2F..%2Fb/1/x.jar', 'org/a%00/1/x.jar', 'org/%E0%A4%A/1/x.jar', 'org//x/1/x.jar', 'org/a\\..\\..\\b/1/x.jar'];
    for (const p of evil) {
      const reply = await rawRequest(sandbox.port, `PUT /staging/service/local/staging/deploy/maven2/${p} HTTP/1.1\r\nAuthorization: ${sb}\r\nContent-Length: 4`, 'evil');
      expect(reply, p).toMatch(/^HTTP\/1\.1 4\d\d /);
    }
    for (const p of ['/repo/../state.json', '/repo/%2e%2e/state.json', '/repo/..%2Fstate.json', '/repo/%2e%2e%2f%2e%2e%2fetc/passwd']) {
      expect(await rawRequest(sandbox.port, `GET ${p} HTTP/1.1`), p).toMatch(/^HTTP\/1\.1 400 /);
    }
    expect(await rawRequest(sandbox.port, 'GET nonsense HTTP/1.1')).toMatch(/^HTTP\/1\.1 400 /);
    expect(await rawRequest(sandbox.port, `PUT /staging/service/local/staging/deploy/maven2/org/x/1/x-1.jar HTTP/1.1\r\nAuthorization: Basic \u00ff\u00fe`)).toMatch(/^HTTP\/1\.1 4\d\d /);
    expect((await controlCall(sandbox, 'POST', 'faults', '{not json')).status).toBe(400);
    expect((await controlCall(sandbox, 'POST', 'faults', '{"prefix":"x"}')).status).toBe(400);
    expect((await call(`${origin}/nowhere`)).status).toBe(404);
    expect((await publisher(sandbox, 'POST', 'status?id=../../x')).status).toBe(400);
    expect((await publisher(sandbox, 'POST', 'status?id=00000000-0000-0000-0000-000000000000')).status).toBe(404);
    expect((await publisher(sandbox, 'GET', 'published?namespace=a')).status).toBe(400);
    expect((await call(deployUrl(sandbox, 'org/x/1/x-1.jar'), { method: 'DELETE', auth: sb })).status).toBe(405);
    expect(await readdir(tmp.path)).toEqual(['data']);
  });

  test('random request lines, headers and bodies get answers below 500 and the server keeps serving', async () => {
    const segment = fc.oneof(fc.constantFrom('..', '.', '%2e%2e', '%2F', '%00', '%', 'staging', 'maven2', 'org', 'a.jar', '', 'manual', 'upload'), fc.stringMatching(/^[A-Za-z0-9%._~-]{0,12}$/));
    const prefix = fc.constantFrom('/staging/service/local/staging/deploy/maven2/', '/staging/manual/upload/defaultRepository/', '/staging/manual/upload/repository/', '/staging/manual/drop/repository/', '/portal/api/v1/publisher/', '/repo/', '/keys/vks/v1/', '/keys2/pks/', '/sandbox/', '/');
    const auth = fc.constantFrom('', `Authorization: ${sb}\r\n`, 'Authorization: Bearer %%%\r\n', 'Authorization: Basic\r\n');
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('GET', 'PUT', 'POST', 'DELETE', 'HEAD', 'PATCH'), prefix, fc.array(segment, { maxLength: 6 }), auth, fc.string({ maxLength: 40 }), async (method, pre, segs, authLine, body) => {
          const target = pre + segs.join('/');
          const len = Buffer.byteLength(body);
          const reply = await rawRequest(sandbox.port, `${method} ${target} HTTP/1.1\r\n${authLine}Content-Length: ${len}`, body);
          const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(reply)?.[1]);
          expect(status, `${method} ${target}`).toBeLessThan(500);
        }),
      { numRuns: 150, seed: 42 },
    );
    expect((await call(`${origin}/sandbox/state`)).status).toBe(200);
    expect(await readdir(tmp.path)).toEqual(['data']);
  });

  test('a body over the portal\'s 1 GiB bundle limit is refused with 413 before it is sent', async () => {
    const { port } = sandbox;
    const reply = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.write(
          `PUT /staging/service/local/staging/deploy/maven2/org/big/x/1/x-1.jar HTTP/1.1\r\nHost: 127.0.0.1\r\n` +
            `Authorization: ${sb}\r\nContent-Length: ${2 * 1024 * 1024 * 1024}\r\nExpect: 100-continue\r\n\r\n`,
        );
      });
      let data = '';
      socket.on('data', (d) => (data += d.toString()));
      socket.on('end', () => resolve(data));
      socket.on('error', reject);
    });
    expect(reply).toMatch(/^HTTP\/1\.1 413 /);
    expect(reply).not.toContain('100 Continue');
  });
});

describe('faults and control', () => {
  test('a status burst, 429 with Retry-After, a reset and a delay hit only the next requests of a prefix', async () => {
    const search = `${sandbox.urls.stagingApiUrl}/manual/search/repositories?ip=any`;
    const auth = bearer('sandbox', 'sandbox');
    const add = await controlCall(
      sandbox,
      'POST',
      'faults',
      JSON.stringify([
        { prefix: '/staging/manual/search', count: 2, status: 503 },
        { prefix: '/portal/api/v1/publisher/published', retryAfter: 7 },
        { prefix: '/repo/', reset: true },
      ]),
    );
    expect(add.status).toBe(200);
    expect((await call(search, { auth })).status).toBe(503);
    expect((await call(search, { auth })).status).toBe(503);
    expect((await call(search, { auth })).status).toBe(200);
    const limited = await publisher(sandbox, 'GET', 'published?namespace=a&name=b&version=1');
    expect([limited.status, limited.headers['retry-after']]).toEqual([429, '7']);
    await expect(call(`${sandbox.urls.publicRepoUrl}/a/b/1/b-1.pom`)).rejects.toThrow();
    expect((await call(`${sandbox.urls.publicRepoUrl}/a/b/1/b-1.pom`)).status).toBe(404);

    await controlCall(sandbox, 'POST', 'faults', JSON.stringify({ prefix: '/repo/slow', delayMs: 400 }));
    const order: string[] = [];
    await Promise.all([
      call(`${sandbox.urls.publicRepoUrl}/slow/x`).then((r) => order.push(`slow ${r.status}`)),
      call(`${sandbox.urls.publicRepoUrl}/fast/x`).then((r) => order.push(`fast ${r.status}`)),
    ]);
    expect(order).toEqual(['fast 404', 'slow 404']);
  });

  test('reset forgets repositories and deployments', async () => {
    expect((await controlCall(sandbox, 'POST', 'reset')).status).toBe(204);
    const state = (await call(`${origin}/sandbox/state`)).json();
    expect([state.repositories, state.deployments, state.faults]).toEqual([[], [], []]);
    expect((await call(`${sandbox.urls.publicRepoUrl}/io/moved/lib/2.0.0/lib-2.0.0.jar`)).status).toBe(404);
  });
});
