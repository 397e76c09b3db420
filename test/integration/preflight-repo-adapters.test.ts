import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { currentBranch, dirtyFiles, gatherGitFacts, headCommit, isRepository, listTags, tagExists } from '../../src/io/git.js';
import { isVersionPublished, pomUrl } from '../../src/io/public-repo.js';
import { HttpClient } from '../../src/io/http.js';
import { isReleasePublished, sourceOf } from '../../src/io/published.js';
import type { CommandContext } from '../../src/io/command-context.js';
import { git, gitEnv, gitRepo, tempDir, writeTree } from '../helpers/temp.js';

describe('git adapter (real repositories)', () => {
  it('answers "not a repository" without throwing', async () => {
    await using dir = await tempDir();
    const env = gitEnv(dir.path);
    expect(await isRepository(dir.path, { env })).toBe(false);
    expect(await gatherGitFacts(dir.path, { env })).toEqual({ isRepository: false, detached: false, dirtyFiles: [], tags: [] });
    expect(await listTags(dir.path, { env })).toEqual([]);
    expect(await tagExists(dir.path, 'x', { env })).toBe(false);
  });

  it('an unborn branch is a branch with no head commit', async () => {
    await using dir = await tempDir();
    await git(dir.path, dir.path, 'init', '-q', '-b', 'main');
    const facts = await gatherGitFacts(dir.path, { env: gitEnv(dir.path) });
    expect(facts).toMatchObject({ isRepository: true, branch: 'main', detached: false });
    expect(facts.headCommit).toBeUndefined();
  });

  it('reads branch, head, tags, renames, and ignores the journal of a project in a subfolder', async () => {
    await using dir = await tempDir();
    const env = gitEnv(dir.path);
    await gitRepo(dir.path, dir.path, { 'lib/a.txt': 'a', 'lib/b.txt': 'b', 'README.md': 'r' });
    await git(dir.path, dir.path, 'tag', 'lib-1.0.0');
    await git(dir.path, dir.path, 'tag', '-a', '-m', 'annotated', 'lib-1.0.1');
    const lib = path.join(dir.path, 'lib');
    expect(await currentBranch(lib, { env })).toBe('main');
    expect(await headCommit(lib, { env })).toMatch(/^[0-9a-f]{40}$/);
    expect((await listTags(lib, { env })).sort()).toEqual(['lib-1.0.0', 'lib-1.0.1']);
    expect(await tagExists(lib, 'lib-1.0.1', { env })).toBe(true);
    await writeTree(lib, { '.relctl/journal.json': '{}', 'new file.txt': 'n' });
    await git(dir.path, dir.path, 'mv', 'lib/a.txt', 'lib/renamed.txt');
    expect((await dirtyFiles(lib, { env })).sort()).toEqual(['lib/new file.txt', 'lib/renamed.txt']);
  });

  it('gathers the same facts in two git calls as the single questions do, journal left out, detached head seen', async () => {
    await using dir = await tempDir();
    const env = gitEnv(dir.path);
    await gitRepo(dir.path, dir.path, { 'lib/a b.txt': 'a', 'lib/c.txt': 'c', 'README.md': 'r', 'x.txt': 'x' });
    await git(dir.path, dir.path, 'tag', 'lib-1.0.0');
    const lib = path.join(dir.path, 'lib');
    await writeTree(dir.path, { '.relctl/journal.json': '{}', 'lib/.relctl/journal.json': '{}', 'lib/new file.txt': 'n', 'README.md': 'changed', 'other/o.txt': 'o' });
    await git(dir.path, dir.path, 'mv', 'lib/a b.txt', 'lib/renamed file.txt');
    await git(dir.path, dir.path, 'rm', '-q', 'x.txt');
    const facts = await gatherGitFacts(lib, { env });
    expect({ ...facts, dirtyFiles: [...facts.dirtyFiles].sort() }).toEqual({
      isRepository: true,
      detached: false,
      branch: await currentBranch(lib, { env }),
      headCommit: await headCommit(lib, { env }),
      dirtyFiles: (await dirtyFiles(lib, { env })).sort(),
      tags: ['lib-1.0.0'],
      headTags: ['lib-1.0.0'],
    });
    expect([...facts.dirtyFiles].sort()).toEqual(['README.md', 'lib/new file.txt', 'lib/renamed file.txt', 'other/', 'x.txt']);
    await git(dir.path, dir.path, 'commit', '-q', '-m', 'second');
    // A commit after the tag: it no longer points at HEAD.
    expect((await gatherGitFacts(lib, { env })).headTags).toEqual([]);
    await git(dir.path, dir.path, 'checkout', '-q', '--detach', 'HEAD~1');
    expect(await gatherGitFacts(lib, { env })).toMatchObject({ isRepository: true, detached: true, headCommit: await headCommit(lib, { env }) });
    expect((await gatherGitFacts(lib, { env })).branch).toBeUndefined();
  });

  it('names tags as they are, a branch of the same name aside, and sees an annotated tag on HEAD', async () => {
    await using dir = await tempDir();
    const env = gitEnv(dir.path);
    await gitRepo(dir.path, dir.path, { 'a.txt': 'a' });
    await git(dir.path, dir.path, 'tag', '-a', '-m', 'annotated', 'v1.0.0');
    await git(dir.path, dir.path, 'branch', 'v1.0.0');
    const facts = await gatherGitFacts(dir.path, { env });
    expect(facts.tags).toEqual(['v1.0.0']);
    expect(facts.headTags).toEqual(['v1.0.0']);
    expect(await listTags(dir.path, { env })).toEqual(['v1.0.0']);
  });

  it('a missing git binary is reported as unavailable, not thrown', async () => {
    await using dir = await tempDir();
    const facts = await gatherGitFacts(dir.path, { env: { ...gitEnv(dir.path), PATH: path.join(dir.path, 'no-bin') } });
    expect(facts.isRepository).toBe(false);
    expect(facts.unavailable).toMatch(/git could not be run/);
  });
});

describe('public repository probe', () => {
  it('builds the POM URL from the coordinates', () => {
    expect(pomUrl({ publicRepoUrl: 'https://repo1.maven.org/maven2/', groupId: 'org.example.demo', artifactId: 'demo', version: '1.0.0' })).toBe(
      'https://repo1.maven.org/maven2/org/example/demo/demo/1.0.0/demo-1.0.0.pom',
    );
  });

  it('falls back to GET when HEAD is not allowed, and reports timeouts as unknown', async () => {
    const seen: string[] = [];
    const server = createServer((req, res) => {
      seen.push(req.method ?? '');
      if (req.url?.includes('slow')) return; // never answers
      res.statusCode = req.method === 'HEAD' ? 405 : 200;
      res.end('ok');
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const found = await isVersionPublished({ publicRepoUrl: base, groupId: 'g', artifactId: 'a', version: '1.0.0', timeoutMs: 5000 });
      expect(found).toMatchObject({ published: true });
      expect(seen).toEqual(['HEAD', 'GET']);
      const slow = await isVersionPublished({ publicRepoUrl: `${base}/slow`, groupId: 'g', artifactId: 'a', version: '1.0.0', timeoutMs: 300 });
      expect(slow).toMatchObject({ published: undefined });
      const refused = await isVersionPublished({ publicRepoUrl: 'http://127.0.0.1:9', groupId: 'g', artifactId: 'a', version: '1.0.0', timeoutMs: 2000 });
      expect(refused).toMatchObject({ published: undefined, reason: 'ECONNREFUSED' });
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it('answers yes/no through the same probe for the release chain, and refuses to guess when the answer is unknown', async () => {
    const server = createServer((req, res) => {
      res.statusCode = req.url?.includes('/gone/') ? 410 : req.url?.includes('/down/') ? 503 : req.url?.includes('/there/') ? 200 : 404;
      res.end();
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    // No token at hand (no portalPublished in the context): the public repository answers.
    const quiet = { verbose: () => undefined };
    const ctx = {
      cwd: process.cwd(),
      out: quiet as unknown as CommandContext['out'],
      config: { publicRepoUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, timeout: 2 } as CommandContext['config'],
      configSources: {},
      env: {},
      canPrompt: false,
      ci: true,
      signal: new AbortController().signal,
    } satisfies CommandContext;
    const asked = (groupId: string) => isReleasePublished(ctx, { groupId, artifactId: 'a', version: '1.0.0' });
    try {
      expect(await asked('there')).toBe(true);
      expect(sourceOf({ groupId: 'there', artifactId: 'a', version: '1.0.0' })).toBe('(public repository)');
      expect(await asked('g')).toBe(false);
      expect(await asked('gone')).toBe(false);
      await expect(asked('down')).rejects.toMatchObject({ kind: 'public-repo-unavailable', message: expect.stringContaining('HTTP 503') });
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
