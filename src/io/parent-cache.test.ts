import { createServer, type Server } from 'node:http';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ParentSource } from './parent-cache.js';

const pom = '<project><groupId>org.acme</groupId><artifactId>acme-parent</artifactId><version>7</version></project>\n';
const ref = { groupId: 'org.acme', artifactId: 'acme-parent', version: '7' };

let server: Server | undefined;
let dir: string | undefined;
afterEach(async () => {
  await new Promise((r) => (server === undefined ? r(undefined) : server.close(r)));
  server = undefined;
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

/** A public repository on loopback that answers after `delayMs`, counting the requests. */
async function publicRepo(status: number, delayMs: number): Promise<{ url: string; requests: () => number }> {
  let requests = 0;
  server = createServer((_req, res) => {
    requests++;
    setTimeout(() => res.writeHead(status, { 'content-type': 'application/xml' }).end(status === 200 ? pom : ''), delayMs);
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests: () => requests };
}

const source = (cacheDir: string, publicRepoUrl: string): ParentSource => new ParentSource({ cacheDir, publicRepoUrl, timeoutMs: 5000, env: {} });

describe('ParentSource: two audits of one process sharing a parent (a fleet)', () => {
  it('fetch it once, both get the whole POM, and the cache holds nothing half-written', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'relctl-parents-'));
    const repo = await publicRepo(200, 200);
    const [a, b] = [source(dir, repo.url), source(dir, repo.url)];
    const files = await Promise.all([a.find(ref), b.find(ref)]);
    await Promise.all([a.close(), b.close()]);
    expect(repo.requests()).toBe(1);
    expect(files[0]).toBe(files[1]);
    expect(await readFile(files[0]!, 'utf8')).toBe(pom);
    expect(await readdir(path.dirname(files[0]!))).toEqual(['acme-parent-7.pom']);
    expect([a.unreachable, b.unreachable]).toEqual([[], []]);
  });

  it('each says it could not have the parent when the repository fails, so neither audit passes for want of it', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'relctl-parents-'));
    const repo = await publicRepo(503, 50);
    const [a, b] = [source(dir, repo.url), source(dir, repo.url)];
    expect(await Promise.all([a.find(ref), b.find(ref)])).toEqual([undefined, undefined]);
    await Promise.all([a.close(), b.close()]);
    for (const s of [a, b]) expect(s.unreachable).toEqual([expect.stringContaining('org.acme:acme-parent:7 could not be fetched') as unknown]);
  });
});
