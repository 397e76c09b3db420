import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startSandbox } from '../../src/sandbox/server.js';
import { createTestKey, type TestKey } from '../helpers/gpg.js';
import { tempDir, writeTree, type TempDir } from '../helpers/temp.js';
import {
  call,
  manualUpload,
  pomXml,
  publishKeyConfirmed,
  publisher,
  putAll,
  signAll,
  signedComponent,
  withChecksums,
} from './sandbox-fixture.js';

/** --seed-repo (parents and existing versions) and a restart keeping deployments and keys. */
let tmp: TempDir;
let key: TestKey;

beforeAll(async () => {
  tmp = await tempDir('relctl-sbpersist-');
  key = await createTestKey();
  // A seeded parent carrying all the metadata, and a version that already exists.
  const parent = pomXml('org.seeded', 'seeded-parent', '3', 'pom');
  await writeTree(path.join(tmp.path, 'seed'), {
    'org/seeded/seeded-parent/3/seeded-parent-3.pom': parent,
    'org/seeded/lib/1.0.0/lib-1.0.0.pom': pomXml('org.seeded', 'lib', '1.0.0'),
  });
});
afterAll(async () => {
  await key?.cleanup();
  await tmp?.[Symbol.asyncDispose]();
});

test('the seed repository serves parents for validation and makes existing versions "already exist"', async () => {
  const sandbox = await startSandbox({ seedRepo: path.join(tmp.path, 'seed') });
  try {
    await publishKeyConfirmed(sandbox, key);
    expect((await call(`${sandbox.urls.publicRepoUrl}/org/seeded/seeded-parent/3/seeded-parent-3.pom`)).text).toContain('<artifactId>seeded-parent</artifactId>');

    // A child POM with only coordinates and a name (never inherited): the rest comes from the seeded parent.
    const dir = 'org/seeded/child/2.0.0/child-2.0.0';
    const child = `<project><modelVersion>4.0.0</modelVersion>
  <parent><groupId>org.seeded</groupId><artifactId>seeded-parent</artifactId><version>3</version></parent>
  <artifactId>child</artifactId><version>2.0.0</version><packaging>pom</packaging><name>child</name></project>`;
    expect(await putAll(sandbox, withChecksums(await signAll(new Map([[`${dir}.pom`, Buffer.from(child)]]), key)))).toEqual([]);
    const inherited = await manualUpload(sandbox, 'org.seeded');
    expect(inherited.status, inherited.text).toBe(200);

    expect(await putAll(sandbox, await signedComponent(key, 'org.seeded', 'lib', '1.0.0'))).toEqual([]);
    const existing = await manualUpload(sandbox, 'org.seeded');
    expect(existing.status).toBe(400);
    expect(existing.json().error).toContain("Component with package url: 'pkg:maven/org.seeded/lib@1.0.0' already exists");
  } finally {
    await sandbox.close();
  }
});

test('with a data folder, deployments, keys and published files survive a restart', async () => {
  const dataDir = path.join(tmp.path, 'data');
  const first = await startSandbox({ dataDir });
  await publishKeyConfirmed(first, key);
  expect(await putAll(first, await signedComponent(key, 'net.kept', 'one', '1.0.0'))).toEqual([]);
  const validated = (await manualUpload(first, 'net.kept')).json().deploymentId as string;
  await first.close();

  const second = await startSandbox({ dataDir });
  try {
    expect((await publisher(second, 'POST', `status?id=${validated}`)).json().deploymentState).toBe('VALIDATED');
    expect((await call(`${second.urls.keyserverUrl}/vks/v1/by-email/${encodeURIComponent(key.email)}`)).status).toBe(200);
    expect((await publisher(second, 'POST', `deployment/${validated}`)).status).toBe(204);
  } finally {
    await second.close();
  }

  const third = await startSandbox({ dataDir });
  try {
    expect((await publisher(third, 'POST', `status?id=${validated}`)).json().deploymentState).toBe('PUBLISHED');
    expect((await call(`${third.urls.publicRepoUrl}/net/kept/one/1.0.0/one-1.0.0.jar`)).text).toBe('jar of one');
  } finally {
    await third.close();
  }
});
