import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { runCli, type CliResult } from '../helpers/cli.js';
import { History } from '../helpers/history.js';
import { tempDir, type TempDir } from '../helpers/temp.js';
import { pushTagToSandbox } from './notes-github-tags.js';
import { control, pomXml } from './upload-helpers.js';

/**
 * Issue 18 items 9 and 10 for `relctl notes`: what release-it and semantic-release users expect
 * (--changelog, --to, --draft/--prerelease, the tag on the host before its release page, Jira with
 * a token) and the messages: a 422 names GitHub's field, a rate limit says so, "passed" only when
 * every reference was confirmed, --output naming a folder is a usage error.
 */
const token = 'ghp_canary_release_it_secret';
const jiraToken = 'jira-pat-canary-secret';
let sb: RunningSandbox;
let work: TempDir;
let dir: string;
let firstFix: string;

const env = (extra: Record<string, string> = {}): Record<string, string> => ({
  RELCTL_GITHUB_API_URL: sb.urls.githubApiUrl,
  RELCTL_PUBLIC_REPO_URL: sb.urls.publicRepoUrl,
  RELCTL_TEST_NOW: '2026-11-20T10:00:00Z',
  GITHUB_TOKEN: '',
  PATH: '/usr/bin:/bin',
  ...extra,
});
const notes = (args: string[], extra?: Record<string, string>): Promise<CliResult> => runCli(['notes', '--cwd', dir, ...args], { home: work.path, env: env(extra) });

async function releasesOf(repo: string): Promise<{ tag_name: string; draft: boolean; prerelease: boolean }[]> {
  return (await (await request(`${sb.urls.githubApiUrl}/repos/${repo}/releases`)).body.json()) as never;
}

beforeAll(async () => {
  work = await tempDir();
  sb = await startSandbox();
  dir = path.join(work.path, 'demo');
  const h = await History.create(dir, work.path, {
    'pom.xml': pomXml({ groupId: 'org.example', artifactId: 'demo', version: '1.1.0-SNAPSHOT' }),
    'relctl.config.json': JSON.stringify({ tracker: { repo: 'acme/demo', jiraProjects: ['UP'] } }),
  });
  await h.mavenRelease('demo', '1.0.0');
  firstFix = await h.commit('fix: first fix');
  await h.commit('feat: second feature');
  await h.mavenRelease('demo', '1.0.1');
}, 60_000);

afterAll(async () => {
  await sb?.close();
  await work?.[Symbol.asyncDispose]();
});

describe('notes --changelog', () => {
  it('inserts the section under the title, above the newest release, keeping every other byte; once per version', async () => {
    // CRLF lines and a byte that is not UTF-8: both must survive untouched.
    const before = Buffer.concat([Buffer.from('# Changelog\r\n\r\nAll notable changes.\r\n\r\n## 1.0.0 (2026-01-01)\r\n\r\n- caf'), Buffer.from([0xe9]), Buffer.from('\r\n')]);
    const file = path.join(dir, 'CHANGELOG.md');
    await writeFile(file, before);
    const dry = await notes(['--offline', '--changelog', 'CHANGELOG.md', '--dry-run']);
    expect(dry.exitCode, dry.stderr).toBe(0);
    expect(dry.stderr).toContain('! insert at line 5 of');
    expect(dry.stderr).toContain('## 1.0.1 (2026-11-20)');
    expect(await readFile(file)).toEqual(before);

    const r = await notes(['--offline', '--changelog', 'CHANGELOG.md']);
    expect(r.exitCode, r.stderr).toBe(0);
    const after = await readFile(file);
    const head = Buffer.from('# Changelog\r\n\r\nAll notable changes.\r\n\r\n');
    expect(after.subarray(0, head.length)).toEqual(head);
    expect(after.subarray(after.length - (before.length - head.length))).toEqual(before.subarray(head.length));
    const section = after.subarray(head.length, after.length - (before.length - head.length)).toString('utf8');
    expect(section).toMatch(/^## 1\.0\.1 \(2026-11-20\)\r\n\r\n### Features\r\n\r\n- second feature \([0-9a-f]{7}\)\r\n\r\n### Fixes\r\n\r\n- first fix \([0-9a-f]{7}\)\r\n\r\n$/);

    const again = await notes(['--offline', '--changelog', 'CHANGELOG.md']);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stderr).toContain('already has a section for 1.0.1 (line 5); left as it is');
    expect(await readFile(file)).toEqual(after);
  });

  it('creates a missing file with a title and the section', async () => {
    const r = await notes(['--offline', '--changelog', 'docs-changes.md']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(await readFile(path.join(dir, 'docs-changes.md'), 'utf8')).toMatch(/^# Changelog\n\n## 1\.0\.1 \(2026-11-20\)\n\n### Features\n/);
  });
});

describe('notes --to, --output and --release-version', () => {
  it('--to ends the range at the ref; a ref that does not exist is exit 2', async () => {
    const r = await notes(['--offline', '--to', firstFix, '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as { sections: { title: string; entries: { subject: string }[] }[] };
    expect(doc.sections.map((s) => [s.title, s.entries.map((e) => e.subject)])).toEqual([['Fixes', ['first fix']]]);
    const bad = await notes(['--offline', '--to', 'no-such-ref']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('--to no-such-ref: no such tag, branch or commit here.');
  });

  it('--output naming a folder or a missing folder is exit 2 with a clear message and no stack', async () => {
    await mkdir(path.join(dir, 'out-dir'), { recursive: true });
    for (const [target, words] of [['out-dir', 'is a folder, not a file'], ['missing/notes.md', 'does not exist']] as const) {
      const r = await notes(['--offline', '--output', target]);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain(words);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
    expect((await stat(path.join(dir, 'out-dir'))).isDirectory()).toBe(true);
    const dry = await notes(['--offline', '--output', 'dry-notes.md', '--dry-run']);
    expect(dry.exitCode, dry.stderr).toBe(0);
    expect(dry.stderr).toContain('! write the notes to dry-notes.md');
    expect(dry.stdout).toContain('## Features');
    await expect(stat(path.join(dir, 'dry-notes.md'))).rejects.toThrow();
  });

  it('a release version with a trailing space is exit 2', async () => {
    const r = await notes(['--offline', '--release-version', '1.0.1 ']);
    expect(r.exitCode).toBe(2);
  });
});

describe('notes --publish on the repository host', () => {
  it('a tag GitHub does not have is exit 1 naming git push, and no release is made', async () => {
    const r = await notes(['--offline', '--repo', 'acme/untagged', '--publish'], { RELCTL_GITHUB_TOKEN: token });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('The tag demo-1.0.1 is not on GitHub');
    expect(r.stderr).toContain('git push origin demo-1.0.1');
    expect(await releasesOf('acme/untagged')).toEqual([]);
  });

  it('--draft and --prerelease reach GitHub; a second run finds the draft and makes no second release', async () => {
    await pushTagToSandbox(sb.urls.githubApiUrl, 'acme/drafts', 'demo-1.0.1');
    const r = await notes(['--offline', '--repo', 'acme/drafts', '--publish', '--draft', '--prerelease'], { RELCTL_GITHUB_TOKEN: token });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(await releasesOf('acme/drafts')).toMatchObject([{ tag_name: 'demo-1.0.1', draft: true, prerelease: true }]);
    const same = await notes(['--offline', '--repo', 'acme/drafts', '--publish', '--draft', '--prerelease'], { RELCTL_GITHUB_TOKEN: token });
    expect(same.stderr).toContain('release page unchanged');
    // Publishing the draft is an update, shown first and made with --yes.
    const out = await notes(['--offline', '--repo', 'acme/drafts', '--publish', '--yes'], { RELCTL_GITHUB_TOKEN: token });
    expect(out.exitCode, out.stderr).toBe(0);
    expect(out.stderr).toContain('+ demo 1.0.1 (draft: no, prerelease: no)');
    expect(await releasesOf('acme/drafts')).toMatchObject([{ tag_name: 'demo-1.0.1', draft: false, prerelease: false }]);
  });

  it("a 422 names GitHub's failing field; a rate limit says so and when to retry", async () => {
    await pushTagToSandbox(sb.urls.githubApiUrl, 'acme/refused', 'demo-1.0.1');
    const fault = { prefix: '/github/api/repos/acme/refused/releases', method: 'POST', count: 1 };
    await control(sb, 'POST', 'faults', { ...fault, status: 422, body: { message: 'Validation Failed', errors: [{ resource: 'Release', code: 'custom', field: 'body', message: 'body is too long (maximum is 125000 characters)' }] } });
    const invalid = await notes(['--offline', '--repo', 'acme/refused', '--publish', '--json'], { RELCTL_GITHUB_TOKEN: token });
    expect(invalid.exitCode).toBe(3);
    expect((JSON.parse(invalid.stdout) as { error: { message: string } }).error.message).toContain('Release.body: body is too long');
    await control(sb, 'POST', 'faults', { ...fault, status: 429, retryAfter: 120 });
    const limited = await notes(['--offline', '--repo', 'acme/refused', '--publish'], { RELCTL_GITHUB_TOKEN: token });
    expect(limited.exitCode).toBe(3);
    expect(limited.stderr).toContain("GitHub's rate limit is used up");
    expect(limited.stderr).toMatch(/try again after \d{4}-\d\d-\d\dT/);
    for (const x of [invalid, limited]) expect(x.stdout + x.stderr).not.toContain(token);
  });
});

describe('the tracker check', () => {
  beforeAll(async () => {
    const jira = `${sb.urls.jiraUrl}/rest/api/2/issue`;
    const make = (fields: Record<string, unknown>) => request(jira, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ fields: { project: { key: 'UP' }, ...fields } }) });
    expect((await make({ summary: 'private fix', status: 'Done', resolution: 'Fixed', key: 'UP-7', restricted: true })).statusCode).toBe(201);
    const h = new History(dir, work.path);
    await h.commit('fix: the private one (UP-7)');
  });

  it('a private Jira issue needs RELCTL_JIRA_TOKEN: without it "not passed", with it (Bearer or basic) passed; never printed', async () => {
    const jiraEnv = { RELCTL_JIRA_URL: sb.urls.jiraUrl };
    const anonymous = await notes(['--release-version', '1.0.1', '--to', 'HEAD'], jiraEnv);
    expect(anonymous.exitCode, anonymous.stderr).toBe(0);
    expect(anonymous.stderr).toContain('tracker-unknown');
    expect(anonymous.stderr).toContain('a private project\'s issues need RELCTL_JIRA_TOKEN');
    expect(anonymous.stderr).toContain('tracker check: not passed: 1 of 1 reference could not be confirmed');
    expect(anonymous.stderr).not.toContain('tracker check: passed');
    const credentials: Record<string, string>[] = [{ RELCTL_JIRA_TOKEN: jiraToken }, { RELCTL_JIRA_TOKEN: jiraToken, RELCTL_JIRA_USER: 'me@example.org' }];
    for (const extra of credentials) {
      const signed = await notes(['--release-version', '1.0.1', '--to', 'HEAD', '--verbose'], { ...jiraEnv, ...extra });
      expect(signed.exitCode, signed.stderr).toBe(0);
      expect(signed.stderr).toContain('tracker check: passed (1 reference resolved)');
      expect(signed.stdout + signed.stderr).not.toContain(jiraToken);
      expect(signed.stdout + signed.stderr).not.toContain(Buffer.from(`me@example.org:${jiraToken}`).toString('base64'));
    }
  });

  it('a malformed credential is refused by Jira and read as unreachable, not as a missing issue', async () => {
    const r = await notes(['--release-version', '1.0.1', '--to', 'HEAD', '--json'], { RELCTL_JIRA_URL: sb.urls.jiraUrl, RELCTL_JIRA_TOKEN: 'two words' });
    const doc = JSON.parse(r.stdout) as { findings: { code: string; message: string }[] };
    expect(doc.findings).toMatchObject([{ code: 'tracker-unreachable', message: expect.stringContaining('Jira refused the request (HTTP 401): check RELCTL_JIRA_TOKEN') }]);
  });

  it("GitHub's rate limit in the tracker check says so and when it resets", async () => {
    await new History(dir, work.path).commit('fix: see #4');
    await control(sb, 'POST', 'faults', { prefix: '/github/api/repos/acme/demo/issues/', status: 403, count: 5, body: { message: 'API rate limit exceeded for 127.0.0.1.' } });
    const r = await notes(['--release-version', '1.0.1', '--to', 'HEAD', '--json'], { RELCTL_GITHUB_TOKEN: token });
    await control(sb, 'DELETE', 'faults');
    const doc = JSON.parse(r.stdout) as { findings: { code: string; message: string }[] };
    const github = doc.findings.find((f) => f.message.startsWith('#4'));
    expect(github).toMatchObject({ code: 'tracker-unreachable', message: expect.stringContaining("GitHub's rate limit is used up") });
    expect(github!.message).toContain('try again later');
  });
});
