import { mkdir, readFile, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { runCli } from '../helpers/cli.js';
import { History } from '../helpers/history.js';
import { git, tempDir, type TempDir } from '../helpers/temp.js';
import { control, pomXml } from './upload-helpers.js';

/**
 * `relctl notes` end to end: a real history (tags, a merge, Maven and Gradle release-plugin
 * commits, the orphan 1.0.1 of the uPortal-style flow, a breaking change, scopes, multi-line and
 * non-ASCII messages) against the sandbox's public repository, GitHub and Jira stand-ins.
 */
let sb: RunningSandbox;
let work: TempDir;
let dir: string;
let home: string;
let closedPort: number;

async function api(method: string, url: string, body?: unknown, token = 'alice'): Promise<{ status: number; json: any }> {
  const r = await request(url, {
    method: method as 'GET',
    headers: { authorization: `token ${token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await r.body.text();
  return { status: r.statusCode, json: text === '' ? undefined : JSON.parse(text) };
}

function env(extra: Record<string, string> = {}): Record<string, string> {
  return {
    RELCTL_PUBLIC_REPO_URL: sb.urls.publicRepoUrl,
    RELCTL_GITHUB_API_URL: sb.urls.githubApiUrl,
    RELCTL_JIRA_URL: sb.urls.jiraUrl,
    RELCTL_TIMEOUT: '5',
    GITHUB_TOKEN: '',
    PATH: `${path.join(work.path, 'no-gh')}:/usr/bin:/bin`,
    ...extra,
  };
}

const notes = (args: string[], extra?: Record<string, string>) => runCli(['notes', '--cwd', dir, ...args], { home, env: env(extra) });

beforeAll(async () => {
  work = await tempDir();
  home = work.path;
  const seed = path.join(work.path, 'seed');
  await mkdir(path.join(seed, 'org/example/demo/1.0.0'), { recursive: true });
  await writeFile(path.join(seed, 'org/example/demo/1.0.0/demo-1.0.0.pom'), pomXml({ groupId: 'org.example', artifactId: 'demo', version: '1.0.0' }));
  sb = await startSandbox({ seedRepo: seed });
  closedPort = await new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(p));
    });
  });

  dir = path.join(work.path, 'demo');
  const h = await History.create(dir, home, {
    'pom.xml': pomXml({ groupId: 'org.example', artifactId: 'demo', version: '1.0.3-SNAPSHOT' }),
    'relctl.config.json': JSON.stringify({ tracker: { repo: 'acme/demo', jiraProjects: ['UP'] } }),
  });
  await h.commit('feat: before 1.0.0 (must not appear)');
  await h.mavenRelease('demo', '1.0.0');
  await h.commit('feat(api): add the greeting endpoint\n\nCloses #1');
  await h.commit('fix: a null name no longer fails\n\nThe body explains\nover two lines.\n\nFixes #2');
  await h.mavenRelease('demo', '1.0.1');
  await h.merged('topic', ['fix(i18n): Grüße für naïve Nutzer 🎉 (UP-1)', 'docs(readme): how to configure UP-2']);
  await h.commit('feat(core)!: drop the v1 configuration keys\n\nRefs #99 and UP-404');
  await h.commit('refactor: split the parser\n\nBREAKING CHANGE: Parser.parse now throws on empty input');
  await h.commit('Tidy the build output');
  await h.commit('chore: pre-release prep');
  await h.gradleRelease('unrelated-9.9.9', '9.9.10-SNAPSHOT');
  await h.mavenRelease('demo', '1.0.2');
  await h.commit('fix: after 1.0.2 (must not appear)');

  // Tracker state through the stand-ins' own APIs: #1 closed, #2 open, #99 unknown; UP-1 done, UP-2 open.
  const gh = `${sb.urls.githubApiUrl}/repos/acme/demo/issues`;
  expect((await api('POST', gh, { title: 'greeting' })).status).toBe(201);
  expect((await api('POST', gh, { title: 'null name' })).status).toBe(201);
  expect((await api('PATCH', `${gh}/1`, { state: 'closed' })).json.state).toBe('closed');
  const jira = `${sb.urls.jiraUrl}/rest/api/2/issue`;
  expect((await api('POST', jira, { fields: { project: { key: 'UP' }, summary: 'umlauts', status: 'Done', resolution: 'Fixed' } })).json.key).toBe('UP-1');
  expect((await api('POST', jira, { fields: { project: { key: 'UP' }, summary: 'readme', status: 'In Progress' } })).json.key).toBe('UP-2');
}, 60_000);

afterAll(async () => {
  await sb?.close();
  await work?.[Symbol.asyncDispose]();
});

interface NotesJson {
  ok: boolean;
  version: string | null;
  previous: string | null;
  skipped: string[];
  sections: { title: string; entries: { sha: string; type: string | null; scope: string | null; subject: string; breaking: boolean; refs: string[] }[] }[];
  findings: { code: string; severity: string; message: string }[];
  markdown: string;
  releaseUrl: string | null;
}

describe('relctl notes', () => {
  it('uPortal-style flow: 1.0.2 after the orphan 1.0.1 starts at the published 1.0.0 and says 1.0.1 was skipped', async () => {
    const r = await notes(['--release-version', '1.0.2', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as NotesJson;
    expect(Object.keys(doc)).toEqual(['ok', 'version', 'previous', 'skipped', 'sections', 'findings', 'markdown', 'releaseUrl']);
    expect(doc).toMatchObject({ ok: true, version: '1.0.2', previous: '1.0.0', skipped: ['1.0.1'], releaseUrl: null });
    expect(doc.sections.map((s) => [s.title, s.entries.map((e) => e.subject)])).toEqual([
      ['Breaking changes', ['split the parser', 'drop the v1 configuration keys']],
      ['Features', ['add the greeting endpoint']],
      ['Fixes', ['Grüße für naïve Nutzer 🎉 (UP-1)', 'a null name no longer fails']],
      ['Chores', ['how to configure UP-2']],
      ['Other', ['Tidy the build output']],
    ]);
    const drop = doc.sections[0]!.entries[1]!;
    expect(drop).toMatchObject({ type: 'feat', scope: 'core', breaking: true, refs: ['#99', 'UP-404'] });
    expect(drop.sha).toMatch(/^[0-9a-f]{7}$/);
    expect(doc.sections[3]!.entries[0]).toMatchObject({ type: 'docs', scope: 'readme', refs: ['UP-2'] });
    expect(doc.markdown.startsWith('1.0.1 was prepared but not published; this release supersedes it.\n')).toBe(true);
    expect(doc.markdown).not.toMatch(/must not appear|maven-release-plugin|Gradle Release Plugin|pre-release prep|Merge branch/);
    expect(doc.findings.map((f) => `${f.code} ${f.message.split(' ')[0]}`).sort()).toEqual([
      'tracker-unknown #99',
      'tracker-unknown UP-404',
      'tracker-unresolved #2',
      'tracker-unresolved UP-2',
    ]);
    expect(doc.findings.every((f) => f.severity === 'warning')).toBe(true);
  });

  it('text mode prints the Markdown on stdout and the findings on stderr; --strict makes them errors (exit 1)', async () => {
    const r = await notes(['--release-version', '1.0.2']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toContain('## Breaking changes\n\n- **refactor:** split the parser (');
    expect(r.stdout).toContain('- **i18n:** Grüße für naïve Nutzer 🎉 (UP-1) (');
    expect(r.stderr).toContain('tracker-unresolved');
    const strict = await notes(['--release-version', '1.0.2', '--strict', '--json']);
    expect(strict.exitCode).toBe(1);
    expect((JSON.parse(strict.stdout) as NotesJson).ok).toBe(false);
  });

  it('--offline asks nobody: without the journal 1.0.1 counts as the previous release; with it, the orphan is known', async () => {
    const r = await notes(['--release-version', '1.0.2', '--offline', '--json'], { RELCTL_PUBLIC_REPO_URL: `http://127.0.0.1:${closedPort}/repo`, RELCTL_JIRA_URL: `http://127.0.0.1:${closedPort}/jira` });
    const doc = JSON.parse(r.stdout) as NotesJson;
    expect(doc).toMatchObject({ previous: '1.0.1', skipped: [], findings: [] });
    await mkdir(path.join(dir, '.relctl'), { recursive: true });
    await writeFile(
      path.join(dir, '.relctl/journal.json'),
      JSON.stringify({ version: 1, release: { version: '1.0.2', tag: 'demo-1.0.2', nextVersion: '1.0.3-SNAPSHOT', skippedVersions: ['1.0.1'], buildTool: 'maven' }, steps: [], uploads: [] }),
    );
    try {
      // No --release-version: the journal's release.
      const j = JSON.parse((await notes(['--offline', '--json'])).stdout) as NotesJson;
      expect(j).toMatchObject({ version: '1.0.2', previous: '1.0.0', skipped: ['1.0.1'] });
    } finally {
      await writeFile(path.join(dir, '.relctl/journal.json'), JSON.stringify({ version: 1, steps: [], uploads: [] }));
    }
  });

  it('the newest release tag is the default version; --since overrides the start', async () => {
    const r = JSON.parse((await notes(['--offline', '--json', '--since', 'demo-1.0.1'])).stdout) as NotesJson;
    expect(r).toMatchObject({ version: '1.0.2', previous: '1.0.1' });
    expect(r.sections.flatMap((s) => s.entries.map((e) => e.subject))).not.toContain('add the greeting endpoint');
    const bad = await notes(['--offline', '--since', 'no-such-tag']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('--since no-such-tag: no such tag or commit here.');
  });

  it('an unreachable tracker warns (tracker-unreachable) and blocks nothing', async () => {
    const r = await notes(['--release-version', '1.0.2', '--json'], { RELCTL_GITHUB_API_URL: `http://127.0.0.1:${closedPort}/api`, RELCTL_JIRA_URL: `http://127.0.0.1:${closedPort}/jira` });
    expect(r.exitCode, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as NotesJson;
    expect(doc.findings.map((f) => f.code)).toEqual(Array(6).fill('tracker-unreachable'));
    expect(doc.findings[0]!.message).toMatch(/connection refused/);
  });

  it('a tracker that answers too slowly is unreachable within the --timeout deadline', async () => {
    await control(sb, 'POST', 'faults', { prefix: '/jira/rest/api/2/issue/', delayMs: 4000, count: 10 });
    const began = Date.now();
    const r = await notes(['--release-version', '1.0.2', '--json'], { RELCTL_TIMEOUT: '1' });
    const took = Date.now() - began;
    await control(sb, 'DELETE', 'faults');
    expect(r.exitCode, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as NotesJson;
    const jira = doc.findings.filter((f) => /^UP-/.test(f.message));
    expect(jira.map((f) => f.code)).toEqual(['tracker-unreachable', 'tracker-unreachable', 'tracker-unreachable']);
    expect(jira[0]!.message).toMatch(/no complete answer within 1 s/);
    // Three keys looked up side by side, each within one 1 s deadline: far below 3 × 4 s.
    expect(took).toBeLessThan(12_000);
  });

  it('a project without Jira (no URL, no project keys) keeps KEY-N references but asks only GitHub', async () => {
    await writeFile(path.join(dir, 'relctl.config.json'), JSON.stringify({ tracker: { repo: 'acme/demo' } }));
    try {
      const r = await notes(['--release-version', '1.0.2', '--json'], { RELCTL_JIRA_URL: '' });
      const doc = JSON.parse(r.stdout) as NotesJson;
      expect(doc.sections[0]!.entries[1]!.refs).toEqual(['#99', 'UP-404']);
      expect(doc.findings.map((f) => `${f.code} ${f.message.split(' ')[0]}`).sort()).toEqual(['tracker-unknown #99', 'tracker-unresolved #2']);
      // With project keys but no URL, the Jira keys cannot be checked, and the notes say so.
      await writeFile(path.join(dir, 'relctl.config.json'), JSON.stringify({ tracker: { repo: 'acme/demo', jiraProjects: ['UP'] } }));
      const keys = JSON.parse((await notes(['--release-version', '1.0.2', '--json'], { RELCTL_JIRA_URL: '' })).stdout) as NotesJson;
      expect(keys.findings.filter((f) => f.code === 'tracker-unreachable').map((f) => f.message)).toContain('UP-1 could not be checked: no Jira URL is set (RELCTL_JIRA_URL or --jira-url).');
    } finally {
      await git(dir, home, 'checkout', '--', 'relctl.config.json');
    }
  });

  it('--output writes the file and keeps stdout empty', async () => {
    const r = await notes(['--release-version', '1.0.2', '--offline', '--output', 'NOTES.md']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    expect(await readFile(path.join(dir, 'NOTES.md'), 'utf8')).toContain('## Breaking changes');
    await git(dir, home, 'clean', '-fdq');
  });
});
