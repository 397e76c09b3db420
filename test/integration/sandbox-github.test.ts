import { Octokit } from '@octokit/rest';
import fc from 'fast-check';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { tempDir, type TempDir } from '../helpers/temp.js';
import { control } from './upload-helpers.js';

/**
 * The GitHub and Jira stand-ins as their clients see them: @octokit/rest unchanged (status codes,
 * JSON shapes, error bodies), and Jira REST v2. State survives a restart on the same data folder.
 */
let sb: RunningSandbox;
let data: TempDir;
const silent = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
const kit = (token?: string): Octokit => new Octokit({ baseUrl: sb.urls.githubApiUrl, ...(token === undefined ? {} : { auth: token }), log: silent });

async function status(p: Promise<unknown>): Promise<number> {
  try {
    await p;
    return 200;
  } catch (error) {
    return (error as { status: number }).status;
  }
}

beforeAll(async () => {
  data = await tempDir();
  sb = await startSandbox({ dataDir: data.path });
});
afterAll(async () => {
  await sb?.close();
  await data?.[Symbol.asyncDispose]();
});

describe('GitHub stand-in', () => {
  it('names the token as its user; POST /user/repos creates once; a repository also exists on first use', async () => {
    const alice = kit('alice');
    expect((await alice.rest.users.getAuthenticated()).data.login).toBe('alice');
    const created = await alice.rest.repos.createForAuthenticatedUser({ name: 'dist', description: 'distribution' });
    expect(created.status).toBe(201);
    expect(created.data).toMatchObject({ full_name: 'alice/dist', default_branch: 'main', owner: { login: 'alice' } });
    const again = await status(alice.rest.repos.createForAuthenticatedUser({ name: 'dist' }));
    expect(again).toBe(422);
    expect((await kit().rest.repos.get({ owner: 'bob', repo: 'lib' })).data.full_name).toBe('bob/lib');
    expect(await status(kit().rest.users.getAuthenticated())).toBe(401);
  });

  it('issues: create, get, close; an unknown number is 404', async () => {
    const o = kit('alice');
    const i = await o.rest.issues.create({ owner: 'alice', repo: 'dist', title: 'first', labels: ['bug'] });
    expect(i.status).toBe(201);
    expect(i.data).toMatchObject({ number: 1, state: 'open', labels: [{ name: 'bug' }], user: { login: 'alice' } });
    const closed = await o.rest.issues.update({ owner: 'alice', repo: 'dist', issue_number: 1, state: 'closed' });
    expect(closed.data).toMatchObject({ state: 'closed', state_reason: 'completed' });
    expect((await kit().rest.issues.get({ owner: 'alice', repo: 'dist', issue_number: 1 })).data.state).toBe('closed');
    expect(await status(kit().rest.issues.get({ owner: 'alice', repo: 'dist', issue_number: 7 }))).toBe(404);
  });

  it('releases: by tag, list, create, update; a second release for a tag is 422 already_exists', async () => {
    const o = kit('alice');
    expect(await status(o.rest.repos.getReleaseByTag({ owner: 'alice', repo: 'dist', tag: 'v1.0.0' }))).toBe(404);
    const rel = await o.rest.repos.createRelease({ owner: 'alice', repo: 'dist', tag_name: 'v1.0.0', name: 'one', body: 'notes' });
    expect(rel.status).toBe(201);
    try {
      await o.rest.repos.createRelease({ owner: 'alice', repo: 'dist', tag_name: 'v1.0.0' });
      expect.unreachable();
    } catch (error) {
      const e = error as { status: number; response: { data: { message: string; errors: { code: string; field: string }[] } } };
      expect(e.status).toBe(422);
      expect(e.response.data.errors[0]).toMatchObject({ code: 'already_exists', field: 'tag_name' });
    }
    await o.rest.repos.updateRelease({ owner: 'alice', repo: 'dist', release_id: rel.data.id, body: 'better notes' });
    const byTag = await o.rest.repos.getReleaseByTag({ owner: 'alice', repo: 'dist', tag: 'v1.0.0' });
    expect(byTag.data).toMatchObject({ id: rel.data.id, name: 'one', body: 'better notes', html_url: expect.stringMatching(/\/github\/alice\/dist\/releases\/tag\/v1\.0\.0$/) });
    expect((await o.rest.repos.listReleases({ owner: 'alice', repo: 'dist' })).data).toHaveLength(1);
  });

  it('refs, contents and pulls: branch, change a file with its sha, open one pull request, find it by head', async () => {
    const o = kit('alice');
    const repo = { owner: 'alice', repo: 'dist' };
    const put = await o.rest.repos.createOrUpdateFileContents({ ...repo, path: 'gradle.properties', message: 'add', content: Buffer.from('demoVersion=1.0.0\n').toString('base64') });
    expect(put.status).toBe(201);
    const main = await o.rest.git.getRef({ ...repo, ref: 'heads/main' });
    expect(main.data.object.sha).toBe(put.data.commit.sha);
    await o.rest.git.createRef({ ...repo, ref: 'refs/heads/relctl/demo-1.0.1', sha: main.data.object.sha });
    expect(await status(o.rest.git.createRef({ ...repo, ref: 'refs/heads/relctl/demo-1.0.1', sha: main.data.object.sha }))).toBe(422);
    const file = await o.rest.repos.getContent({ ...repo, path: 'gradle.properties', ref: 'relctl/demo-1.0.1' });
    const f = file.data as { sha: string; content: string; encoding: string };
    expect(Buffer.from(f.content, 'base64').toString()).toBe('demoVersion=1.0.0\n');
    const content = Buffer.from('demoVersion=1.0.1\n').toString('base64');
    expect(await status(o.rest.repos.createOrUpdateFileContents({ ...repo, path: 'gradle.properties', message: 'x', content, branch: 'relctl/demo-1.0.1' }))).toBe(422);
    expect(await status(o.rest.repos.createOrUpdateFileContents({ ...repo, path: 'gradle.properties', message: 'x', content, sha: '0'.repeat(40), branch: 'relctl/demo-1.0.1' }))).toBe(409);
    const bump = await o.rest.repos.createOrUpdateFileContents({ ...repo, path: 'gradle.properties', message: 'demo 1.0.1', content, sha: f.sha, branch: 'relctl/demo-1.0.1' });
    expect(bump.status).toBe(200);
    expect(await status(o.rest.repos.getContent({ ...repo, path: 'nope.txt' }))).toBe(404);
    const pr = await o.rest.pulls.create({ ...repo, title: 'demo 1.0.1', head: 'relctl/demo-1.0.1', base: 'main', body: 'notes' });
    expect(pr.status).toBe(201);
    expect(pr.data).toMatchObject({ number: 2, state: 'open', head: { ref: 'relctl/demo-1.0.1', label: 'alice:relctl/demo-1.0.1' }, base: { ref: 'main' } });
    expect(await status(o.rest.pulls.create({ ...repo, title: 'again', head: 'relctl/demo-1.0.1', base: 'main' }))).toBe(422);
    const found = await o.rest.pulls.list({ ...repo, head: 'alice:relctl/demo-1.0.1', state: 'open' });
    expect(found.data.map((p) => p.number)).toEqual([2]);
    expect((await o.rest.pulls.list({ ...repo, head: 'alice:other' })).data).toEqual([]);
  });

  it('keeps its state across a restart on the same data folder', async () => {
    const port = sb.port;
    await sb.close();
    sb = await startSandbox({ dataDir: data.path, port });
    expect((await kit().rest.repos.getReleaseByTag({ owner: 'alice', repo: 'dist', tag: 'v1.0.0' })).data.body).toBe('better notes');
    const r = await request(`${sb.urls.jiraUrl}/rest/api/2/issue`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ fields: { project: { key: 'UP' }, summary: 'x' } }),
    });
    expect(r.statusCode).toBe(201);
    expect(await r.body.json()).toMatchObject({ key: 'UP-1' });
  });
});

describe('Jira stand-in', () => {
  it('answers issue get with status and resolution, 404 with Jira\'s error body, and PUT updates', async () => {
    const get = async (key: string) => {
      const r = await request(`${sb.urls.jiraUrl}/rest/api/2/issue/${key}?fields=status,resolution`);
      return { status: r.statusCode, json: (await r.body.json()) as any };
    };
    expect(await get('UP-1')).toMatchObject({ status: 200, json: { key: 'UP-1', fields: { status: { name: 'Open', statusCategory: { key: 'new' } }, resolution: null } } });
    expect(Object.keys((await get('UP-1')).json.fields)).toEqual(['status', 'resolution']);
    expect(await get('UP-9')).toMatchObject({ status: 404, json: { errorMessages: ['Issue does not exist or you do not have permission to see it.'] } });
    const put = await request(`${sb.urls.jiraUrl}/rest/api/2/issue/UP-1`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ fields: { status: { name: 'Done' }, resolution: { name: 'Fixed' } } }),
    });
    expect(put.statusCode).toBe(204);
    await put.body.dump();
    expect((await get('UP-1')).json.fields).toMatchObject({ status: { statusCategory: { key: 'done' } }, resolution: { name: 'Fixed' } });
  });

  it('creates an issue under a named key; the numbering goes on after it; a taken key is 400', async () => {
    const create = async (fields: Record<string, unknown>) => {
      const r = await request(`${sb.urls.jiraUrl}/rest/api/2/issue`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ fields }) });
      return { status: r.statusCode, json: (await r.body.json()) as any };
    };
    expect(await create({ project: { key: 'UP' }, key: 'UP-7', summary: 'seven', status: 'Closed', resolution: 'Fixed' })).toMatchObject({ status: 201, json: { key: 'UP-7' } });
    expect((await create({ project: { key: 'UP' }, summary: 'next' })).json.key).toBe('UP-8');
    expect((await create({ project: { key: 'UP' }, key: 'UP-7', summary: 'again' })).status).toBe(400);
    expect((await create({ project: { key: 'UP' }, key: 'XX-1', summary: 'other project' })).status).toBe(400);
  });

  it('the sandbox reset forgets GitHub and Jira state too', async () => {
    await control(sb, 'POST', 'reset');
    expect(await status(kit().rest.repos.getReleaseByTag({ owner: 'alice', repo: 'dist', tag: 'v1.0.0' }))).toBe(404);
    const r = await request(`${sb.urls.jiraUrl}/rest/api/2/issue/UP-1`);
    expect(r.statusCode).toBe(404);
    await r.body.dump();
  });
});

describe('robustness', () => {
  it('random GitHub and Jira requests get answers below 500 and the stand-ins keep serving', async () => {
    const segment = fc.oneof(fc.constantFrom('..', '%2e%2e', '%2F', '%00', '%', '__proto__', 'constructor', 'releases', 'tags', 'issues', 'git', 'refs', 'ref', 'heads', 'contents', 'pulls', '1', 'main', ''), fc.stringMatching(/^[A-Za-z0-9%._~-]{0,10}$/));
    const prefix = fc.constantFrom('/github/api/repos/o/r/', '/github/api/user/', '/github/api/', '/github/', '/jira/rest/api/2/issue/', '/jira/');
    const body = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)),
      fc.record({ title: fc.string(), tag_name: fc.string(), ref: fc.string(), sha: fc.string(), head: fc.string(), base: fc.string(), content: fc.string(), state: fc.string(), fields: fc.record({ project: fc.record({ key: fc.string() }), summary: fc.string(), key: fc.string() }) }, { requiredKeys: [] }).map((v) => JSON.stringify(v)),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('GET', 'PUT', 'POST', 'DELETE', 'PATCH'), prefix, fc.array(segment, { maxLength: 6 }), fc.constantFrom('', 'token alice', 'Bearer %%%', 'Basic !!'), body, async (method, pre, segs, auth, text) => {
        const r = await request(`http://127.0.0.1:${sb.port}${pre}${segs.join('/')}`, {
          method: method as 'GET',
          headers: { 'content-type': 'application/json', ...(auth === '' ? {} : { authorization: auth }) },
          ...(method === 'GET' ? {} : { body: text }),
        });
        await r.body.dump();
        expect(r.statusCode, `${method} ${pre}${segs.join('/')} ${text}`).toBeLessThan(500);
      }),
      { numRuns: 300, seed: 7 },
    );
    expect((await kit().rest.repos.get({ owner: 'o', repo: 'r' })).status).toBe(200);
  });

  it('refs, shas and paths named like object internals are just unknown', async () => {
    const o = kit('alice');
    const repo = { owner: 'o', repo: 'r' };
    expect(await status(o.rest.git.getRef({ ...repo, ref: '__proto__' }))).toBe(404);
    expect(await status(o.rest.repos.getContent({ ...repo, path: 'x', ref: '__proto__' }))).toBe(404);
    expect(await status(o.rest.repos.getContent({ ...repo, path: 'constructor', ref: 'constructor' }))).toBe(404);
    expect(await status(o.rest.git.createRef({ ...repo, ref: 'refs/heads/x', sha: '__proto__' }))).toBe(422);
    expect(await status(o.rest.pulls.create({ ...repo, title: 't', head: '__proto__', base: 'main' }))).toBe(422);
  });
});

