import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { createTestKey, type TestKey } from '../helpers/gpg.js';
import { tempDir } from '../helpers/temp.js';
import { component, search, signerOf, type Signer } from './sandbox-hardening-fixture.js';
import { basic, bearer, call, deployUrl, manualUpload, publishKeyConfirmed, publisher, putAll, type Reply } from './sandbox-fixture.js';

/**
 * Two accounts: alice owns com.acme; mallory has no list, so every namespace nobody owns. Mallory
 * can neither deploy into, block, search, move nor drop anything of com.acme, and no answer to
 * mallory names alice.
 */
let key: TestKey;
let sign: Signer;
let sandbox: RunningSandbox;
const alice = { name: 'alice', password: 'a-secret-pw', namespaces: ['com.acme'] };
const mallory = { name: 'mallory', password: 'm-secret-pw' };

beforeAll(async () => {
  key = await createTestKey();
  sign = await signerOf(key);
  sandbox = await startSandbox({ users: [alice, mallory] });
  await publishKeyConfirmed(sandbox, key);
});
afterAll(async () => {
  await sandbox?.close();
  await key?.cleanup();
});

const replies: Reply[] = [];
const asMallory = async (url: string, method = 'GET', scheme: 'basic' | 'bearer' = 'bearer', body?: string): Promise<Reply> => {
  const auth = scheme === 'basic' ? basic(mallory.name, mallory.password) : bearer(mallory.name, mallory.password);
  const r = await call(url, { method, auth, ...(body === undefined ? {} : { body }) });
  replies.push(r);
  return r;
};
const notAllowed = (ns: string): unknown => ({ error: `Failed to process request: Namespace '${ns}' is not allowed` });

test('a namespace listed for one account belongs to it alone', async () => {
  // Alice stages and validates a release of her namespace.
  const files = await component(sign, 'com.acme.tools', 'lib', '1.0.0');
  expect(await putAll(sandbox, files, basic(alice.name, alice.password))).toEqual([]);
  const aliceKey = 'alice/127.0.0.1/com.acme--default-repository';

  // Mallory cannot put a file into it, nor below it, nor block it with a failing deployment.
  for (const p of ['com/acme/evil/1.0/evil-1.0.pom', 'com/acme/tools/lib/1.0.0/lib-1.0.0.jar', 'com/acme/deep/er/x/1/x-1.jar']) {
    const put = await asMallory(deployUrl(sandbox, p), 'PUT', 'basic', 'evil');
    expect([put.status, put.json()], p).toEqual([400, { error: 'Failed to process request: File is not associated with an authorized namespace' }]);
  }
  expect((await asMallory(`${sandbox.urls.stagingApiUrl}/manual/upload/defaultRepository/com.acme`, 'POST')).json()).toEqual(notAllowed('com.acme'));
  expect((await asMallory(`${sandbox.urls.stagingApiUrl}/manual/upload/repository/${aliceKey}`, 'POST')).json()).toEqual(notAllowed('com.acme'));
  expect((await asMallory(`${sandbox.urls.stagingApiUrl}/manual/drop/repository/${aliceKey}`, 'DELETE')).json()).toEqual(notAllowed('com.acme'));
  const snoop = await asMallory(`${sandbox.urls.stagingApiUrl}/manual/search/repositories?ip=any&profile_id=com.acme.tools`);
  expect([snoop.status, snoop.json()]).toEqual([400, notAllowed('com.acme.tools')]);
  const all = await asMallory(`${sandbox.urls.stagingApiUrl}/manual/search/repositories?ip=any`);
  expect(all.json()).toEqual({ repositories: [] });

  // Alice's release is untouched and goes through.
  const upload = await manualUpload(sandbox, 'com.acme', { auth: bearer(alice.name, alice.password) });
  expect(upload.status, upload.text).toBe(200);
  const id = upload.json().deploymentId as string;
  for (const method of ['POST', 'DELETE']) {
    const other = await asMallory(`${sandbox.urls.portalUrl}/api/v1/publisher/deployment/${id}`, method);
    expect(other.status).toBe(404);
  }
  expect((await asMallory(`${sandbox.urls.portalUrl}/api/v1/publisher/status?id=${id}`, 'POST')).status).toBe(404);
  expect((await publisher(sandbox, 'POST', `deployment/${id}`, bearer(alice.name, alice.password))).status).toBe(204);

  // Mallory keeps every namespace nobody owns, including one above alice's.
  const own = await component(sign, 'com.mallory', 'app', '2.0.0');
  expect(await putAll(sandbox, own, basic(mallory.name, mallory.password))).toEqual([]);
  const mine = await manualUpload(sandbox, 'com.mallory', { auth: bearer(mallory.name, mallory.password) });
  expect(mine.status, mine.text).toBe(200);
  expect((await search(sandbox, 'ip=any', bearer(mallory.name, mallory.password))).json().repositories).toHaveLength(1);

  // Nothing mallory was told names alice, her token or her repository.
  for (const r of replies) for (const secret of ['alice', alice.password]) expect(r.text).not.toContain(secret);
});

test('a user name or namespace such as __proto__ or constructor is an ordinary string', async () => {
  const seed = await tempDir('relctl-seed-');
  await mkdir(path.join(seed.path, 'org/seeded/x/1'), { recursive: true });
  for (const ext of ['constructor', '__proto__', 'toString']) await writeFile(path.join(seed.path, `org/seeded/x/1/x-1.${ext}`), `seeded ${ext}`);
  const odd = await startSandbox({
    seedRepo: seed.path,
    users: [
      { name: '__proto__', password: 'p-one', namespaces: ['constructor'] },
      { name: 'constructor', password: 'p-two', namespaces: ['__proto__', 'hasOwnProperty'] },
    ],
    limits: { releases: 5 },
  });
  try {
    await publishKeyConfirmed(odd, key);
    const proto = basic('__proto__', 'p-one');
    const ctor = basic('constructor', 'p-two');
    for (const [ns, auth, other] of [['constructor', proto, ctor], ['__proto__', ctor, proto]] as const) {
      expect(await putAll(odd, await component(sign, ns, 'lib', '1.0.0'), auth)).toEqual([]);
      const refused = await call(deployUrl(odd, `${ns}/x/1/x-1.pom`), { method: 'PUT', auth: other, body: 'x' });
      expect(refused.status, `${ns} for the other account`).toBe(400);
      const upload = await manualUpload(odd, ns, { auth: auth.replace('Basic', 'Bearer'), type: 'automatic' });
      expect(upload.status, upload.text).toBe(200);
      expect((await call(`${odd.urls.publicRepoUrl}/${ns}/lib/1.0.0/lib-1.0.0.jar`)).status).toBe(200);
    }
    // A file whose extension names an Object member is served as an unknown type.
    for (const ext of ['constructor', '__proto__', 'toString']) {
      const r = await call(`${odd.urls.publicRepoUrl}/org/seeded/x/1/x-1.${ext}`);
      expect([r.status, r.headers['content-type'], r.text], ext).toEqual([200, 'application/octet-stream', `seeded ${ext}`]);
    }
  } finally {
    await odd.close();
    await seed[Symbol.asyncDispose]();
  }
});
