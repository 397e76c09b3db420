import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { createTestKey, type TestKey } from '../helpers/gpg.js';
import { component, components, publicFile, search, signerOf, status, type Signer } from './sandbox-hardening-fixture.js';
import { basic, bearer, call, deployUrl, manualUpload, publishKeyConfirmed, publisher, putAll } from './sandbox-fixture.js';

/** What the staging service and the portal do when calls overlap (DESIGN §8, safety rules). */
let key: TestKey;
let sign: Signer;
let sandbox: RunningSandbox;
const auth = bearer('sandbox', 'sandbox');

beforeAll(async () => {
  key = await createTestKey();
  sign = await signerOf(key);
  sandbox = await startSandbox();
  await publishKeyConfirmed(sandbox, key);
});
afterAll(async () => {
  await sandbox?.close();
  await key?.cleanup();
});

/**
 * Waits until an upload call in flight froze the namespace's repository, at most 200 ms (far less
 * than its validation takes), so the next request lands while the call is still validating.
 */
async function frozen(namespace: string): Promise<void> {
  const started = Date.now();
  while (Date.now() - started < 200) {
    const state = (await call(`http://127.0.0.1:${sandbox.port}/sandbox/state`)).json() as { repositories: { namespace: string; state: string }[] };
    if (state.repositories.some((r) => r.namespace === namespace && r.state === 'closed')) return;
    await sleep(5);
  }
}

const dropUrl = (repoKey: string): string => `${sandbox.urls.stagingApiUrl}/manual/drop/repository/${repoKey}`;

describe('the manual upload call freezes the repository', () => {
  test('a file PUT while the call validates goes to a new open repository and is never published', async () => {
    // 40 components with 128 KiB jars: validation (checksums, 160 signatures) takes a while.
    expect(await putAll(sandbox, await components(sign, 'org.race', 40, 128 * 1024))).toEqual([]);
    const racer = 'org/race/racer/1.0.0/racer-1.0.0.jar';
    const events: string[] = [];
    const upload = manualUpload(sandbox, 'org.race').then((r) => {
      events.push('upload answered');
      return r;
    });
    await frozen('org.race');
    const put = await call(deployUrl(sandbox, racer), { method: 'PUT', auth: basic('sandbox', 'sandbox'), body: 'not validated' });
    events.push('racer stored');
    const reply = await upload;
    expect(put.status).toBe(201);
    // The race really happened: the PUT was stored while the upload call was still running.
    expect(events).toEqual(['racer stored', 'upload answered']);
    expect(reply.status, reply.text).toBe(200);
    const id = reply.json().deploymentId as string;
    expect((await status(sandbox, id)).purls).toHaveLength(40);
    expect((await publisher(sandbox, 'POST', `deployment/${id}`)).status).toBe(204);

    expect((await publicFile(sandbox, 'org/race/c39/1.0.0/c39-1.0.0.jar')).status).toBe(200);
    expect((await publicFile(sandbox, racer)).status).toBe(404);
    const open = (await search(sandbox, 'ip=any&profile_id=org.race&state=open')).json().repositories as { key: string }[];
    expect(open.map((r) => r.key)).toEqual(['sandbox/127.0.0.1/org.race--default-repository']);
    expect((await call(deployUrl(sandbox, racer), { auth: basic('sandbox', 'sandbox') })).text).toBe('not validated');
  });
});

describe('upload and drop are serialised per namespace', () => {
  test('two concurrent upload calls for one repository make one deployment', async () => {
    expect(await putAll(sandbox, await components(sign, 'org.twice', 10))).toEqual([]);
    const replies = await Promise.all([manualUpload(sandbox, 'org.twice'), manualUpload(sandbox, 'org.twice')]);
    expect(replies.map((r) => r.status).sort()).toEqual([200, 400]);
    expect(replies.find((r) => r.status === 400)!.json().error).toBe(
      'Failed to process request: No repository found for sandbox/127.0.0.1/org.twice--default-repository',
    );
    const state = (await call(`http://127.0.0.1:${sandbox.port}/sandbox/state`)).json() as { deployments: { namespace: string }[] };
    expect(state.deployments.filter((d) => d.namespace === 'org.twice')).toHaveLength(1);
  });

  test('a staging drop racing the upload call leaves the deployment whole and publishable', async () => {
    expect(await putAll(sandbox, await components(sign, 'org.cross', 20, 64 * 1024))).toEqual([]);
    const upload = manualUpload(sandbox, 'org.cross');
    await frozen('org.cross');
    const drop = await call(dropUrl('sandbox/127.0.0.1/org.cross--default-repository'), { method: 'DELETE', auth });
    const reply = await upload;
    expect([reply.status, drop.status]).toEqual([200, 204]);
    const id = reply.json().deploymentId as string;
    expect((await publisher(sandbox, 'POST', `deployment/${id}`)).status).toBe(204);
    expect((await status(sandbox, id)).deploymentState).toBe('PUBLISHED');
    expect((await publicFile(sandbox, 'org/cross/c19/1.0.0/c19-1.0.0-sources.jar')).status).toBe(200);
  });
});

describe('staging drop and portal deployments are separate services', () => {
  test('dropping the staging repository keeps the VALIDATED deployment made from it', async () => {
    expect(await putAll(sandbox, await component(sign, 'org.keep', 'lib', '3.0.0'))).toEqual([]);
    const reply = await manualUpload(sandbox, 'org.keep');
    expect(reply.status, reply.text).toBe(200);
    const id = reply.json().deploymentId as string;
    const closed = (await search(sandbox, 'ip=any&profile_id=org.keep')).json().repositories as { key: string; state: string }[];
    expect(closed).toEqual([{ key: 'sandbox/127.0.0.1/org.keep--default-repository', state: 'closed', description: null, portal_deployment_id: id }]);
    expect((await call(dropUrl(closed[0]!.key), { method: 'DELETE', auth })).status).toBe(204);
    expect((await search(sandbox, 'ip=any&profile_id=org.keep')).json().repositories).toEqual([]);
    expect((await status(sandbox, id)).deploymentState).toBe('VALIDATED');
    expect((await publisher(sandbox, 'POST', `deployment/${id}`)).status).toBe(204);
    expect((await publicFile(sandbox, 'org/keep/lib/3.0.0/lib-3.0.0.jar')).status).toBe(200);
  });
});
