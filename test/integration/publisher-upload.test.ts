import { describe, expect, it } from 'vitest';
import { makeZip } from '../helpers/zip.js';
import { bearer, call, publisher, signedComponent, useSandboxWithKey } from './sandbox-fixture.js';

/** The sandbox's Publisher API upload: a zip bundle in, a deployment id out, the staging route's rules and states. */
const w = useSandboxWithKey();

async function upload(
  bundle: Uint8Array | undefined,
  query: string,
  auth: string | null = bearer('sandbox', 'sandbox'),
): Promise<{ status: number; type: string | null; text: string }> {
  const form = new FormData();
  if (bundle !== undefined) form.append('bundle', new Blob([bundle], { type: 'application/octet-stream' }), 'central-bundle.zip');
  const r = await fetch(`${w.sandbox.urls.portalUrl}/api/v1/publisher/upload?${query}`, {
    method: 'POST',
    body: form,
    headers: auth === null ? {} : { authorization: auth },
  });
  return { status: r.status, type: r.headers.get('content-type'), text: await r.text() };
}

async function state(id: string): Promise<{ deploymentState: string; deploymentName: string; errors: Record<string, string[]> }> {
  return (await publisher(w.sandbox, 'POST', `status?id=${id}`)).json();
}

describe('POST /api/v1/publisher/upload', () => {
  it('USER_MANAGED: 201 with the deployment id as text/plain, VALIDATED under the given name, then published', async () => {
    const files = await signedComponent(w.key, 'org.example.pu1', 'lib', '1.0.0');
    const r = await upload(makeZip(files), 'publishingType=USER_MANAGED&name=my%20release');
    expect(r.status).toBe(201);
    expect(r.type).toBe('text/plain');
    expect(r.text).toMatch(/^[0-9a-f-]{36}$/);
    expect(await state(r.text)).toMatchObject({ deploymentState: 'VALIDATED', deploymentName: 'my release' });
    expect((await publisher(w.sandbox, 'POST', `deployment/${r.text}`)).status).toBe(204);
    expect((await state(r.text)).deploymentState).toBe('PUBLISHED');
  });

  it('without publishingType the deployment is USER_MANAGED: it waits VALIDATED, as on the real portal', async () => {
    const files = await signedComponent(w.key, 'org.example.pu0', 'lib', '1.0.0');
    const r = await upload(makeZip(files), 'name=no-type');
    expect(r.status).toBe(201);
    expect(await state(r.text)).toMatchObject({ deploymentState: 'VALIDATED', deploymentName: 'no-type' });
    expect((await call(`${w.sandbox.urls.publicRepoUrl}/org/example/pu0/lib/1.0.0/lib-1.0.0.jar`)).status).toBe(404);
  });

  it("AUTOMATIC publishes at once; the deprecated UserToken scheme (central-publishing-maven-plugin's) is accepted", async () => {
    const files = await signedComponent(w.key, 'org.example.pu2', 'lib', '2.0.0');
    const token = `UserToken ${Buffer.from('sandbox:sandbox').toString('base64')}`;
    const r = await upload(makeZip(files), 'publishingType=AUTOMATIC', token);
    expect(r.status).toBe(201);
    expect((await state(r.text)).deploymentState).toBe('PUBLISHED');
    expect((await call(`${w.sandbox.urls.publicRepoUrl}/org/example/pu2/lib/2.0.0/lib-2.0.0.jar`)).status).toBe(200);
  });

  it('a bundle that breaks a rule: 201, FAILED with the portal text; the next bundle is accepted (the namespace block is the staging route\'s)', async () => {
    const files = await signedComponent(w.key, 'org.example.pu3', 'lib', '1.0.0');
    for (const p of [...files.keys()]) if (p.includes('-javadoc.jar')) files.delete(p);
    const r = await upload(makeZip(files), 'publishingType=USER_MANAGED');
    expect(r.status).toBe(201);
    const s = await state(r.text);
    expect(s.deploymentState).toBe('FAILED');
    expect(Object.values(s.errors).flat()).toContain('Javadocs must be provided but not found in entries');
    const again = await upload(makeZip(await signedComponent(w.key, 'org.example.pu3', 'lib', '1.0.1')), 'publishingType=USER_MANAGED');
    expect(again.status, again.text).toBe(201);
    expect((await state(again.text)).deploymentState).toBe('VALIDATED');
    expect((await publisher(w.sandbox, 'DELETE', `deployment/${r.text}`)).status).toBe(204);
  });

  it('refuses what the portal refuses: no token, a bad publishingType, no bundle part, a bundle that is no zip', async () => {
    const zip = makeZip(await signedComponent(w.key, 'org.example.pu4', 'lib', '1.0.0'));
    expect((await upload(zip, 'publishingType=AUTOMATIC', null)).status).toBe(401);
    const bad = await upload(zip, 'publishingType=LATER');
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('publishingType must be AUTOMATIC or USER_MANAGED');
    expect((await upload(undefined, 'publishingType=AUTOMATIC')).text).toContain('the bundle part (a file) is missing');
    const notZip = await upload(Buffer.from('not a zip'), 'publishingType=AUTOMATIC');
    expect(notZip.status).toBe(400);
    expect(notZip.text).toContain('the bundle is not a valid zip file');
    const plain = await call(`${w.sandbox.urls.portalUrl}/api/v1/publisher/upload?publishingType=AUTOMATIC`, { method: 'POST', auth: bearer('sandbox', 'sandbox'), body: 'x' });
    expect(plain.status).toBe(400);
  });
});
