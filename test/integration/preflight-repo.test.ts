import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { git, tempDir, writeTree } from '../helpers/temp.js';
import { codes, fixtureCopy, preflight, type PreflightResult } from './preflight-gradle-fixture.js';

const repoCodes = ['dirty-worktree', 'detached-head', 'not-snapshot', 'orphan-tag'];
const mine = (r: PreflightResult) => codes(r).filter((c) => repoCodes.includes(c));

/** Every service URL on loopback, so online runs never leave the machine whatever other checks do. */
function onlineEnv(base: string): Record<string, string> {
  const root = base.replace(/\/maven2$/, '');
  return {
    RELCTL_PUBLIC_REPO_URL: base,
    RELCTL_STAGING_API_URL: `${root}/staging`,
    RELCTL_PORTAL_URL: `${root}/portal`,
    RELCTL_KEYSERVER_URL: `${root}/vks`,
    RELCTL_SECONDARY_KEYSERVER_URL: `${root}/hkp`,
    RELCTL_TIMEOUT: '5',
  };
}

/** A loopback stand-in for the public repository that answers the POM probe with `status`. */
async function publicRepo(status: (url: string) => number): Promise<{ url: string; requests: string[]; server: Server } & AsyncDisposable> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    res.statusCode = status(req.url ?? '');
    res.end();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/maven2`,
    requests,
    server,
    [Symbol.asyncDispose]: async () => {
      server.close();
      await once(server, 'close');
    },
  };
}

describe('repository and version checks', () => {
  it('dirty-worktree fires for an uncommitted change, but not for the .relctl/ journal', async () => {
    await using dir = await fixtureCopy('groovy-multi', { git: true });
    await mkdir(path.join(dir.path, '.relctl'));
    await writeFile(path.join(dir.path, '.relctl', 'journal.json'), '{}');
    expect(mine(await preflight(dir.path))).toEqual([]);
    await writeFile(path.join(dir.path, 'core', 'build.gradle'), '// edited\n');
    const r = await preflight(dir.path);
    expect(mine(r)).toEqual(['dirty-worktree']);
    expect(r.findings[0]!.message).toContain('core/build.gradle');
    expect(r.exitCode).toBe(1);
  });

  it('detached-head fires on a detached checkout, not on a branch', async () => {
    await using dir = await fixtureCopy('groovy-multi', { git: true });
    expect(mine(await preflight(dir.path))).toEqual([]);
    await git(dir.path, dir.path, 'checkout', '-q', '--detach');
    const r = await preflight(dir.path);
    expect(mine(r)).toEqual(['detached-head']);
    expect(r.exitCode).toBe(1);
  });

  it('orphan-tag offline: warns that publication could not be checked, exit 0 (a warning)', async () => {
    await using dir = await fixtureCopy('groovy-multi', { git: true });
    await git(dir.path, dir.path, 'tag', 'demo-1.0.0');
    const r = await preflight(dir.path);
    expect(r.findings.filter((f) => f.code !== 'snapshots-need-enabling')).toEqual([
      expect.objectContaining({ code: 'orphan-tag', severity: 'warning', file: 'gradle.properties', line: 3, module: ':' }),
    ]);
    const orphan = r.findings.find((f) => f.code === 'orphan-tag')!;
    expect(orphan.message).toContain('could not be checked (--offline)');
    expect(orphan.message).toContain('release 1.0.1 (tag demo-1.0.1)');
    expect(r.exitCode).toBe(0);
  });

  it('orphan-tag online: probes the public repository; fires when the POM is absent, not when it is published', async () => {
    await using dir = await fixtureCopy('groovy-multi', { git: true });
    await git(dir.path, dir.path, 'tag', 'demo-1.0.0');
    {
      await using repo = await publicRepo(() => 404);
      const r = await preflight(dir.path, { offline: false, env: onlineEnv(repo.url) });
      expect(repo.requests).toContain('HEAD /maven2/org/example/demo/1.0.0/demo-1.0.0.pom');
      const orphan = r.findings.filter((f) => f.code === 'orphan-tag');
      expect(orphan).toHaveLength(1);
      expect(orphan[0]!.message).toContain('demo-1.0.0 already exists but 1.0.0 is not published (public repository)');
    }
    {
      await using repo = await publicRepo((url) => (url.endsWith('/demo-1.0.0.pom') ? 200 : 404));
      const r = await preflight(dir.path, { offline: false, env: onlineEnv(repo.url) });
      expect(repo.requests).toContain('HEAD /maven2/org/example/demo/1.0.0/demo-1.0.0.pom');
      expect(codes(r)).not.toContain('orphan-tag');
    }
  });

  it('orphan-tag online: a server error is "could not be checked", never a guess', async () => {
    await using dir = await fixtureCopy('groovy-multi', { git: true });
    await git(dir.path, dir.path, 'tag', 'demo-1.0.0');
    await using repo = await publicRepo(() => 503);
    const r = await preflight(dir.path, { offline: false, env: onlineEnv(repo.url) });
    const orphan = r.findings.filter((f) => f.code === 'orphan-tag');
    expect(orphan).toHaveLength(1);
    expect(orphan[0]!.message).toContain('could not be checked');
    expect(orphan[0]!.message).toContain('HTTP 503');
  });

  it('Maven: not-snapshot on a release version and orphan-tag on <artifactId>-X.Y.Z', async () => {
    await using dir = await tempDir('relctl-repo-maven-');
    const pom = (v: string) =>
      `<?xml version="1.0"?>\n<project>\n  <modelVersion>4.0.0</modelVersion>\n  <groupId>org.example</groupId>\n  <artifactId>demo</artifactId>\n  <version>${v}</version>\n</project>\n`;
    await writeTree(dir.path, { 'pom.xml': pom('1.0.0') });
    await git(dir.path, dir.path, 'init', '-q', '-b', 'main');
    await git(dir.path, dir.path, 'add', '-A');
    await git(dir.path, dir.path, 'commit', '-q', '-m', 'initial');
    const release = await preflight(dir.path);
    expect(release.findings.filter((f) => repoCodes.includes(f.code))).toEqual([
      expect.objectContaining({ code: 'not-snapshot', file: 'pom.xml', line: 6 }),
    ]);
    await writeTree(dir.path, { 'pom.xml': pom('1.0.0-SNAPSHOT') });
    await git(dir.path, dir.path, 'commit', '-q', '-am', 'next');
    expect(mine(await preflight(dir.path))).toEqual([]);
    await git(dir.path, dir.path, 'tag', 'demo-1.0.0');
    const orphan = await preflight(dir.path);
    expect(mine(orphan)).toEqual(['orphan-tag']);
    expect(orphan.findings.find((f) => f.code === 'orphan-tag')!.message).toContain('release 1.0.1 (tag demo-1.0.1)');
  });
});
