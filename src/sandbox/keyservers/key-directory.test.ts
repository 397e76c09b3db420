import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import * as openpgp from 'openpgp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestKey, type TestKey } from '../../../test/helpers/gpg.js';
import { createSignatureVerifier } from '../../keys/signature-verifier.js';
import { handleHkp } from './hkp-routes.js';
import { KeyDirectory } from './index.js';
import { handleVks } from './vks-routes.js';

/** A real HTTP server on loopback routing /keys and /keys2 to the directory, as the sandbox mounts it. */
async function serve(dir: () => KeyDirectory): Promise<{ server: Server; base: string }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const url = req.url ?? '/';
      const port = (server.address() as AddressInfo).port;
      const handled = url.startsWith('/keys2/')
        ? handleHkp(dir(), req, res, url.slice('/keys2'.length), body)
        : handleVks(dir(), req, res, url.slice('/keys'.length), body, `http://127.0.0.1:${port}/keys`);
      handled.catch((error: unknown) => {
        res.writeHead(500).end(String(error));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

let key: TestKey;
let other: TestKey;
let directory: KeyDirectory;
let changes = 0;
let server: Server;
let base: string;

beforeAll(async () => {
  [key, other] = await Promise.all([createTestKey(), createTestKey()]);
  directory = new KeyDirectory();
  directory.onChange = () => changes++;
  ({ server, base } = await serve(() => directory));
}, 60_000);

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await key?.cleanup();
  await other?.cleanup();
});

const postJson = (url: string, value: unknown): Promise<Response> => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(value) });
const postForm = (url: string, fields: Record<string, string>): Promise<Response> =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });
const userIdsOf = async (armored: string): Promise<string[]> => (await openpgp.readKey({ armoredKey: armored })).users.map((u) => u.userID?.email ?? '?');

describe('primary key server (VKS)', () => {
  it('publishes by fingerprint at once, by address only after the mailed link is followed', async () => {
    const byFpr = `${base}/keys/vks/v1/by-fingerprint/${key.fingerprint}`;
    expect((await fetch(byFpr)).status).toBe(404);

    const upload = await postJson(`${base}/keys/vks/v1/upload`, { keytext: key.armoredPublicKey });
    const uploaded = (await upload.json()) as { key_fpr: string; token: string; status: Record<string, string> };
    expect(upload.status).toBe(200);
    expect(uploaded).toMatchObject({ key_fpr: key.fingerprint, status: { [key.email]: 'unpublished' } });

    const served = await fetch(byFpr);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('application/pgp-keys');
    expect(await userIdsOf(await served.text())).toEqual([]); // no confirmed address: no user id served
    expect((await fetch(`${base}/keys/vks/v1/by-keyid/${key.keyId}`)).status).toBe(200);
    const byEmail = `${base}/keys/vks/v1/by-email/${encodeURIComponent(key.email)}`;
    expect((await fetch(byEmail)).status).toBe(404);

    const verify = await postJson(`${base}/keys/vks/v1/request-verify`, { token: uploaded.token, addresses: [key.email] });
    expect(await verify.json()).toMatchObject({ key_fpr: key.fingerprint, status: { [key.email]: 'pending' } });
    const mail = directory.mails().find((m) => m.to === key.email)!;
    expect(mail.link).toMatch(new RegExp(`^${base}/keys/verify/[0-9a-f]+$`));
    expect(mail.subject).toContain(key.email);

    const confirmed = await fetch(mail.link);
    expect(confirmed.status).toBe(200);
    expect(await confirmed.text()).toContain(key.email);
    expect((await fetch(mail.link)).status).toBe(404); // a used link is spent
    const found = await fetch(byEmail);
    expect(found.status).toBe(200);
    expect(await userIdsOf(await found.text())).toEqual([key.email]);
    expect(await userIdsOf(await (await fetch(byFpr)).text())).toEqual([key.email]);
    const status = await postJson(`${base}/keys/vks/v1/upload`, { keytext: key.armoredPublicKey });
    expect(((await status.json()) as { status: object }).status).toEqual({ [key.email]: 'published' });
  });

  it('refuses malformed lookups with 400 and a plain-text reason', async () => {
    for (const bad of [key.fingerprint.toLowerCase(), `0x${key.fingerprint}`, 'XYZ']) {
      const res = await fetch(`${base}/keys/vks/v1/by-fingerprint/${bad}`);
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(await res.text()).toMatch(/uppercase, without a 0x prefix/);
    }
    expect((await fetch(`${base}/keys/vks/v1/by-keyid/${key.keyId.toLowerCase()}`)).status).toBe(400);
    expect((await fetch(`${base}/keys/vks/v1/by-email/%E0%A4%A`)).status).toBe(400);
    expect((await fetch(`${base}/keys/verify/%E0%A4%A`)).status).toBe(404);
    expect((await fetch(`${base}/keys/vks/v1/upload`)).status).toBe(405);
  });

  it('refuses private keys, garbage and bad JSON with 400 {"error"}, and takes base64 binary keys', async () => {
    const secret = await key.gpg(['--armor', '--export-secret-keys', key.fingerprint]);
    for (const body of [{ keytext: secret }, { keytext: 'hello' }, { keytext: '' }, {}]) {
      const res = await postJson(`${base}/keys/vks/v1/upload`, body);
      expect(res.status).toBe(400);
      expect(typeof ((await res.json()) as { error: unknown }).error).toBe('string');
    }
    const notJson = await fetch(`${base}/keys/vks/v1/upload`, { method: 'POST', body: '{nope' });
    expect(notJson.status).toBe(400);
    expect(((await postJson(`${base}/keys/vks/v1/request-verify`, { token: 'nope', addresses: [] })).status)).toBe(400);

    const binary = await openpgp.readKey({ armoredKey: other.armoredPublicKey });
    const res = await postJson(`${base}/keys/vks/v1/upload`, { keytext: Buffer.from(binary.write()).toString('base64') });
    expect(await res.json()).toMatchObject({ key_fpr: other.fingerprint });
  });

  it('offers the web form, and its result page requests the verification mail', async () => {
    const form = await (await fetch(`${base}/keys/upload`)).text();
    expect(form).toMatch(/<form method="post" action="http:\/\/127\.0\.0\.1:\d+\/keys\/upload"/);
    expect(form).toContain('name="keytext"');
    const result = await postForm(`${base}/keys/upload`, { keytext: other.armoredPublicKey });
    const html = await result.text();
    expect(result.status).toBe(200);
    expect(html).toContain(other.fingerprint);
    expect(html).toContain('Send verification email');
    const token = /name="token" value="([0-9a-f]+)"/.exec(html)![1]!;
    const sent = await postForm(`${base}/keys/upload/request-verify`, { token, address: other.email });
    expect(await sent.text()).toContain('Verification email sent');
    expect(directory.mails().some((m) => m.to === other.email)).toBe(true);
    const garbage = await postForm(`${base}/keys/upload`, { keytext: 'not a key' });
    expect(garbage.status).toBe(400);
  });

  it('refuses the legacy key-server protocol', async () => {
    const res = await postForm(`${base}/keys/pks/add`, { keytext: key.armoredPublicKey });
    expect(res.status).toBe(403);
    expect(await res.text()).toMatch(/does not accept uploads through the legacy key-server protocol.*\/keys\/upload/);
  });

  it('merges a re-upload: a refreshed expiry is what the server then serves', async () => {
    await key.gpg(['--quick-set-expire', key.fingerprint, '1y']);
    await postJson(`${base}/keys/vks/v1/upload`, { keytext: await key.gpg(['--armor', '--export', key.fingerprint]) });
    await key.gpg(['--quick-set-expire', key.fingerprint, '3y']);
    await postJson(`${base}/keys/vks/v1/upload`, { keytext: await key.gpg(['--armor', '--export', key.fingerprint]) });
    const served = await openpgp.readKey({ armoredKey: await (await fetch(`${base}/keys/vks/v1/by-fingerprint/${key.fingerprint}`)).text() });
    const expiry = (await served.getExpirationTime()) as Date;
    expect(expiry.getTime() - Date.now()).toBeGreaterThan(2.5 * 365 * 86_400_000);
  });
});

describe('secondary key server (HKP) and the pass-once rule', () => {
  it('stores uploads with their user ids and serves them by key id or fingerprint', async () => {
    const add = await postForm(`${base}/keys2/pks/add`, { keytext: other.armoredPublicKey });
    expect(await add.json()).toEqual({ inserted: [other.fingerprint], updated: [], ignored: [] });
    for (const search of [`0x${other.fingerprint}`, `0x${other.keyId}`, other.fingerprint.toLowerCase()]) {
      const res = await fetch(`${base}/keys2/pks/lookup?op=get&options=mr&search=${search}`);
      expect(res.status).toBe(200);
      expect(await userIdsOf(await res.text())).toEqual([other.email]);
    }
    expect((await fetch(`${base}/keys2/pks/lookup?op=get&search=0x${'A'.repeat(40)}`)).status).toBe(404);
    const index = await (await fetch(`${base}/keys2/pks/lookup?op=index&options=mr&search=0x${other.fingerprint}`)).text();
    expect(index).toMatch(new RegExp(`^info:1:1\npub:${other.fingerprint}:22:`));
    expect((await postForm(`${base}/keys2/pks/add`, { keytext: other.armoredPublicKey }).then((r) => r.json()))).toMatchObject({ updated: [other.fingerprint] });
  });

  it('gives a secondary-only key to the first validation that meets it, never again, across a restart', async () => {
    const third = await createTestKey();
    try {
      const file = path.join(third.gnupgHome, 'demo-1.0.0.jar');
      await writeFile(file, 'bytes');
      const data = new Uint8Array(await readFile(file));
      const sig = new Uint8Array(await readFile(await third.sign(file)));
      const verifierFor = (dir: KeyDirectory) => createSignatureVerifier(async (issuer) => dir.keyForValidation(issuer));

      expect(await verifierFor(directory)('f', data, sig)).toEqual({ status: 'no-public-key', keyId: third.keyId });
      await postForm(`${base}/keys2/pks/add`, { keytext: third.armoredPublicKey });
      const before = changes;
      const first = verifierFor(directory);
      expect(await first('f', data, sig)).toEqual({ status: 'valid', fingerprint: third.fingerprint });
      expect(await first('g', data, sig)).toEqual({ status: 'valid', fingerprint: third.fingerprint }); // same validation
      expect(changes).toBeGreaterThan(before);
      expect(await verifierFor(directory)('f', data, sig)).toEqual({ status: 'no-public-key', keyId: third.keyId });
      const restored = KeyDirectory.fromJSON(JSON.parse(JSON.stringify(directory)));
      expect(await verifierFor(restored)('f', data, sig)).toEqual({ status: 'no-public-key', keyId: third.keyId });
      expect(restored.mails()).toEqual(directory.mails());

      // On the primary server but unconfirmed: served without user ids, so it does not validate
      // (unless the sandbox accepts unconfirmed keys); once its address is confirmed, every time.
      const upload = (await (await postJson(`${base}/keys/vks/v1/upload`, { keytext: third.armoredPublicKey })).json()) as { token: string };
      expect(await verifierFor(directory)('f', data, sig)).toEqual({ status: 'no-public-key', keyId: third.keyId });
      const lenient = KeyDirectory.fromJSON(JSON.parse(JSON.stringify(directory)), { acceptUnconfirmed: true });
      expect(await verifierFor(lenient)('f', data, sig)).toEqual({ status: 'valid', fingerprint: third.fingerprint });
      await postJson(`${base}/keys/vks/v1/request-verify`, { token: upload.token, addresses: [third.email] });
      const link = directory.mails().filter((m) => m.to === third.email).pop()!.link;
      expect((await fetch(link)).status).toBe(200);
      for (let i = 0; i < 2; i++) expect(await verifierFor(directory)('f', data, sig)).toEqual({ status: 'valid', fingerprint: third.fingerprint });
    } finally {
      await third.cleanup();
    }
  });
});
