import { randomBytes } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { Octokit } from '@octokit/rest';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { bareRepo, gitAsUser } from '../helpers/git-root.js';
import { gitEnv, tempDir, writeTree, type TempDir } from '../helpers/temp.js';
import { call, rawRequest } from './sandbox-fixture.js';

/**
 * `relctl sandbox --git-root DIR` (DESIGN §13 Sandbox) as real clients see it: the git CLI over
 * smart HTTP (clone, fetch, push with and without a token), @octokit/rest walking
 * `GET /orgs/{org}/repos` by its Link header, and the `x-ratelimit-*` headers.
 */
let sb: RunningSandbox;
let tmp: TempDir;
let home: string;
let root: string;
const silent = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
const kit = (token?: string): Octokit => new Octokit({ baseUrl: sb.urls.githubApiUrl, ...(token === undefined ? {} : { auth: token }), log: silent });

const gitWith = (env: Record<string, string>, cwd: string, ...args: string[]) => gitAsUser(home, env, cwd, ...args);
const gitCli = (cwd: string, ...args: string[]) => gitWith({}, cwd, ...args);
/** Its HTTP headers on stderr, so a test can tell how git sent a request. */
const traced = { GIT_TRACE_CURL: '1', GIT_TRACE_CURL_NO_DATA: '1' };

beforeAll(async () => {
  tmp = await tempDir('relctl-sbgit-');
  home = path.join(tmp.path, 'home');
  root = path.join(tmp.path, 'root');
  await mkdir(home, { recursive: true });
  await bareRepo(root, home, 'acme/lib', { config: { 'sandbox.topics': 'java, maven', 'sandbox.description': 'The library' } });
  await bareRepo(root, home, 'acme/parent', { branch: 'develop' });
  await bareRepo(root, home, 'acme/old', { config: { 'sandbox.archived': 'true' } });
  await bareRepo(root, home, 'acme/their-fork', { config: { 'sandbox.fork': 'yes', 'sandbox.topics': 'fork' } });
  await bareRepo(root, home, 'acme/secret', { config: { 'sandbox.private': 'true' } });
  // Beside the root, not in it: nothing may reach it.
  await bareRepo(path.join(tmp.path, 'outside'), home, 'acme/hidden');
  await mkdir(path.join(root, 'empty-org'), { recursive: true });
  sb = await startSandbox({ gitRoot: root });
});
afterAll(async () => {
  await sb?.close();
  await tmp?.[Symbol.asyncDispose]();
});

describe('git smart HTTP for --git-root', () => {
  it('clones and fetches without a token (protocol v2 and v0)', async () => {
    expect(sb.urls.githubGitUrl).toBe(`http://127.0.0.1:${sb.port}/github`);
    const url = `${sb.urls.githubGitUrl}/acme/lib.git`;
    const clone = await gitCli(tmp.path, 'clone', '-q', url, 'lib-clone');
    expect(clone.stderr).toBe('');
    expect(clone.exitCode).toBe(0);
    expect(await readFile(path.join(tmp.path, 'lib-clone', 'README.md'), 'utf8')).toBe('# acme/lib\n');
    const v0 = await gitCli(tmp.path, '-c', 'protocol.version=0', 'clone', '-q', `${sb.urls.githubGitUrl}/ACME/Lib.git`, 'lib-v0');
    expect(v0.exitCode).toBe(0);

    // A commit lands in the bare repository another way; fetch brings it.
    const work = path.join(tmp.path, 'work', 'acme', 'lib');
    await writeTree(work, { 'NEWS.md': 'more\n' });
    await gitCli(work, 'add', '-A');
    await gitCli(work, 'commit', '-q', '-m', 'more');
    expect((await gitCli(work, 'push', '-q', path.join(root, 'acme', 'lib.git'), 'main')).exitCode).toBe(0);
    const fetch = await gitCli(path.join(tmp.path, 'lib-clone'), 'fetch', '-q', 'origin');
    expect(fetch.exitCode).toBe(0);
    const fetched = (await gitCli(path.join(tmp.path, 'lib-clone'), 'rev-parse', 'origin/main')).stdout;
    expect(fetched).toBe((await gitCli(work, 'rev-parse', 'HEAD')).stdout);
  });

  it('takes a gzip-encoded upload-pack request as git clients send it', async () => {
    const refs = await call(`${sb.urls.githubGitUrl}/acme/parent.git/info/refs?service=git-upload-pack`);
    expect(refs.status).toBe(200);
    expect(refs.headers['content-type']).toBe('application/x-git-upload-pack-advertisement');
    const head = /([0-9a-f]{40}) HEAD/.exec(refs.text)![1]!;
    const pkt = (line: string): string => `${(line.length + 4).toString(16).padStart(4, '0')}${line}`;
    const body = gzipSync(Buffer.from(`${pkt(`want ${head}\n`)}0000${pkt('done\n')}`));
    const r = await call(`${sb.urls.githubGitUrl}/acme/parent.git/git-upload-pack`, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/x-git-upload-pack-request', 'content-encoding': 'gzip' },
    });
    expect(r.status).toBe(200);
    expect(r.text.startsWith('0008NAK\n')).toBe(true);
    expect(r.bytes.includes(Buffer.from('PACK'))).toBe(true);
  });

  it('refuses a push without a token (401, Basic realm="GitHub") and takes one with a token; the push is recorded', async () => {
    const clone = path.join(tmp.path, 'lib-clone');
    await writeTree(clone, { 'feature.txt': 'x\n' });
    await gitCli(clone, 'add', '-A');
    await gitCli(clone, 'commit', '-q', '-m', 'feature');
    const refused = await gitCli(clone, 'push', 'origin', 'HEAD:refs/heads/feature');
    expect(refused.exitCode).not.toBe(0);
    expect(refused.stderr).toMatch(/Authentication failed|could not read Username|401/);
    for (const [method, where] of [['GET', 'info/refs?service=git-receive-pack'], ['POST', 'git-receive-pack']] as const) {
      const r = await call(`${sb.urls.githubGitUrl}/acme/lib.git/${where}`, { method, ...(method === 'POST' ? { body: '0000' } : {}) });
      expect([r.status, r.headers['www-authenticate']]).toEqual([401, 'Basic realm="GitHub"']);
    }
    // An empty password is no token either.
    const empty = await call(`${sb.urls.githubGitUrl}/acme/lib.git/info/refs?service=git-receive-pack`, { auth: `Basic ${Buffer.from('x-access-token:').toString('base64')}` });
    expect(empty.status).toBe(401);

    const withToken = `http://x-access-token:alice@127.0.0.1:${sb.port}/github/acme/lib.git`;
    const pushed = await gitCli(clone, 'push', '-q', withToken, 'HEAD:refs/heads/feature');
    expect(pushed.stderr).toBe('');
    expect(pushed.exitCode).toBe(0);
    const sha = (await gitCli(clone, 'rev-parse', 'HEAD')).stdout;
    expect((await gitCli(root, '--git-dir', path.join(root, 'acme', 'lib.git'), 'rev-parse', 'refs/heads/feature')).stdout).toBe(sha);
    // Bearer, as http.extraHeader sends it: deletes the branch again.
    const deleted = await gitCli(clone, '-c', 'http.extraHeader=Authorization: Bearer bob', 'push', '-q', 'origin', ':refs/heads/feature');
    expect(deleted.exitCode).toBe(0);

    const state = (await call(`http://127.0.0.1:${sb.port}/sandbox/state`)).json() as { githubPushes: unknown[] };
    expect(state.githubPushes).toEqual([
      { repository: 'acme/lib', login: 'alice', refs: [{ ref: 'refs/heads/feature', before: '0'.repeat(40), after: sha }], at: expect.any(String) },
      { repository: 'acme/lib', login: 'bob', refs: [{ ref: 'refs/heads/feature', before: sha, after: '0'.repeat(40) }], at: expect.any(String) },
    ]);
  });

  it('takes a push larger than git\'s post buffer (chunked, after an auth probe) and a fetch whose negotiation git gzips', async () => {
    const clone = path.join(tmp.path, 'big-clone');
    expect((await gitCli(tmp.path, 'clone', '-q', `${sb.urls.githubGitUrl}/acme/old.git`, clone)).exitCode).toBe(0);
    // Random bytes do not compress: the pack stays over http.postBuffer (1 MiB).
    await writeTree(clone, { 'big.bin': randomBytes(3 * 1024 * 1024) });
    await gitCli(clone, 'add', '-A');
    await gitCli(clone, 'commit', '-q', '-m', 'big');
    const pushed = await gitWith(traced, clone, 'push', '-q', `http://x-access-token:alice@127.0.0.1:${sb.port}/github/acme/old.git`, 'HEAD:refs/heads/big');
    expect(pushed.exitCode).toBe(0);
    expect(pushed.stderr).toMatch(/Send header: Transfer-Encoding: chunked/i);
    const sha = (await gitCli(clone, 'rev-parse', 'HEAD')).stdout;
    expect((await gitCli(root, '--git-dir', path.join(root, 'acme', 'old.git'), 'rev-parse', 'refs/heads/big')).stdout).toBe(sha);

    // A fetch of an unrelated history (acme/parent) into a clone with many commits of its own
    // (made at once by fast-import): git negotiates in rounds of have lines, and sends the later,
    // larger request bodies gzipped.
    const stream = Array.from({ length: 300 }, (_, i) => `commit refs/heads/local\ncommitter T <t@example.invalid> ${1_700_000_000 + i} +0000\ndata ${String(i).length + 1}\nc${i}\n`).join('');
    expect((await execa('git', ['fast-import', '--quiet'], { cwd: clone, env: gitEnv(home), input: stream, reject: false })).exitCode).toBe(0);
    const fetched = await gitWith(traced, clone, '-c', 'protocol.version=0', 'fetch', `${sb.urls.githubGitUrl}/acme/parent.git`, 'develop');
    expect(fetched.exitCode).toBe(0);
    expect(fetched.stderr).toMatch(/Send header: Content-Encoding: gzip/i);
    const parentHead = (await gitCli(root, '--git-dir', path.join(root, 'acme', 'parent.git'), 'rev-parse', 'develop')).stdout;
    expect((await gitCli(clone, 'rev-parse', 'FETCH_HEAD')).stdout).toBe(parentHead);
  });

  it('serves nothing outside the root nor outside a repository\'s git paths', async () => {
    const paths = [
      '/github/acme/lib.git/../../../outside/acme/hidden.git/info/refs',
      '/github/%2e%2e/outside.git/info/refs',
      '/github/acme/%2e%2e.git/info/refs',
      '/github/..%2Foutside%2Facme/hidden.git/info/refs',
      '/github/acme/lib.git/config',
      '/github/acme/lib.git/objects/../config',
      '/github/acme/lib.git/info/refs%00',
      '/github//tmp/x.git/info/refs',
      '/github/acme/nope.git/info/refs',
      '/github/acme/hidden.git/info/refs',
    ];
    for (const p of paths) {
      const answer = await rawRequest(sb.port, `GET ${p}?service=git-upload-pack HTTP/1.1`);
      expect([p, answer.slice(0, answer.indexOf('\r\n'))]).toEqual([p, expect.stringMatching(/^HTTP\/1\.1 40[04] /)]);
      expect(answer).not.toContain('refs/heads');
      expect(answer).not.toContain('repositoryformatversion');
    }
    // The same request to a served path is answered (the refusals above are not an accident of the client).
    expect(await rawRequest(sb.port, 'GET /github/acme/lib.git/info/refs?service=git-upload-pack HTTP/1.1')).toMatch(/^HTTP\/1\.1 200 [^]*refs\/heads\/main/);
  });
});

describe('GET /orgs/{org}/repos and /users/{user}/repos', () => {
  it('lists the root\'s repositories, paged by Link, with their config facts and default branch', async () => {
    const first = await call(`${sb.urls.githubApiUrl}/orgs/acme/repos?per_page=2&type=all`);
    expect(first.status).toBe(200);
    const base = `${sb.urls.githubApiUrl}/orgs/acme/repos`;
    expect(first.headers.link).toBe(`<${base}?per_page=2&type=all&page=2>; rel="next", <${base}?per_page=2&type=all&page=3>; rel="last"`);
    expect((first.json() as { name: string }[]).map((r) => r.name)).toEqual(['lib', 'old']);
    const second = await call(`${base}?per_page=2&type=all&page=2`);
    expect(second.headers.link).toBe(
      `<${base}?per_page=2&type=all&page=1>; rel="prev", <${base}?per_page=2&type=all&page=3>; rel="next", <${base}?per_page=2&type=all&page=3>; rel="last", <${base}?per_page=2&type=all&page=1>; rel="first"`,
    );

    const all = await kit().paginate(kit().rest.repos.listForOrg, { org: 'acme', per_page: 2 });
    expect(all.map((r) => r.full_name)).toEqual(['acme/lib', 'acme/old', 'acme/parent', 'acme/secret', 'acme/their-fork']);
    const by = new Map(all.map((r) => [r.name, r]));
    expect(by.get('lib')).toMatchObject({
      full_name: 'acme/lib',
      owner: { login: 'acme' },
      private: false,
      archived: false,
      fork: false,
      default_branch: 'main',
      clone_url: `${sb.urls.githubGitUrl}/acme/lib.git`,
      html_url: `${sb.urls.githubGitUrl}/acme/lib`,
      topics: ['java', 'maven'],
      description: 'The library',
    });
    expect(by.get('parent')).toMatchObject({ default_branch: 'develop', topics: [], description: null });
    expect(by.get('old')).toMatchObject({ archived: true, fork: false });
    expect(by.get('their-fork')).toMatchObject({ fork: true, topics: ['fork'] });
    expect(by.get('secret')).toMatchObject({ private: true, visibility: 'private' });
    // The same ids and facts in later answers, and in GET /repos/{o}/{r}.
    const again = await kit().rest.repos.listForOrg({ org: 'acme', per_page: 100 });
    expect(again.data.map((r) => r.id)).toEqual(all.map((r) => r.id));
    expect(again.headers.link).toBeUndefined();
    expect((await kit().rest.repos.get({ owner: 'acme', repo: 'parent' })).data).toMatchObject({ id: by.get('parent')!.id, default_branch: 'develop' });
  });

  it('filters by type as GitHub does and ignores an unknown one; /users/{user}/repos lists the same', async () => {
    const names = async (query: string, kind = 'orgs'): Promise<string[]> =>
      ((await call(`${sb.urls.githubApiUrl}/${kind}/acme/repos?${query}`)).json() as { name: string }[]).map((r) => r.name);
    expect(await names('type=forks')).toEqual(['their-fork']);
    expect(await names('type=sources')).toEqual(['lib', 'old', 'parent', 'secret']);
    expect(await names('type=public')).toEqual(['lib', 'old', 'parent', 'their-fork']);
    expect(await names('type=private')).toEqual(['secret']);
    expect(await names('type=whatever')).toHaveLength(5);
    expect(await names('sort=full_name&direction=desc')).toEqual(['their-fork', 'secret', 'parent', 'old', 'lib']);
    expect(await names('', 'users')).toEqual(['lib', 'old', 'parent', 'secret', 'their-fork']);
  });

  it('lists the stand-in\'s own repositories of an owner too; 404 Not Found for an owner with neither', async () => {
    await kit('carol').rest.repos.createForAuthenticatedUser({ name: 'tools', description: 'own' });
    expect((await kit().rest.repos.listForUser({ username: 'carol' })).data).toMatchObject([{ full_name: 'carol/tools', description: 'own', archived: false, topics: [] }]);
    expect((await call(`${sb.urls.githubApiUrl}/orgs/empty-org/repos`)).json()).toEqual([]);
    const missing = await call(`${sb.urls.githubApiUrl}/orgs/nobody/repos`);
    expect(missing.status).toBe(404);
    expect(missing.json()).toMatchObject({ message: 'Not Found' });
  });
});

describe('x-ratelimit-* headers', () => {
  it('come with every API answer, errors included, counted per caller; GET /rate_limit does not count', async () => {
    const a = await call(`${sb.urls.githubApiUrl}/repos/dave/x`, { auth: 'token dave' });
    const b = await call(`${sb.urls.githubApiUrl}/orgs/nobody/repos`, { auth: 'token dave' });
    expect(b.status).toBe(404);
    for (const r of [a, b]) {
      expect(r.headers).toMatchObject({ 'x-ratelimit-limit': '5000', 'x-ratelimit-resource': 'core', 'x-ratelimit-reset': expect.stringMatching(/^\d{10}$/) });
      expect(Number(r.headers['x-ratelimit-remaining']) + Number(r.headers['x-ratelimit-used'])).toBe(5000);
    }
    expect([a.headers['x-ratelimit-used'], b.headers['x-ratelimit-used']]).toEqual(['1', '2']);
    const limit = await call(`${sb.urls.githubApiUrl}/rate_limit`, { auth: 'token dave' });
    expect(limit.json()).toMatchObject({ resources: { core: { limit: 5000, used: 2, remaining: 4998 } }, rate: { used: 2 } });
    expect(limit.headers['x-ratelimit-used']).toBe('2');
  });
});
