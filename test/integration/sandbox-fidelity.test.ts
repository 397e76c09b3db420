import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../src/sandbox/server.js';
import { runCli } from '../helpers/cli.js';
import { createTestKey, type TestKey } from '../helpers/gpg.js';
import { component, components, signerOf, status, type Signer } from './sandbox-hardening-fixture.js';
import { call, manualUpload, publishKeyConfirmed, publisher, putAll } from './sandbox-fixture.js';

/** Behaviours the portal research settled (reference/portal-api.md §A3, §D, §D2). */
let key: TestKey;
let sign: Signer;
const running: RunningSandbox[] = [];

beforeAll(async () => {
  key = await createTestKey();
  sign = await signerOf(key);
});
afterAll(async () => {
  for (const s of running) await s.close();
  await key?.cleanup();
});

async function sandboxWith(options: SandboxOptions): Promise<RunningSandbox> {
  const s = await startSandbox(options);
  running.push(s);
  return s;
}

/** Uploads the key to the primary server without following the confirmation mail. */
async function uploadUnconfirmed(sandbox: RunningSandbox): Promise<void> {
  const r = await call(`${sandbox.urls.keyserverUrl}/vks/v1/upload`, {
    method: 'POST',
    body: JSON.stringify({ keytext: key.armoredPublicKey }),
    headers: { 'content-type': 'application/json' },
  });
  expect(r.status).toBe(200);
}

describe('a key whose address was never confirmed', () => {
  test('is served without user ids and does not validate signatures', async () => {
    const sandbox = await sandboxWith({});
    await uploadUnconfirmed(sandbox);
    const served = await call(`${sandbox.urls.keyserverUrl}/vks/v1/by-fingerprint/${key.fingerprint}`);
    expect(served.status).toBe(200);
    expect(served.text).not.toContain(key.email);
    expect(await putAll(sandbox, await component(sign, 'org.unconfirmed', 'lib', '1.0.0'))).toEqual([]);
    const reply = await manualUpload(sandbox, 'org.unconfirmed');
    expect(reply.status).toBe(400);
    expect(reply.json().error).toContain(
      'Invalid signature for file: lib-1.0.0.jar.asc - Could not find a public key by the key fingerprint. Please ensure it is uploaded to one of the PGP servers we support.',
    );
  });

  test('validates with --accept-unconfirmed-keys (and, without it, once the address is confirmed)', async () => {
    const lenient = await sandboxWith({ acceptUnconfirmedKeys: true });
    await uploadUnconfirmed(lenient);
    expect(await putAll(lenient, await component(sign, 'org.lenient', 'lib', '1.0.0'))).toEqual([]);
    expect((await manualUpload(lenient, 'org.lenient')).status).toBe(200);

    const strict = await sandboxWith({});
    await publishKeyConfirmed(strict, key);
    expect(await putAll(strict, await component(sign, 'org.confirmed', 'lib', '1.0.0'))).toEqual([]);
    expect((await manualUpload(strict, 'org.confirmed')).status).toBe(200);
  });

  test('relctl sandbox --help shows the switch, the control token and the limits', async () => {
    const help = await runCli(['sandbox', '--help']);
    expect(help.exitCode).toBe(0);
    for (const option of ['--accept-unconfirmed-keys', '--control-token <token>', '--limits <spec>', '--close-publishes']) expect(help.stdout).toContain(option);
  });
});

describe('publishing limits per organization (an account\'s namespaces) and month', () => {
  test('are off by default', async () => {
    const sandbox = await sandboxWith({});
    await publishKeyConfirmed(sandbox, key);
    for (const v of ['1.0.0', '1.0.1', '1.0.2', '1.0.3']) {
      expect(await putAll(sandbox, await component(sign, 'org.free', 'lib', v))).toEqual([]);
      expect((await manualUpload(sandbox, 'org.free', { type: 'automatic' })).status).toBe(200);
    }
  });

  test('refuse the release that would exceed them with a 400 naming the limit, counting all the organization\'s namespaces', async () => {
    const sandbox = await sandboxWith({ limits: { releases: 2, files: 40 } });
    await publishKeyConfirmed(sandbox, key);
    for (const v of ['1.0.0', '1.0.1']) {
      expect(await putAll(sandbox, await component(sign, 'org.capped', 'lib', v))).toEqual([]);
      expect((await manualUpload(sandbox, 'org.capped', { type: 'automatic' })).status).toBe(200);
    }
    expect(await putAll(sandbox, await component(sign, 'org.capped', 'lib', '1.0.2'))).toEqual([]);
    const third = await manualUpload(sandbox, 'org.capped', { type: 'automatic' });
    const month = new Date().toISOString().slice(0, 7);
    expect([third.status, third.json()]).toEqual([
      400,
      {
        error: `Failed to process request: Publishing limit reached for namespace 'org.capped' in ${month} (its organization's namespaces together): 2 of 2 releases used, this deployment needs 1 more. Usage resets at the start of next month.`,
      },
    ]);
    // The repository stays open: the release can go once usage resets (or the limit is lifted).
    const open = await call(`${sandbox.urls.stagingApiUrl}/manual/search/repositories?ip=any&profile_id=org.capped&state=open`, {
      auth: `Bearer ${Buffer.from('sandbox:sandbox').toString('base64')}`,
    });
    expect(open.json().repositories).toHaveLength(1);

    // Another namespace of the same account is the same organization: its releases are used up too.
    expect(await putAll(sandbox, await component(sign, 'org.sibling', 'lib', '1.0.0'))).toEqual([]);
    const sibling = await manualUpload(sandbox, 'org.sibling', { type: 'automatic' });
    expect(sibling.status).toBe(400);
    expect(sibling.json().error).toContain("Publishing limit reached for namespace 'org.sibling'");
    expect(sibling.json().error).toContain('2 of 2 releases used');
  });

  test('count files too: a deployment over the files limit is refused, a small one publishes', async () => {
    const sandbox = await sandboxWith({ limits: { files: 40 } });
    await publishKeyConfirmed(sandbox, key);
    // 4 components are 64 files.
    expect(await putAll(sandbox, await components(sign, 'org.big', 4))).toEqual([]);
    const big = await manualUpload(sandbox, 'org.big');
    expect(big.status).toBe(400);
    expect(big.json().error).toContain("Publishing limit reached for namespace 'org.big'");
    expect(big.json().error).toContain('0 of 40 files used, this deployment needs 64 more');
    expect(await putAll(sandbox, await components(sign, 'org.small', 1))).toEqual([]);
    const small = await manualUpload(sandbox, 'org.small');
    expect(small.status, small.text).toBe(200);
    const id = small.json().deploymentId as string;
    expect((await publisher(sandbox, 'POST', `deployment/${id}`)).status).toBe(204);
    expect((await status(sandbox, id)).deploymentState).toBe('PUBLISHED');
  });

  test('a malformed --limits is a usage error (exit 2)', async () => {
    for (const spec of ['files=many', 'bytes=15XB', 'weeks=3', '']) {
      const r = await runCli(['sandbox', '--port', '0', '--limits', spec]);
      expect(r.exitCode, spec).toBe(2);
      expect(r.stderr, spec).toContain('--limits');
    }
  });
});
