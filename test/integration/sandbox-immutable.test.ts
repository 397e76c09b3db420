import { beforeAll, describe, expect, test } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { component, publicFile, signerOf, status, type Signer } from './sandbox-hardening-fixture.js';
import { basic, call, manualUpload, publisher, putAll, useSandboxWithKey } from './sandbox-fixture.js';

/**
 * Published files are immutable, as on Maven Central (DESIGN §8, issue 37 item 2): of two
 * deployments of one version, both validated before either was published, the second publish is
 * refused with the portal's `already exists` error, and the public repository keeps the first's
 * bytes. Reached through the Publisher API, concurrently, and through the Nexus 2 promote.
 */
const world = useSandboxWithKey();
let sign: Signer;
beforeAll(async () => {
  sign = await signerOf(world.key);
});

const exists = (g: string, a: string, v: string): string => `Component with package url: 'pkg:maven/${g}/${a}@${v}' already exists`;

/** One version of `g:lib:1.0.0` whose jars are `jarBytes` long, so two of them differ byte for byte. */
const version = (g: string, jarBytes: number): Promise<Map<string, Uint8Array>> => component(sign, g, 'lib', '1.0.0', jarBytes);

/**
 * Uploads the files by PUT, then the manual upload call of their namespace: a VALIDATED
 * deployment's id. The default account holds a groupId's reverse domain (org.immseq for
 * org.immseq.lib), one per test, so one test's FAILED deployment blocks no other's namespace.
 */
async function validated(sandbox: RunningSandbox, namespace: string, files: ReadonlyMap<string, Uint8Array>): Promise<string> {
  expect(await putAll(sandbox, files)).toEqual([]);
  const r = await manualUpload(sandbox, namespace);
  expect(r.status, r.text).toBe(200);
  const id = r.json().deploymentId as string;
  expect((await status(sandbox, id)).deploymentState).toBe('VALIDATED');
  return id;
}

/** Every file of `files` is in the public repository with exactly these bytes. */
async function expectPublic(sandbox: RunningSandbox, files: ReadonlyMap<string, Uint8Array>): Promise<void> {
  for (const [p, data] of files) expect((await publicFile(sandbox, p)).bytes, p).toEqual(Buffer.from(data));
}

describe('a version is published once', () => {
  test('Publisher API: the second publish of a version ends FAILED with "already exists"; the first one\'s files stay', async () => {
    const { sandbox } = world;
    const [a, b] = [await version('org.immseq.lib', 64), await version('org.immseq.lib', 65)];
    const first = await validated(sandbox, 'org.immseq', a);
    const second = await validated(sandbox, 'org.immseq', b);
    expect((await publisher(sandbox, 'POST', `deployment/${first}`)).status).toBe(204);
    expect((await status(sandbox, first)).deploymentState).toBe('PUBLISHED');

    // As on the portal, the publish call is accepted and the deployment fails.
    expect((await publisher(sandbox, 'POST', `deployment/${second}`)).status).toBe(204);
    expect(await status(sandbox, second)).toMatchObject({
      deploymentState: 'FAILED',
      errors: { 'pkg:maven/org.immseq.lib/lib@1.0.0': [exists('org.immseq.lib', 'lib', '1.0.0')] },
    });
    await expectPublic(sandbox, a);
  });

  test('two concurrent publishes of one version: one PUBLISHED, one FAILED, and the public files are all the winner\'s', async () => {
    const { sandbox } = world;
    const bundles = [await version('org.immrace.lib', 64), await version('org.immrace.lib', 65)];
    const ids = [await validated(sandbox, 'org.immrace', bundles[0]!), await validated(sandbox, 'org.immrace', bundles[1]!)];
    const replies = await Promise.all(ids.map((id) => publisher(sandbox, 'POST', `deployment/${id}`)));
    expect(replies.map((r) => r.status)).toEqual([204, 204]);
    const states = await Promise.all(ids.map(async (id) => (await status(sandbox, id)).deploymentState));
    expect([...states].sort()).toEqual(['FAILED', 'PUBLISHED']);
    await expectPublic(sandbox, bundles[states.indexOf('PUBLISHED')]!);
  });
});

describe('Nexus 2: promote of a version already published', () => {
  const api = (p: string): string => `${world.sandbox.urls.stagingApiUrl}/service/local/${p}`;
  const sb = basic('sandbox', 'sandbox');
  const json = { accept: 'application/json', 'content-type': 'application/json' };
  const post = (p: string, data: Record<string, unknown>): ReturnType<typeof call> =>
    call(api(p), { method: 'POST', auth: sb, headers: json, body: JSON.stringify({ data }) });

  const failureText = (g: string): string => `Deployment reached an unexpected status: Failed\n- pkg:maven/${g}/lib@1.0.0\n  - ${exists(g, 'lib', '1.0.0')}`;

  /** start, deploy by id, finish: a closed repository with a VALIDATED deployment. */
  async function closed(profile: string, files: ReadonlyMap<string, Uint8Array>): Promise<string> {
    const id = (await post(`staging/profiles/${profile}/start`, { description: 'immutable' })).json().data.stagedRepositoryId as string;
    for (const [p, data] of files) expect((await call(api(`staging/deployByRepositoryId/${id}/${p}`), { method: 'PUT', auth: sb, body: data })).status).toBe(201);
    expect((await post(`staging/profiles/${profile}/finish`, { stagedRepositoryId: id })).status).toBe(201);
    expect((await call(api(`staging/repository/${id}`), { auth: sb, headers: json })).json().type).toBe('closed');
    return id;
  }

  test('the second promote answers 400 with the portal failure text, its activity names the component, the first one\'s files stay', async () => {
    const [a, b] = [await version('org.imm.nx', 64), await version('org.imm.nx', 65)];
    const first = await closed('org.imm.nx', a);
    const second = await closed('org.imm.nx', b);
    expect((await post('staging/bulk/promote', { stagedRepositoryIds: [first] })).status).toBe(201);

    const refused = await post('staging/bulk/promote', { stagedRepositoryIds: [second] });
    expect(refused.status).toBe(400);
    expect(refused.json().errors[0].msg).toBe(failureText('org.imm.nx'));
    const activity = (await call(api(`staging/repository/${second}/activity`), { auth: sb, headers: json })).json() as { name: string; events: { name: string; properties: { value: string }[] }[] }[];
    const release = activity.find((x) => x.name === 'release');
    expect(release?.events.find((e) => e.name === 'ruleFailed')?.properties.map((p) => p.value)).toEqual([
      'pkg:maven/org.imm.nx/lib@1.0.0',
      exists('org.imm.nx', 'lib', '1.0.0'),
    ]);
    expect((await call(api(`staging/repository/${second}`), { auth: sb, headers: json })).json().type).not.toBe('released');
    await expectPublic(world.sandbox, a);
  });

  test('concurrent promotes of one version through two namespaces (org.imm.two and org.imm.two.lib): one is refused with "already exists"', async () => {
    const bundles = [await version('org.imm.two.lib', 64), await version('org.imm.two.lib', 65)];
    const ids = [await closed('org.imm.two', bundles[0]!), await closed('org.imm.two.lib', bundles[1]!)];
    const replies = await Promise.all(ids.map((id) => post('staging/bulk/promote', { stagedRepositoryIds: [id] })));
    expect(replies.map((r) => r.status).sort()).toEqual([201, 400]);
    expect(replies.find((r) => r.status === 400)!.json().errors[0].msg).toBe(failureText('org.imm.two.lib'));
    await expectPublic(world.sandbox, bundles[replies.findIndex((r) => r.status === 201)]!);
  });
});
