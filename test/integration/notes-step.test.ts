import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { repoRoot, runCli } from '../helpers/cli.js';
import { History } from '../helpers/history.js';
import { tempDir, type TempDir } from '../helpers/temp.js';
import { pushTagToSandbox } from './notes-github-tags.js';
import { pomXml } from './upload-helpers.js';

/** `relctl run notes` (the chain step) and `relctl notes` on this repository's own history. */
let sb: RunningSandbox;
let work: TempDir;
let dir: string;

beforeAll(async () => {
  work = await tempDir();
  sb = await startSandbox();
  dir = path.join(work.path, 'demo');
  const h = await History.create(dir, work.path, {
    'pom.xml': pomXml({ groupId: 'org.example', artifactId: 'demo', version: '1.0.3-SNAPSHOT' }),
    'relctl.config.json': JSON.stringify({ tracker: { repo: 'acme/demo' } }),
  });
  await h.mavenRelease('demo', '1.0.0');
  await h.commit('fix: first');
  await h.mavenRelease('demo', '1.0.1');
  await h.commit('feat: second');
  await h.mavenRelease('demo', '1.0.2');
  await mkdir(path.join(dir, '.relctl'), { recursive: true });
  await writeFile(
    path.join(dir, '.relctl/journal.json'),
    JSON.stringify({ version: 1, release: { version: '1.0.2', tag: 'demo-1.0.2', nextVersion: '1.0.3-SNAPSHOT', skippedVersions: ['1.0.1'], buildTool: 'maven' }, steps: [], uploads: [] }),
  );
}, 60_000);
afterAll(async () => {
  await sb?.close();
  await work?.[Symbol.asyncDispose]();
});

describe('notes as a step', () => {
  it('relctl run notes writes the notes to .relctl/ and, with a token, makes the release page', async () => {
    const env = { RELCTL_GITHUB_API_URL: sb.urls.githubApiUrl, GITHUB_TOKEN: '', PATH: '/usr/bin:/bin' };
    const noToken = await runCli(['run', 'notes', '--offline', '--cwd', dir], { home: work.path, env });
    expect(noToken.exitCode, noToken.stderr).toBe(0);
    expect(noToken.stderr).toContain('The release page was not made: no GitHub token');
    const text = await readFile(path.join(dir, '.relctl/notes-1.0.2.md'), 'utf8');
    expect(text).toBe('1.0.1 was prepared but not published; this release supersedes it.\n\n' + text.split('\n\n').slice(1).join('\n\n'));
    expect(text).toMatch(/## Features\n\n- second \([0-9a-f]{7}\)\n\n## Fixes\n\n- first/);
    // The tag is not on GitHub yet: the step says how to push it and makes no page (the release is out).
    const unpushed = await runCli(['run', 'notes', '--offline', '--cwd', dir], { home: work.path, env: { ...env, RELCTL_GITHUB_TOKEN: 'alice' } });
    expect(unpushed.exitCode, unpushed.stderr).toBe(0);
    expect(unpushed.stderr).toContain('git push origin demo-1.0.2');
    expect((await request(`${sb.urls.githubApiUrl}/repos/acme/demo/releases`).then((x) => x.body.json())) as unknown[]).toEqual([]);
    await pushTagToSandbox(sb.urls.githubApiUrl, 'acme/demo', 'demo-1.0.2');
    const withToken = await runCli(['run', 'notes', '--offline', '--json', '--cwd', dir], { home: work.path, env: { ...env, RELCTL_GITHUB_TOKEN: 'alice' } });
    expect(withToken.exitCode, withToken.stderr).toBe(0);
    const summary = JSON.parse(withToken.stdout) as { steps: { id: string; status: string; added: { releaseUrl: string } }[] };
    expect(summary.steps[0]).toMatchObject({ id: 'notes', status: 'done', added: { releaseUrl: expect.stringMatching(/\/github\/acme\/demo\/releases\/tag\/demo-1\.0\.2$/) } });
    const r = await request(`${sb.urls.githubApiUrl}/repos/acme/demo/releases/tags/demo-1.0.2`);
    expect(((await r.body.json()) as { body: string }).body).toBe(text);
    // A finished post-release step is not an unfinished release.
    const again = await runCli(['release', '--dry-run', '--offline', '--cwd', dir], { home: work.path, env });
    expect(again.stderr).not.toContain('unfinished release');
  });

  it('a component the public repository has never seen: no tag is called an orphan but the journal\'s, and the journal\'s is no start', async () => {
    const r = await runCli(['notes', '--json', '--cwd', dir], { home: work.path, env: { RELCTL_PUBLIC_REPO_URL: sb.urls.publicRepoUrl, RELCTL_GITHUB_API_URL: sb.urls.githubApiUrl } });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ version: '1.0.2', previous: '1.0.0', skipped: ['1.0.1'] });
    const since = await runCli(['notes', '--json', '--release-version', '1.0.1', '--cwd', dir], { home: work.path, env: { RELCTL_PUBLIC_REPO_URL: sb.urls.publicRepoUrl } });
    expect(JSON.parse(since.stdout)).toMatchObject({ version: '1.0.1', previous: '1.0.0', skipped: [] });
  });

  it('relctl notes on this repository\'s own history prints sensible notes', async () => {
    const r = await runCli(['notes', '--offline'], { cwd: repoRoot });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^## (Breaking changes|Features|Fixes|Chores|Other)\n\n- /m);
    expect(r.stdout).not.toMatch(/Merge branch|\[maven-release-plugin\]/);
  });

  it('a Gradle build: its release plugin\'s tagTemplate counts as a release tag form, its commits are left out', async () => {
    const g = path.join(work.path, 'gradle');
    const h = await History.create(g, work.path, {
      'settings.gradle': "rootProject.name = 'lib'\n",
      'gradle.properties': 'version=2.0.2-SNAPSHOT\ngroup=org.example\n',
      'build.gradle': "plugins { id 'net.researchgate.release' version '3.0.2' }\nrelease {\n    tagTemplate = 'release/$version'\n}\n",
    });
    await h.gradleRelease('release/2.0.0', '2.0.1-SNAPSHOT');
    await h.commit('feat(cli): list the tags');
    await h.gradleRelease('release/2.0.1', '2.0.2-SNAPSHOT');
    const r = await runCli(['notes', '--offline', '--json', '--cwd', g], { home: work.path });
    expect(r.exitCode, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as { version: string; previous: string; sections: { title: string; entries: { subject: string }[] }[] };
    expect(doc).toMatchObject({ version: '2.0.1', previous: '2.0.0' });
    expect(doc.sections.map((s) => [s.title, s.entries.map((e) => e.subject)])).toEqual([['Features', ['list the tags']]]);
    // As a step, a missing repository is said and does not fail the (already published) release.
    const step = await runCli(['run', 'notes', '--offline', '--cwd', g], { home: work.path, env: { RELCTL_GITHUB_TOKEN: 'alice' } });
    expect(step.exitCode, step.stderr).toBe(0);
    expect(step.stderr).toContain('The release page was not made: no GitHub repository is known');
  });
});
