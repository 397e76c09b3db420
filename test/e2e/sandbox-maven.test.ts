import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { createTestKey, type TestKey } from '../helpers/gpg.js';
import { altDeployment, copyExample, runMaven, writeMavenSettings, type MavenResult } from '../helpers/maven.js';
import { tempDir, type TempDir } from '../helpers/temp.js';
import {
  basic,
  call,
  deployUrl,
  manualUpload,
  publishKeyConfirmed,
  publisher,
  putAll,
  signAll,
  withChecksums,
  type Reply,
} from '../integration/sandbox-fixture.js';

/**
 * Real Maven (Debian's plugins, offline) and real gpg against the sandbox: the example project
 * deployed, validated and published, then broken one rule at a time (issue 3, "Real clients").
 */
let tmp: TempDir;
let key: TestKey;
let sandbox: RunningSandbox;
let settings: string;
// The sandbox's default user holds the groupId's reverse domain, as a verified namespace (issue 42 item 1).
const ns = 'org.example';
/** The demo's groupId, below the namespace: what purls and the Publisher API's `published` name. */
const groupId = 'org.example.relctl';
const g = 'org/example/relctl';
const demo = (a: string, file: string): string => `${g}/${a}/1.0.0/${file}`;

async function deploy(project: string, settingsFile = settings): Promise<MavenResult> {
  const dir = await copyExample(project, path.join(tmp.path, `${project}-${Date.now()}`));
  return runMaven(['-Pgpg-cli', `-Dgpg.keyname=${key.fingerprint}`, altDeployment(sandbox.urls.stagingApiUrl), 'deploy'], {
    cwd: dir,
    settings: settingsFile,
    env: key.env,
  });
}

/** The files of the open staging repository, fetched back as the deploy client sees them. */
async function stagedFiles(): Promise<Map<string, Uint8Array>> {
  const files = new Map<string, Uint8Array>();
  for (const p of [
    ...['relctl-demo-1.0.0.pom'].map((f) => demo('relctl-demo', f)),
    ...['.pom', '.jar', '-sources.jar', '-javadoc.jar'].map((s) => demo('relctl-demo-core', `relctl-demo-core-1.0.0${s}`)),
    ...['.pom', '.war', '-sources.jar', '-javadoc.jar'].map((s) => demo('relctl-demo-webapp', `relctl-demo-webapp-1.0.0${s}`)),
  ]) {
    for (const ext of ['', '.md5', '.sha1', '.asc']) {
      const r = await call(deployUrl(sandbox, p + ext), { auth: basic('sandbox', 'sandbox') });
      expect(r.status, p + ext).toBe(200);
      files.set(p + ext, r.bytes);
    }
  }
  return files;
}

/** PUTs a variant of the deployment and asks for the manual upload; drops what it created. */
async function tryVariant(files: Map<string, Uint8Array>): Promise<Reply> {
  expect(await putAll(sandbox, files)).toEqual([]);
  const reply = await manualUpload(sandbox, ns);
  const id = reply.json().deploymentId as string | undefined;
  if (id !== undefined) expect((await publisher(sandbox, 'DELETE', `deployment/${id}`)).status).toBe(204);
  return reply;
}

beforeAll(async () => {
  tmp = await tempDir('relctl-sbmvn-');
  key = await createTestKey();
  sandbox = await startSandbox({ dataDir: path.join(tmp.path, 'data') });
  settings = await writeMavenSettings(path.join(tmp.path, 'settings.xml'), { username: 'sandbox', password: 'sandbox' });
});
afterAll(async () => {
  await sandbox?.close();
  await key?.cleanup();
  await tmp?.[Symbol.asyncDispose]();
});

describe.sequential('real Maven against the sandbox', { timeout: 240_000 }, () => {
  let validatedId = '';
  let base = new Map<string, Uint8Array>();

  test('the signing key is uploaded to the primary key server and confirmed through the mailed link', async () => {
    expect((await call(`${sandbox.urls.keyserverUrl}/vks/v1/by-fingerprint/${key.fingerprint}`)).status).toBe(404);
    await publishKeyConfirmed(sandbox, key);
    const byFpr = await call(`${sandbox.urls.keyserverUrl}/vks/v1/by-fingerprint/${key.fingerprint}`);
    expect(byFpr.status).toBe(200);
    expect(byFpr.text).toContain('BEGIN PGP PUBLIC KEY BLOCK');
    expect((await call(`${sandbox.urls.keyserverUrl}/vks/v1/by-email/${encodeURIComponent(key.email)}`)).status).toBe(200);
  });

  test('a project without developers uploads, then the manual upload fails with the coordinate and the text', async () => {
    const mvn = await deploy('missing-developers');
    expect(mvn.exitCode, mvn.output).toBe(0);
    const reply = await manualUpload(sandbox, ns);
    expect(reply.status).toBe(400);
    expect(reply.json().error).toMatch(/^Deployment reached an unexpected status: Failed\n- pkg:maven\/org\.example\.relctl\/relctl-demo@1\.0\.0\n {2}- Developers information is missing\n/);
    expect(reply.json().error).toContain('- pkg:maven/org.example.relctl/relctl-demo-webapp@1.0.0\n  - Developers information is missing');
    validatedId = reply.json().deploymentId;
  });

  test('the failed deployment makes the next Maven deploy fail with the closed/failed 400 until it is dropped', async () => {
    const blocked = await deploy('demo');
    expect(blocked.exitCode).not.toBe(0);
    expect(blocked.output).toMatch(/status: 400|400 Bad Request/);
    const put = await call(deployUrl(sandbox, demo('relctl-demo', 'relctl-demo-1.0.0.pom')), { method: 'PUT', auth: basic('sandbox', 'sandbox'), body: 'x' });
    expect(put.json().error).toContain(`is in state closed/failed: deployment ${validatedId} failed validation and must be dropped before a new release can be made`);
    expect((await publisher(sandbox, 'DELETE', `deployment/${validatedId}`)).status).toBe(204);

    const mvn = await deploy('demo');
    expect(mvn.exitCode, mvn.output).toBe(0);
    base = await stagedFiles();
  });

  test('a manual upload from another address (127.0.0.2) finds no repository', async () => {
    const reply = await manualUpload(sandbox, ns, { from: '127.0.0.2' });
    expect(reply.status).toBe(400);
    expect(reply.json()).toEqual({ error: `Failed to process request: No repository found for sandbox/127.0.0.2/${ns}--default-repository` });
  });

  test('the manual upload validates the signed parent, jar and war', async () => {
    const reply = await manualUpload(sandbox, ns);
    expect(reply.status, reply.text).toBe(200);
    validatedId = reply.json().deploymentId;
    const status = (await publisher(sandbox, 'POST', `status?id=${validatedId}`)).json();
    expect(status.deploymentState).toBe('VALIDATED');
    expect(status.purls.sort()).toEqual([`pkg:maven/${groupId}/relctl-demo-core@1.0.0`, `pkg:maven/${groupId}/relctl-demo-webapp@1.0.0`, `pkg:maven/${groupId}/relctl-demo@1.0.0`]);
  });

  test('broken one rule at a time, each deployment fails with the real text', async () => {
    const webPom = demo('relctl-demo-webapp', 'relctl-demo-webapp-1.0.0.pom');
    const asJar = new Map(base);
    asJar.set(webPom, Buffer.from(Buffer.from(base.get(webPom)!).toString('utf8').replace('<packaging>war</packaging>', '<packaging>jar</packaging>')));
    for (const k of [...asJar.keys()]) if (k.startsWith(webPom) && k !== webPom) asJar.delete(k);
    const packaging = await tryVariant(withChecksums(await signAll(asJar, key)));
    expect(packaging.json().error).toContain(`- pkg:maven/${groupId}/relctl-demo-webapp@1.0.0\n  - Packaging 'jar' does not match the main artifact of the component: expected relctl-demo-webapp-1.0.0.jar`);

    const noAsc = new Map(base);
    noAsc.delete(demo('relctl-demo-core', 'relctl-demo-core-1.0.0.jar.asc'));
    expect((await tryVariant(noAsc)).json().error).toContain('  - Missing signature for file: relctl-demo-core-1.0.0.jar');

    const badSum = new Map(base);
    badSum.set(demo('relctl-demo-core', 'relctl-demo-core-1.0.0.jar.sha1'), Buffer.from('0'.repeat(40)));
    expect((await tryVariant(badSum)).json().error).toContain('  - Invalid sha1 checksum for file: relctl-demo-core-1.0.0.jar');

    await using stranger = await createTestKey();
    const unknown = (await tryVariant(await signAll(new Map(base), stranger))).json().error as string;
    expect(unknown).toContain(
      'Invalid signature for file: relctl-demo-core-1.0.0.jar.asc - Could not find a public key by the key fingerprint. Please ensure it is uploaded to one of the PGP servers we support.',
    );
  });

  test('a key only on the secondary key server passes once, then fails with "Could not find a public key"', async () => {
    await using secondary = await createTestKey();
    const sent = await call(`${sandbox.urls.secondaryKeyserverUrl}/pks/add`, {
      method: 'POST',
      body: new URLSearchParams({ keytext: secondary.armoredPublicKey }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(sent.status).toBe(200);
    const files = await signAll(new Map(base), secondary);
    const first = await tryVariant(files);
    expect(first.status, first.text).toBe(200);
    const second = await tryVariant(files);
    expect(second.status).toBe(400);
    expect(second.json().error).toContain('Could not find a public key by the key fingerprint');
  });

  test('publishing makes the files appear in the public repository; the same version again "already exists"', async () => {
    expect((await publisher(sandbox, 'POST', `deployment/${validatedId}`)).status).toBe(204);
    expect((await publisher(sandbox, 'POST', `status?id=${validatedId}`)).json().deploymentState).toBe('PUBLISHED');
    for (const p of [demo('relctl-demo-core', 'relctl-demo-core-1.0.0.jar'), demo('relctl-demo-webapp', 'relctl-demo-webapp-1.0.0.war.asc')]) {
      const r = await call(`${sandbox.urls.publicRepoUrl}/${p}`);
      expect(r.status).toBe(200);
      expect(r.bytes.equals(Buffer.from(base.get(p)!))).toBe(true);
    }
    expect((await publisher(sandbox, 'GET', `published?namespace=${groupId}&name=relctl-demo-core&version=1.0.0`)).json()).toEqual({ published: true });
    const again = await tryVariant(new Map(base));
    expect(again.json().error).toContain(`  - Component with package url: 'pkg:maven/${groupId}/relctl-demo-core@1.0.0' already exists`);
  });

  test('a wrong token makes Maven fail with 401', async () => {
    const wrong = await writeMavenSettings(path.join(tmp.path, 'wrong.xml'), { username: 'sandbox', password: 'not-the-token' });
    const mvn = await deploy('demo', wrong);
    expect(mvn.exitCode).not.toBe(0);
    expect(mvn.output).toMatch(/authentication failed|401/i);
  });
});
