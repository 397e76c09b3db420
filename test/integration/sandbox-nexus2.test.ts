import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { createTestKey, type TestKey } from '../helpers/gpg.js';
import { tempDir, type TempDir } from '../helpers/temp.js';
import { basic, bearer, call, controlCall, publishKeyConfirmed, publisher, signedComponent, withChecksums, pomXml, type Reply } from './sandbox-fixture.js';

/** The Nexus 2 staging API of the sandbox (issue 28), driven over real HTTP as its clients drive it. */

let tmp: TempDir;
let key: TestKey;
let sandbox: RunningSandbox;
const sb = basic('sandbox', 'sandbox');
const alice = basic('alice', 'a-secret');
const json = { accept: 'application/json', 'content-type': 'application/json' };
const xml = { accept: 'application/xml; charset=UTF-8', 'content-type': 'application/xml; charset=UTF-8' };

beforeAll(async () => {
  tmp = await tempDir('relctl-nexus2-');
  key = await createTestKey();
  sandbox = await startSandbox({
    dataDir: path.join(tmp.path, 'data'),
    users: [{ name: 'sandbox', password: 'sandbox' }, { name: 'alice', password: 'a-secret', namespaces: ['com.acme'] }],
  });
  await publishKeyConfirmed(sandbox, key);
});
afterAll(async () => {
  await sandbox?.close();
  await key?.cleanup();
  await tmp?.[Symbol.asyncDispose]();
});

const api = (p: string): string => `${sandbox.urls.stagingApiUrl}/service/local/${p}`;

async function start(profile: string, auth = sb, headers: Record<string, string> = json): Promise<string> {
  const body = headers === xml ? `<promoteRequest><data><description>test</description></data></promoteRequest>` : JSON.stringify({ data: { description: 'test' } });
  const r = await call(api(`staging/profiles/${profile}/start`), { method: 'POST', auth, headers, body });
  expect(r.status, r.text).toBe(201);
  return headers === xml ? /<stagedRepositoryId>([^<]+)</.exec(r.text)![1]! : r.json().data.stagedRepositoryId;
}

async function deploy(id: string, files: ReadonlyMap<string, Uint8Array>, from?: string): Promise<void> {
  for (const [p, data] of files) {
    const r = await call(api(`staging/deployByRepositoryId/${id}/${p}`), { method: 'PUT', auth: sb, body: data, ...(from === undefined ? {} : { from }) });
    expect(r.status, `${p}: ${r.text}`).toBe(201);
  }
}

const repository = async (id: string, auth = sb): Promise<Reply> => call(api(`staging/repository/${id}`), { auth, headers: json });
const finish = async (profile: string, id: string): Promise<Reply> =>
  call(api(`staging/profiles/${profile}/finish`), { method: 'POST', auth: sb, headers: json, body: JSON.stringify({ data: { stagedRepositoryId: id, description: 'close' } }) });

async function deploymentNamed(name: string): Promise<{ deploymentId: string; deploymentState: string; errors: Record<string, string[]> } | undefined> {
  const state = (await call(`http://127.0.0.1:${sandbox.port}/sandbox/state`)).json() as { deployments: { id: string; name: string }[] };
  const d = state.deployments.find((x) => x.name === name);
  return d === undefined ? undefined : (await publisher(sandbox, 'POST', `status?id=${d.id}`)).json();
}

describe('status, profiles and authentication', () => {
  test('status answers the Nexus 2 PRO status document in XML without a token, JSON on request', async () => {
    const x = await call(api('status'), { headers: { accept: 'application/xml' } });
    expect(x.status).toBe(200);
    expect(x.headers['content-type']).toMatch(/application\/xml/);
    expect(x.text).toContain('<editionShort>PRO</editionShort>');
    expect(x.text).toContain('<version>2.15.1-02</version>');
    expect((await call(api('status'), { headers: json })).json().data.editionShort).toBe('PRO');
  });

  test('staging calls need the user token, as Basic (the plugins) or Bearer, else 401 with a Basic challenge', async () => {
    for (const auth of [undefined, basic('sandbox', 'wrong')]) {
      const r = await call(api('staging/profiles'), { headers: json, ...(auth === undefined ? {} : { auth }) });
      expect(r.status).toBe(401);
      expect(r.headers['www-authenticate']).toBe('Basic realm="staging"');
    }
    expect((await call(api('staging/profiles'), { auth: bearer('alice', 'a-secret'), headers: json })).json().data.map((p: { id: string }) => p.id)).toEqual(['com.acme']);
  });

  test('profile_evaluate names the namespace owning the group id as the profile (id = name = namespace)', async () => {
    const j = await call(api('staging/profile_evaluate?t=maven2&g=com.acme.tools&a=x&v=1'), { auth: alice, headers: json });
    expect(j.json().data).toMatchObject([{ id: 'com.acme', name: 'com.acme', repositoryType: 'maven2', mode: 'BOTH' }]);
    const x = await call(api('staging/profile_evaluate?t=maven2&g=com.acme.tools&a=x&v=1'), { auth: alice, headers: xml });
    expect(x.text).toMatch(/<stagingProfiles><data><stagingProfile><resourceURI>[^<]+<\/resourceURI><id>com.acme<\/id><name>com.acme<\/name>/);
    expect(x.text).toContain('<properties class="linked-hash-map"/>');
    // Another account's namespace is no profile of the caller's, and says nothing about its owner.
    expect((await call(api('staging/profile_evaluate?g=com.acme.tools'), { auth: sb, headers: json })).json().data).toEqual([]);
    const other = await call(api('staging/profiles/com.acme'), { auth: sb, headers: json });
    expect(other.status).toBe(404);
    expect(other.text).not.toContain('alice');
    expect((await call(api('staging/profiles/com.acme'), { auth: alice, headers: xml })).text).toContain('<profileResponse><data>');
  });
});

describe('the staging workflow in JSON (gradle-nexus, JReleaser)', () => {
  test('start, deploy by id from another address, close → VALIDATED "<id> (via OSSRH API Proxy)", promote → published byte for byte', async () => {
    const files = await signedComponent(key, 'org.example.nxj', 'lib', '1.0.0');
    const id = await start('org.example.nxj');
    expect(id).toMatch(/^org\.example\.nxj--[0-9a-f-]{36}$/);
    await deploy(id, files, '127.0.0.2');
    const meta = await call(api(`staging/deployByRepositoryId/${id}/org/example/nxj/lib/maven-metadata.xml`), { method: 'PUT', auth: sb, body: '<metadata/>' });
    expect(meta.status).toBe(201);
    expect((await call(api(`staging/deployByRepositoryId/${id}/org/example/nxj/lib/maven-metadata.xml`), { auth: sb })).status).toBe(404);
    const jarPath = 'org/example/nxj/lib/1.0.0/lib-1.0.0.jar';
    expect((await call(api(`staging/deployByRepositoryId/${id}/${jarPath}`), { auth: sb })).bytes).toEqual(Buffer.from(files.get(jarPath)!));
    expect(await repository(id).then((r) => r.json())).toMatchObject({ repositoryId: id, profileId: 'org.example.nxj', type: 'open', transitioning: false });

    expect((await finish('org.example.nxj', id)).status).toBe(201);
    expect(await repository(id).then((r) => r.json())).toMatchObject({ type: 'closed', transitioning: false, notifications: 0 });
    expect(await deploymentNamed(`${id} (via OSSRH API Proxy)`)).toMatchObject({ deploymentState: 'VALIDATED' });

    const promote = await call(api('staging/profiles/org.example.nxj/promote'), { method: 'POST', auth: sb, headers: json, body: JSON.stringify({ data: { stagedRepositoryId: id } }) });
    expect(promote.status).toBe(201);
    expect(await repository(id).then((r) => r.json())).toMatchObject({ type: 'released' });
    expect(await deploymentNamed(`${id} (via OSSRH API Proxy)`)).toMatchObject({ deploymentState: 'PUBLISHED' });
    expect((await call(`${sandbox.urls.publicRepoUrl}/${jarPath}`)).bytes).toEqual(Buffer.from(files.get(jarPath)!));
    const activity = (await call(api(`staging/repository/${id}/activity`), { auth: sb, headers: json })).json() as { name: string }[];
    expect(activity.map((a) => a.name)).toEqual(['open', 'close', 'release']);
  });

  test('a failed validation: the repository stays open with notifications, ruleFailed events carry the portal sentences, the namespace is blocked', async () => {
    const files = withChecksums(new Map([['org/example/nxf/lib/1.0.0/lib-1.0.0.pom', Buffer.from(pomXml('org.example.nxf', 'lib', '1.0.0', 'pom'))]]));
    const id = await start('org.example.nxf');
    await deploy(id, files);
    expect((await finish('org.example.nxf', id)).status).toBe(201);
    expect(await repository(id).then((r) => r.json())).toMatchObject({ type: 'open', transitioning: false, notifications: 1 });
    const activity = (await call(api(`staging/repository/${id}/activity`), { auth: sb, headers: json })).json();
    const failed = activity[1].events.filter((e: { name: string }) => e.name === 'ruleFailed');
    expect(failed).toEqual([
      expect.objectContaining({
        severity: 1,
        properties: [
          { name: 'typeId', value: 'pkg:maven/org.example.nxf/lib@1.0.0' },
          { name: 'failureMessage', value: 'Missing signature for file: lib-1.0.0.pom' },
        ],
      }),
    ]);
    const d = await deploymentNamed(`${id} (via OSSRH API Proxy)`);
    expect(d).toMatchObject({ deploymentState: 'FAILED' });

    // The namespace block applies, to a new start and to the failed repository's promote.
    const again = await call(api('staging/profiles/org.example.nxf/start'), { method: 'POST', auth: sb, headers: json, body: '{"data":{"description":"x"}}' });
    expect(again.status).toBe(400);
    expect(again.json().errors[0].msg).toMatch(/is in state closed\/failed: deployment .* failed validation/);
    expect((await call(api('staging/bulk/promote'), { method: 'POST', auth: sb, headers: json, body: JSON.stringify({ data: { stagedRepositoryIds: [id] } }) })).status).toBe(400);

    // Dropping the staging repository leaves the portal deployment; dropping that lifts the block.
    expect((await call(api('staging/bulk/drop'), { method: 'POST', auth: sb, headers: json, body: JSON.stringify({ data: { stagedRepositoryIds: [id] } }) })).status).toBe(201);
    expect((await repository(id)).status).toBe(404);
    expect(await deploymentNamed(`${id} (via OSSRH API Proxy)`)).toMatchObject({ deploymentState: 'FAILED' });
    expect((await publisher(sandbox, 'DELETE', `deployment/${d!.deploymentId}`)).status).toBe(204);
    await start('org.example.nxf');
  });

  test('a bulk close that fails validation answers 400 with the portal failure text', async () => {
    const files = withChecksums(new Map([['org/example/nxb/lib/1.0.0/lib-1.0.0.pom', Buffer.from(pomXml('org.example.nxb', 'lib', '1.0.0', 'pom'))]]));
    const id = await start('org.example.nxb');
    await deploy(id, files);
    const r = await call(api('staging/bulk/close'), { method: 'POST', auth: sb, headers: json, body: JSON.stringify({ data: { stagedRepositoryIds: [id], description: 'c' } }) });
    expect(r.status).toBe(400);
    expect(r.json().errors[0].msg).toBe('Deployment reached an unexpected status: Failed\n- pkg:maven/org.example.nxb/lib@1.0.0\n  - Missing signature for file: lib-1.0.0.pom');
  });
});

describe('the staging workflow in XML (nexus-staging-maven-plugin)', () => {
  test('XStream shapes: promoteRequest/Response, stagingActionRequest with the JDK 17 string-array, repository and activity', async () => {
    const files = await signedComponent(key, 'org.example.nxx', 'lib', '2.0.0');
    const id = await start('org.example.nxx', sb, xml);
    await deploy(id, files);
    const close =
      `<stagingActionRequest><data><stagedRepositoryIds class="java.util.Arrays$ArrayList"><a class="string-array"><string>${id}</string></a></stagedRepositoryIds>` +
      `<description>close</description><autoDropAfterRelease>true</autoDropAfterRelease></data></stagingActionRequest>`;
    expect((await call(api('staging/bulk/close'), { method: 'POST', auth: sb, headers: xml, body: close })).status).toBe(201);
    const repo = await call(api(`staging/repository/${id}`), { auth: sb, headers: xml });
    expect(repo.text).toMatch(new RegExp(`<stagingProfileRepository><profileId>org.example.nxx</profileId>.*<repositoryId>${id}</repositoryId><type>closed</type>`));
    expect(repo.text).toContain('<notifications>0</notifications><transitioning>false</transitioning></stagingProfileRepository>');
    const list = await call(api('staging/profile_repositories'), { auth: sb, headers: xml });
    expect(list.text).toMatch(new RegExp(`^<\\?xml[^>]*>\\s*<stagingRepositories><data><stagingProfileRepository>.*${id}`));
    const promote = `<stagingActionRequest><data><stagedRepositoryIds><string>${id}</string></stagedRepositoryIds><description>r</description></data></stagingActionRequest>`;
    expect((await call(api('staging/bulk/promote'), { method: 'POST', auth: sb, headers: xml, body: promote })).status).toBe(201);
    const activity = await call(api(`staging/repository/${id}/activity`), { auth: sb, headers: xml });
    expect(activity.text).toMatch(/<list><stagingActivity><name>open<\/name>.*<stagingActivity><name>close<\/name>.*<stagingActivityEvent><timestamp>[^<]+<\/timestamp><name>rulesPassed<\/name>.*<name>release<\/name>/s);
    expect(activity.text).toContain('<properties><stagingProperty><name>id</name>');
  });

  test('errors are Nexus error documents in the format asked for', async () => {
    const r = await call(api('staging/repository/org.example--nope'), { auth: sb, headers: xml });
    expect(r.status).toBe(404);
    expect(r.text).toContain('<nexus-error><errors><error><id>*</id><msg>No such repository: org.example--nope</msg></error></errors></nexus-error>');
  });
});

describe('ownership, namespaces, drops and faults', () => {
  test("another account's repository is not found by id; a file outside the profile's namespace is refused", async () => {
    const id = await start('com.acme', alice);
    expect((await repository(id, sb)).status).toBe(404);
    const put = await call(api(`staging/deployByRepositoryId/${id}/com/acme/x/1/x-1.pom`), { method: 'PUT', auth: sb, body: 'x' });
    expect(put.status).toBe(404);
    const outside = await call(api(`staging/deployByRepositoryId/${id}/org/other/x/1/x-1.pom`), { method: 'PUT', auth: alice, body: 'x' });
    expect(outside.status).toBe(400);
    expect(outside.text).toContain('File is not associated with an authorized namespace');
  });

  test('dropping an open repository removes it and its files (not_found); the implicit repositories are untouched', async () => {
    const id = await start('org.example.nxd');
    await deploy(id, new Map([['org/example/nxd/a/1/a-1.pom', Buffer.from('x')]]));
    const drop = await call(api('staging/profiles/org.example.nxd/drop'), { method: 'POST', auth: sb, headers: json, body: JSON.stringify({ data: { stagedRepositoryId: id } }) });
    expect(drop.status).toBe(201);
    expect((await repository(id)).status).toBe(404);
    expect((await call(api(`staging/deployByRepositoryId/${id}/org/example/nxd/a/1/a-1.pom`), { auth: sb })).status).toBe(404);
  });

  test('faults injected under /staging/service/local reach these endpoints', async () => {
    expect((await controlCall(sandbox, 'POST', 'faults', JSON.stringify({ prefix: '/staging/service/local/staging/bulk', status: 503 }))).status).toBe(200);
    expect((await call(api('staging/bulk/close'), { method: 'POST', auth: sb, headers: json, body: '{"data":{"stagedRepositoryIds":["x"]}}' })).status).toBe(503);
    expect((await call(api('staging/bulk/close'), { method: 'POST', auth: sb, headers: json, body: '{"data":{"stagedRepositoryIds":["x"]}}' })).status).toBe(404);
  });

  test('a started repository and its files survive a restart', async () => {
    const files = await signedComponent(key, 'org.example.nxr', 'lib', '1.0.0');
    const id = await start('org.example.nxr');
    await deploy(id, files);
    await sandbox.close();
    sandbox = await startSandbox({ dataDir: path.join(tmp.path, 'data'), users: [{ name: 'sandbox', password: 'sandbox' }] });
    expect((await finish('org.example.nxr', id)).status).toBe(201);
    expect(await repository(id).then((r) => r.json())).toMatchObject({ type: 'closed' });
  });
});

describe('other sandbox options', () => {
  test('publishing limits: a close that would exceed one answers 400 naming it, and the repository stays open', async () => {
    const other = await startSandbox({ limits: { files: 2 } });
    try {
      const base = `${other.urls.stagingApiUrl}/service/local/`;
      const started = await call(`${base}staging/profiles/org.example.nxl/start`, { method: 'POST', auth: sb, headers: json, body: '{"data":{"description":"l"}}' });
      const id = started.json().data.stagedRepositoryId as string;
      for (const [p, data] of withChecksums(new Map([['org/example/nxl/lib/1.0.0/lib-1.0.0.pom', Buffer.from(pomXml('org.example.nxl', 'lib', '1.0.0', 'pom'))]]))) {
        expect((await call(`${base}staging/deployByRepositoryId/${id}/${p}`, { method: 'PUT', auth: sb, body: data })).status).toBe(201);
      }
      const close = await call(`${base}staging/profiles/org.example.nxl/finish`, { method: 'POST', auth: sb, headers: json, body: JSON.stringify({ data: { stagedRepositoryId: id } }) });
      expect(close.status).toBe(400);
      expect(close.json().errors[0].msg).toContain("Publishing limit reached for namespace 'org.example.nxl'");
      expect((await call(`${base}staging/repository/${id}`, { auth: sb, headers: json })).json().type).toBe('open');
    } finally {
      await other.close();
    }
  });

  test('with the option, a close publishes at once (the repository is released)', async () => {
    const other = await startSandbox({ closePublishes: true });
    try {
      await publishKeyConfirmed(other, key);
      const files = await signedComponent(key, 'org.example.nxa', 'lib', '1.0.0');
      const base = `${other.urls.stagingApiUrl}/service/local/`;
      const started = await call(`${base}staging/profiles/org.example.nxa/start`, { method: 'POST', auth: sb, headers: json, body: '{"data":{"description":"a"}}' });
      const id = started.json().data.stagedRepositoryId as string;
      for (const [p, data] of files) expect((await call(`${base}staging/deployByRepositoryId/${id}/${p}`, { method: 'PUT', auth: sb, body: data })).status).toBe(201);
      const close = await call(`${base}staging/profiles/org.example.nxa/finish`, { method: 'POST', auth: sb, headers: json, body: JSON.stringify({ data: { stagedRepositoryId: id } }) });
      expect(close.status).toBe(201);
      expect((await call(`${base}staging/repository/${id}`, { auth: sb, headers: json })).json().type).toBe('released');
    } finally {
      await other.close();
    }
  });
});
