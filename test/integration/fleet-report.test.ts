import { cp, mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Octokit } from '@octokit/rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { runCli } from '../helpers/cli.js';
import { makeFleet, stagingUrl, type Fleet } from '../helpers/fleet.js';
import { recordingProxy, type RecordingProxy } from '../helpers/recording-proxy.js';
import { fleetSchemaErrors } from '../helpers/report-validators.js';
import { git, gitEnv, tempDir, type TempDir } from '../helpers/temp.js';

/**
 * `relctl fleet report` (DESIGN §13 Report) end to end: the CI matrix's documents (one `fleet audit
 * --only NAME --json --out` per repository, laid out as actions/download-artifact does) merged into
 * the report a whole audit gives, byte for byte; and the dashboard issue on the sandbox's GitHub
 * stand-in, behind a proxy that records every call, so that "no edit" is seen as no PATCH.
 */
describe('relctl fleet report', () => {
  let tmp: TempDir;
  let fleet: Fleet;
  let home: string;
  let workdir: string;
  let docs: string;
  let sandbox: RunningSandbox;
  let proxy: RecordingProxy;
  const token = 'fleet-bot';
  const names = ['acme/acme-parent', 'acme/child-fixed', 'acme/child-own', 'acme/child-waits', 'acme/site', 'acme/gone'];
  const cli = (args: string[], env: Record<string, string> = {}) => runCli(['fleet', ...args], { cwd: tmp.path, home, env: { ...gitEnv(home), ...env } });
  const audit = (...args: string[]) => cli(['audit', '--repos', fleet.reposFile, '--workdir', workdir, '--offline', ...args]);
  const report = (...args: string[]) => cli(['report', ...args, '--github-url', `${proxy.url}/github/api`], { RELCTL_GITHUB_TOKEN: token });
  const kit = (login: string): Octokit => new Octokit({ baseUrl: sandbox.urls.githubApiUrl, auth: login, log: { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined } });
  const writes = () => proxy.calls.filter((c) => c.method !== 'GET');

  beforeAll(async () => {
    tmp = await tempDir('relctl-fleet-report-');
    home = path.join(tmp.path, 'home');
    workdir = path.join(tmp.path, 'work');
    docs = path.join(tmp.path, 'artifacts');
    fleet = await makeFleet(path.join(tmp.path, 'git'), home);
    sandbox = await startSandbox({ gitRoot: fleet.root });
    proxy = await recordingProxy(new URL(sandbox.urls.githubApiUrl).origin);
    // The matrix: one --only audit per repository, each its own artifact folder.
    for (const name of names) {
      const artifact = name.replace('/', '_');
      const r = await audit('--only', name, '--json', '--out', path.join(docs, artifact, `${artifact}.json`));
      expect([0, 1], r.stderr).toContain(r.exitCode);
    }
  });
  afterAll(async () => {
    await proxy?.close();
    await sandbox?.close();
    await tmp[Symbol.asyncDispose]();
  });

  it('--from: the documents of a matrix give the report of one whole audit, byte for byte in every format', async () => {
    const whole = await audit('--format', 'markdown');
    const merged = await cli(['report', '--from', docs, '--format', 'markdown']);
    expect(merged.exitCode, merged.stderr).toBe(1);
    expect(whole.exitCode).toBe(1);
    expect(merged.stdout).toBe(whole.stdout);
    expect(merged.stderr).toContain('read 6 documents: 6 repositories');
    for (const format of [['--format', 'text'], ['--format', 'junit'], ['--format', 'html'], ['--json']]) {
      expect((await cli(['report', '--from', docs, ...format])).stdout, format.join(' ')).toBe((await audit(...format)).stdout);
    }
    const out = path.join(tmp.path, 'merged.json');
    expect((await cli(['report', '--from', docs, '--json', '--out', out])).exitCode).toBe(1);
    expect(await fleetSchemaErrors(JSON.parse(await readFile(out, 'utf8')))).toEqual([]);
    // --usage is no audit flag: the merged plan's budget counts the export as an audit here does.
    const csv = path.join(tmp.path, 'usage.csv');
    await writeFile(csv, 'Namespace,Release Count,File Count,Total Release Size\norg.example,1,10,1 MB\n');
    const counted = await cli(['report', '--from', docs, '--usage', csv]);
    expect(counted.stdout, counted.stderr).toBe((await audit('--usage', csv)).stdout);
    expect(counted.stdout).toContain('2 of 3 left this month');
  });

  it('--from: a malformed document, one that is not JSON, a link or an empty folder is exit 2 naming it', async () => {
    const bad = path.join(tmp.path, 'bad');
    await cp(docs, bad, { recursive: true });
    const file = path.join(bad, 'acme_site', 'acme_site.json');
    const doc = JSON.parse(await readFile(file, 'utf8')) as { repositories: { verdict: string }[] };
    doc.repositories[0]!.verdict = '<b>ready</b>';
    await writeFile(file, JSON.stringify(doc));
    const r = await cli(['report', '--from', bad, '--json']);
    expect(r.exitCode).toBe(2);
    expect(JSON.parse(r.stdout)).toMatchObject({ ok: false, error: { code: 'bad-fleet-report', message: expect.stringContaining('acme_site/acme_site.json') } });
    expect(r.stdout).toContain('repositories[0].verdict must be one of ready, blocked');
    expect(r.stdout).not.toContain('<b>');

    await writeFile(file, 'root:x:0:0:secret\n');
    const notJson = await cli(['report', '--from', bad]);
    expect(notJson.exitCode).toBe(2);
    expect(notJson.stderr).toContain('acme_site/acme_site.json is not a relctl fleet audit --json document: it is not JSON');
    expect(notJson.stderr).not.toContain('secret');

    await rm(file);
    await symlink(path.join(docs, 'acme_site', 'acme_site.json'), file);
    expect((await cli(['report', '--from', bad])).stderr).toContain('it is a symbolic link');
    const empty = path.join(tmp.path, 'empty');
    await mkdir(empty);
    expect((await cli(['report', '--from', empty])).exitCode).toBe(2);
    const mixed = await cli(['report', '--from', docs, '--org', 'acme']);
    expect(mixed.exitCode).toBe(2);
    expect(mixed.stderr).toContain('--org has no meaning with it');
  });

  it('--issue: creates the issue once, edits nothing when nothing changed, edits the same issue when the fleet did; another user\'s issue is never touched', async () => {
    const repo = { owner: 'ops', repo: 'fleet-admin' };
    const mallory = await kit('mallory').rest.issues.create({ ...repo, title: 'relctl fleet readiness', body: 'not yours' });
    const whole = (await cli(['report', '--from', docs, '--format', 'markdown'])).stdout;

    const first = await report('--from', docs, '--issue', 'ops/fleet-admin');
    expect(first.exitCode, first.stderr).toBe(1);
    expect(first.stdout).toMatch(/^6 repositories: 2 ready, 1 blocked, 1 waits-on-parent, 1 not-published, 1 error\npublishing budget \d{4}-\d{2}: 3 releases needed, [^\n]+\ncreated ops\/fleet-admin#2 http/);
    expect(writes()).toEqual([{ method: 'POST', path: '/github/api/repos/ops/fleet-admin/issues' }]);
    const created = (await kit(token).rest.issues.get({ ...repo, issue_number: 2 })).data;
    expect(created.title).toBe('relctl fleet readiness');
    expect(created.user?.login).toBe(token);
    // execa strips stdout's final newline; the body keeps it.
    expect(created.body).toBe(`${whole}\n`);

    proxy.calls.length = 0;
    const second = await report('--from', docs, '--issue', 'ops/fleet-admin', '--json');
    expect(second.exitCode).toBe(1);
    expect(JSON.parse(second.stdout)).toMatchObject({ ok: false, dryRun: false, issue: { action: 'unchanged', repository: 'ops/fleet-admin', number: 2 }, error: { code: 'fleet-not-ready' } });
    expect(writes()).toEqual([]);
    expect(proxy.calls.map((c) => c.path)).toEqual(['/github/api/user', '/github/api/repos/ops/fleet-admin/issues']);

    // The fleet changes: acme/gone's job uploaded nothing this time.
    const fewer = path.join(tmp.path, 'fewer');
    await cp(docs, fewer, { recursive: true });
    await rm(path.join(fewer, 'acme_gone'), { recursive: true });
    const dry = await report('--from', fewer, '--issue', 'ops/fleet-admin', '--dry-run');
    expect(dry.stdout).toContain('**5 repositories: 2 ready, 1 blocked, 1 waits-on-parent, 1 not-published, 0 error');
    expect(dry.stdout).toMatch(/\n\nwould edit ops\/fleet-admin#2 http\S+$/);
    expect(dry.stderr).toContain('! edit the issue "relctl fleet readiness" in ops/fleet-admin#2');
    expect(writes()).toEqual([]);
    const third = await report('--from', fewer, '--issue', 'ops/fleet-admin');
    expect(third.stdout).toMatch(/^edited ops\/fleet-admin#2 /m);
    expect(writes()).toEqual([{ method: 'PATCH', path: '/github/api/repos/ops/fleet-admin/issues/2' }]);

    // Closed by someone: reopened, not duplicated.
    await kit(token).rest.issues.update({ ...repo, issue_number: 2, state: 'closed' });
    expect((await report('--from', docs, '--issue', 'ops/fleet-admin')).stdout).toMatch(/^reopened ops\/fleet-admin#2 /m);
    const all = (await kit(token).rest.issues.listForRepo({ ...repo, state: 'all' })).data;
    expect(all.map((i) => [i.number, i.user?.login, i.state])).toEqual([[2, token, 'open'], [1, 'mallory', 'open']]);
    expect((await kit(token).rest.issues.get({ ...repo, issue_number: mallory.data.number })).data.body).toBe('not yours');
    for (const text of [first.stdout, first.stderr, third.stdout, third.stderr]) expect(text).not.toContain(token);
  });

  it('--issue without --from audits first, as fleet audit does; a fix pushed to a repository edits the same issue', async () => {
    const args = ['--repos', fleet.reposFile, '--workdir', workdir, '--offline', '--issue', 'ops/audited'];
    const first = await report(...args);
    expect(first.exitCode, first.stderr).toBe(1);
    expect(first.stderr).toContain('acme/child-own: blocked (legacy-staging-host');
    expect(first.stdout).toMatch(/^created ops\/audited#1 /m);

    // child-own deploys through the staging API now: the next run's dashboard says so, in the same issue.
    const work = path.join(`${fleet.root}.work`, 'acme/child-own');
    const pom = await readFile(path.join(work, 'pom.xml'), 'utf8');
    await writeFile(path.join(work, 'pom.xml'), pom.replace(/<url>https:\/\/oss\.sonatype\.org[^<]*<\/url>/, `<url>${stagingUrl}</url>`));
    await git(work, home, 'commit', '-q', '-am', 'deploy through the staging API');
    await git(work, home, 'push', '-q', fleet.bare('acme/child-own'), 'main');
    proxy.calls.length = 0;
    const second = await report(...args);
    expect(second.stderr).toContain('acme/child-own: ready');
    expect(second.stdout).toMatch(/^edited ops\/audited#1 /m);
    expect(writes()).toEqual([{ method: 'PATCH', path: '/github/api/repos/ops/audited/issues/1' }]);
    const issues = (await kit(token).rest.issues.listForRepo({ owner: 'ops', repo: 'audited', state: 'all' })).data;
    expect(issues).toHaveLength(1);
    expect(issues[0]!.body).toContain('**6 repositories: 3 ready, 0 blocked');
  });

  it('--issue needs a token and an OWNER/NAME (exit 2)', async () => {
    const none = await cli(['report', '--from', docs, '--issue', 'ops/fleet-admin', '--github-url', `${proxy.url}/github/api`], { GITHUB_TOKEN: '' });
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toContain('needs a GitHub token');
    const bad = await cli(['report', '--from', docs, '--issue', 'not a repo']);
    expect(bad.exitCode).toBe(2);
  });
});
