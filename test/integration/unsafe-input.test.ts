/**
 * User values that reach URLs: a malformed one is a usage error before anything is sent (the
 * recording server sees no request, so the token went nowhere), a good one is percent-encoded
 * once per path segment.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startHostileServer, type HostileServer } from '../helpers/hostile-server.js';
import { tempDir, type TempDir } from '../helpers/temp.js';

let server: HostileServer;
let cwd: TempDir;
beforeAll(async () => {
  server = await startHostileServer('json');
  cwd = await tempDir();
});
afterAll(async () => {
  await server?.close();
  await cwd?.[Symbol.asyncDispose]();
});
beforeEach(() => {
  server.requests.length = 0;
  server.body = { repositories: [], deploymentId: '6c1f0c3e-8f43-4b8e-9d59-0f6d3f3f9e11', deploymentState: 'VALIDATED', purls: [] };
});

const user = 'tok@user+1';
const run = (args: string[]) =>
  runCli([...args, '--json', '--cwd', cwd.path], {
    env: { RELCTL_STAGING_API_URL: `${server.url}/staging`, RELCTL_PORTAL_URL: `${server.url}/portal`, RELCTL_TOKEN_USERNAME: user, RELCTL_TOKEN_PASSWORD: 'pw-unsafe-input' },
  });
const code = (stdout: string): unknown => {
  const e = (JSON.parse(stdout) as { error: { code?: string; kind?: string } }).error;
  return e.code ?? e.kind;
};

describe('unsafe input never reaches a URL', () => {
  it.each([
    'u/1.2.3.4/../../../../sandbox/reset',
    'u/1.2.3.4/..%2F..%2Fsandbox%2Freset',
    '***/1.2.3.4/%2e%2e/org.example--default-repository',
    'u//org.example--default-repository',
    'u/1.2.3.4/org.example--default-repository/extra',
    'u/not-an-ip/org.example--default-repository',
    'u/1.2.3.4/bad group!--default-repository',
    'u/1.2.3.4/org.example',
  ])('drop --repository-key %j is exit 2 and sends nothing', async (bad) => {
    const r = await run(['drop', '--repository-key', bad, '--yes']);
    expect(r.exitCode, r.stderr).toBe(2);
    expect(code(r.stdout)).toBe('invalid-repository-key');
    expect(r.stderr).toContain('<user>/<address>/<namespace>--default-repository');
    expect(server.requests).toEqual([]);
  });

  it('upload --repository-key with a traversal is exit 2 too, also in a dry run', async () => {
    for (const extra of [['--yes'], ['--dry-run']]) {
      const r = await run(['upload', '--group-id', 'org.example', '--repository-key', 'u/1.2.3.4/../../x--default-repository', ...extra]);
      expect(r.exitCode, r.stderr).toBe(2);
    }
    expect(server.requests).toEqual([]);
  });

  it.each([['search'], ['upload', '--yes'], ['status'], ['preflight', '--offline']])('--group-id "bad group!" is exit 2 for %s', async (...args) => {
    const r = await run([...args, '--group-id', 'bad group!']);
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toContain('not a Maven group id');
    expect(server.requests).toEqual([]);
  });

  it.each([
    ['status', '--deployment', '..'],
    ['publish', '--deployment', '../x', '--yes'],
    ['drop', '--deployment', '../../sandbox/reset', '--yes'],
    ['status', '--deployment', 'a b'],
  ])('a deployment id that is not one is exit 2: %s %s %s', async (...args) => {
    const r = await run(args);
    expect(r.exitCode, r.stderr).toBe(2);
    expect(code(r.stdout)).toBe('invalid-deployment-id');
    expect(server.requests).toEqual([]);
  });

  it('a good key is sent once-encoded, segment by segment, with the masked user put back', async () => {
    server.body = {};
    const r = await run(['drop', '--repository-key', '***/2001:db8::7/org.example--default-repository', '--yes']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(server.requests.map((q) => `${q.method} ${q.url}`)).toEqual([
      `DELETE /staging/manual/drop/repository/${encodeURIComponent(user)}/2001%3Adb8%3A%3A7/org.example--default-repository`,
    ]);
    expect(server.requests[0]!.authorization).toBe(true);
    // The username never shows, though the key holds it.
    expect(r.stdout + r.stderr).not.toContain(user);
  });

  it('query values are encoded by the one URL builder', async () => {
    const r = await run(['search', '--group-id', 'org.example', '--state', 'open']);
    expect(r.exitCode, r.stderr).toBe(0);
    // First the namespace's look-up (every repository), then the search of the namespace it names.
    expect(server.requests.map((q) => q.url)).toEqual(['/staging/manual/search/repositories?ip=any', '/staging/manual/search/repositories?ip=any&profile_id=org.example&state=open']);
  });
});
