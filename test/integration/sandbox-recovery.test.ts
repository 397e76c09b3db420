import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { execa, type ResultPromise } from 'execa';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { binPath } from '../helpers/cli.js';
import { createTestKey, type TestKey } from '../helpers/gpg.js';
import { tempDir, type TempDir } from '../helpers/temp.js';
import { component, components, publicFile, signerOf, status, type Signer } from './sandbox-hardening-fixture.js';
import { basic, call, deployUrl, manualUpload, publishKeyConfirmed, publisher, putAll } from './sandbox-fixture.js';

/** Failures of the disk and of the process: the sandbox ends in a state it can say and restart from. */
let tmp: TempDir;
let key: TestKey;
let sign: Signer;
const children: ResultPromise[] = [];

beforeAll(async () => {
  tmp = await tempDir('relctl-sbrec-');
  key = await createTestKey();
  sign = await signerOf(key);
});
afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  await key?.cleanup();
  await tmp?.[Symbol.asyncDispose]();
});

const openFds = async (): Promise<number> => (await readdir('/proc/self/fd')).length;

async function validated(sandbox: RunningSandbox, files: Map<string, Uint8Array>, namespace: string): Promise<string> {
  expect(await putAll(sandbox, files)).toEqual([]);
  const reply = await manualUpload(sandbox, namespace);
  expect(reply.status, reply.text).toBe(200);
  return reply.json().deploymentId as string;
}

describe('a publish the disk refuses', () => {
  test('turns FAILED with a common error, and the sandbox restarts on that data folder', async () => {
    const dataDir = path.join(tmp.path, 'refused');
    const lines: string[] = [];
    const first = await startSandbox({ dataDir, log: (l) => lines.push(l) });
    await publishKeyConfirmed(first, key);
    const id = await validated(first, await component(sign, 'org.disk', 'lib', '1.0.0'), 'org.disk');
    // The public folder cannot take the files: a file stands where the group's folder must go
    // (a chmod would not stop root, who runs CI here).
    await writeFile(path.join(dataDir, 'repo', 'org'), 'in the way');
    expect((await publisher(first, 'POST', `deployment/${id}`)).status).toBe(204);
    const failed = await status(first, id);
    expect(failed.deploymentState).toBe('FAILED');
    expect(failed.errors).toEqual({ common: [expect.stringMatching(/^Failed to process deployment: the files could not be written to the repository \(E[A-Z]+\)$/)] });
    await first.close();

    const second = await startSandbox({ dataDir, log: (l) => lines.push(l) });
    try {
      expect((await status(second, id)).deploymentState).toBe('FAILED');
      // Dropping it unblocks the namespace.
      expect((await publisher(second, 'DELETE', `deployment/${id}`)).status).toBe(204);
      expect(lines.filter((l) => /at .*\.js:\d+/.test(l))).toEqual([]);
    } finally {
      await second.close();
    }
  });
});

describe('a data folder of the earlier layout', () => {
  test('keeps its validated deployments: their files move out of the staging log they were left in', async () => {
    const dataDir = path.join(tmp.path, 'legacy');
    const first = await startSandbox({ dataDir });
    await publishKeyConfirmed(first, key);
    const id = await validated(first, await component(sign, 'org.legacy', 'lib', '1.0.0'), 'org.legacy');
    await first.close();
    // Rewrite it as the earlier sandbox left it: the files in staging/<repository id>.log.
    const statePath = path.join(dataDir, 'state.json');
    const state = JSON.parse(await readFile(statePath, 'utf8')) as { repositories: { id: string }[]; deployments: Record<string, unknown>[] };
    const repositoryId = state.repositories[0]!.id;
    state.deployments[0]!.repositoryId = repositoryId;
    await writeFile(statePath, JSON.stringify(state));
    await rename(path.join(dataDir, 'deployments', `${id}.bundle`), path.join(dataDir, 'staging', `${repositoryId}.log`));

    const lines: string[] = [];
    const second = await startSandbox({ dataDir, log: (l) => lines.push(l) });
    try {
      expect(lines).toEqual([expect.stringContaining(`moved the files of deployment ${id} out of its staging repository`)]);
      expect((await publisher(second, 'POST', `deployment/${id}`)).status).toBe(204);
      expect((await publicFile(second, 'org/legacy/lib/1.0.0/lib-1.0.0.jar')).status).toBe(200);
    } finally {
      await second.close();
    }
  });
});

describe('restart after kill -9 during a publish', () => {
  async function start(dataDir: string): Promise<{ child: ResultPromise; ready: { stagingApiUrl: string; portalUrl: string; publicRepoUrl: string; keyserverUrl: string; controlToken: string }; stderr: () => string }> {
    const child = execa('node', [binPath, 'sandbox', '--port', '0', '--json', '--data-dir', dataDir], { env: { CI: 'true', NO_COLOR: '1' }, reject: false, buffer: false });
    children.push(child);
    let out = '';
    let err = '';
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    const ready = await new Promise<string>((resolve, reject) => {
      child.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.trimEnd().endsWith('}')) resolve(out);
      });
      void child.then((r) => reject(new Error(`exited ${r.exitCode} before ready: ${err}`)));
    });
    return { child, ready: JSON.parse(ready), stderr: () => err };
  }

  test('finishes the interrupted publication and says so in one line', async () => {
    const dataDir = path.join(tmp.path, 'killed');
    const first = await start(dataDir);
    const port = Number(new URL(first.ready.stagingApiUrl).port);
    const sandbox = { port, urls: first.ready, users: [], controlToken: first.ready.controlToken } as unknown as RunningSandbox;
    await publishKeyConfirmed(sandbox, key);
    // 20 components with 512 KiB jars: the copy into the public repository takes a while.
    const id = await validated(sandbox, await components(sign, 'org.killed', 20, 512 * 1024), 'org.killed');
    void publisher(sandbox, 'POST', `deployment/${id}`).catch(() => undefined);
    // Kill once PUBLISHING is on disk (what a restart sees), before the copy is through.
    let seen = '';
    for (let i = 0; i < 2000 && seen !== 'PUBLISHING'; i++) {
      const saved = await readFile(path.join(dataDir, 'state.json'), 'utf8').catch(() => '{}');
      seen = ((JSON.parse(saved) as { deployments?: { state: string }[] }).deployments ?? [])[0]?.state ?? '';
      if (seen !== 'PUBLISHING') await sleep(1);
    }
    expect(seen).toBe('PUBLISHING');
    first.child.kill('SIGKILL');
    await first.child;

    const second = await start(dataDir);
    try {
      const repairLines = second.stderr().split('\n').filter((l) => l.includes('repaired'));
      const again = { port: Number(new URL(second.ready.stagingApiUrl).port), urls: second.ready } as unknown as RunningSandbox;
      expect((await status(again, id)).deploymentState).toBe('PUBLISHED');
      for (let i = 0; i < 20; i++) expect((await publicFile(again, `org/killed/c${i}/1.0.0/c${i}-1.0.0-javadoc.jar`)).status, `c${i}`).toBe(200);
      expect(repairLines).toHaveLength(1);
      expect(repairLines[0]).toContain(`finished publishing deployment ${id}`);
      expect(second.stderr()).not.toMatch(/\n\s+at /);
    } finally {
      second.child.kill('SIGTERM');
      await second.child;
    }
  });
});

describe('descriptors and logs', () => {
  test('a sandbox with open repositories leaves no file descriptor open after close', async () => {
    const dataDir = path.join(tmp.path, 'fds');
    const before = await openFds();
    for (let round = 0; round < 3; round++) {
      const sandbox = await startSandbox({ dataDir });
      for (let i = 0; i < 5; i++) {
        const put = await call(deployUrl(sandbox, `org/fd${i}/x/1/x-1.jar`), { method: 'PUT', auth: basic('sandbox', 'sandbox'), body: 'x' });
        expect(put.status).toBe(201);
      }
      await sandbox.close();
    }
    await sleep(50);
    expect(await openFds()).toBe(before);
  });

  test('a client that hangs up mid-upload is one log line; an internal error one stack with the id the client got', async () => {
    const dataDir = path.join(tmp.path, 'logs');
    const lines: string[] = [];
    const sandbox = await startSandbox({ dataDir, log: (l) => lines.push(l) });
    try {
      await new Promise<void>((resolve) => {
        const socket = net.connect(sandbox.port, '127.0.0.1', () => {
          socket.write(
            `PUT /staging/service/local/staging/deploy/maven2/org/gone/x/1/x-1.jar HTTP/1.1\r\nHost: 127.0.0.1\r\n` +
              `Authorization: ${basic('sandbox', 'sandbox')}\r\nContent-Length: 100000\r\n\r\nonly a part`,
          );
          setTimeout(() => {
            socket.destroy();
            resolve();
          }, 100);
        });
      });
      for (let i = 0; i < 100 && lines.length === 0; i++) await sleep(10);
      expect(lines).toEqual(['sandbox: PUT /staging/service/local/staging/deploy/maven2/org/gone/x/1/x-1.jar: client went away']);

      // Break the staging folder under the running sandbox: a file where it must be.
      lines.length = 0;
      await rm(path.join(dataDir, 'staging'), { recursive: true, force: true });
      await writeFile(path.join(dataDir, 'staging'), 'not a folder');
      const broken = await call(deployUrl(sandbox, 'org/broken/x/1/x-1.jar'), { method: 'PUT', auth: basic('sandbox', 'sandbox'), body: 'x' });
      expect(broken.status).toBe(500);
      const requestId = broken.json().requestId as string;
      expect(requestId).toMatch(/^[0-9a-f]{12}$/);
      expect(broken.json().error).toBe(`Internal sandbox error (request id ${requestId})`);
      expect(broken.headers['x-request-id']).toBe(requestId);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(`request id ${requestId}`);
      expect(lines[0]).toMatch(/\n\s+at /);
    } finally {
      await sandbox.close();
      await rm(path.join(dataDir, 'staging'), { recursive: true, force: true });
      await mkdir(path.join(dataDir, 'staging'), { recursive: true });
    }
  });
});
