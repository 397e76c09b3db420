import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { debianRepo } from '../helpers/maven.js';
import { mavenCache } from './maven-release/fixture.js';
import { git, gitEnv, gitRepo, tempDir } from '../helpers/temp.js';
import { demoRepo } from '../integration/release-fixture.js';

/** `rehearse --publish --post-release`: the notes, the distribution pull request and the announcement, all in the sandbox. */
describe('relctl rehearse --post-release', () => {
  it('rehearses notes, distribute and notify against the sandbox, touching neither the project nor the distribution clone', async () => {
    await using t = await tempDir();
    const home = path.join(t.path, 'home');
    await mkdir(home);
    const props = 'uPortalVersion=5.14.0\nrelctlDemoVersion=0.9.0\n';
    const bare = path.join(t.path, 'remote', 'example', 'portal-dist.git');
    const clone = path.join(t.path, 'portal-dist');
    await gitRepo(clone, home, { 'gradle.properties': props });
    await git(t.path, home, 'init', '-q', '--bare', '-b', 'main', bare);
    await git(clone, home, 'remote', 'add', 'origin', bare);
    await git(clone, home, 'push', '-q', '-u', 'origin', 'main');
    await git(clone, home, 'remote', 'set-head', 'origin', 'main');

    const dir = path.join(t.path, 'demo');
    await demoRepo(dir, home);
    await writeFile(
      path.join(dir, 'relctl.config.json'),
      JSON.stringify({ distribution: { repo: '../portal-dist' }, mail: { from: 'release@example.org', dev: 'dev@example.org', user: 'users@example.org' }, tracker: { repo: 'example/relctl-demo' } }),
    );
    await git(dir, home, 'add', '-A');
    await git(dir, home, 'commit', '-q', '-m', 'chore: relctl config');
    await git(dir, home, 'tag', 'relctl-demo-0.9.0');
    await git(dir, home, 'commit', '-q', '--allow-empty', '-m', 'feat: greet in French');
    const head = await git(dir, home, 'rev-parse', 'HEAD');

    const r = await runCli(['rehearse', '--sign', '--publish', '--post-release', '--keep', '--maven-mirror', `file://${debianRepo}`, '--local-repo', mavenCache, '--json', '--cwd', dir], {
      home,
      env: gitEnv(home),
      timeoutMs: 170_000,
    });
    expect(r.exitCode, r.stderr).toBe(0);
    const result = JSON.parse(r.stdout) as { verdict: string; workspace: string; postRelease: { ok: boolean; steps: { id: string; status: string }[]; context: Record<string, string> } };
    // The rehearsal's release tag descends from the maintainer's history: its notes hold the feature since 0.9.0.
    const notes = await readFile(result.postRelease.context.notesFile!, 'utf8').finally(() => rm(result.workspace, { recursive: true, force: true }));
    expect(notes).toContain('greet in French');
    expect(result.verdict).toBe('PUBLISHED');
    expect(result.postRelease.steps.map((s) => `${s.id}:${s.status}${(s as { reason?: string }).reason ?? ''}`)).toEqual(['notes:done', 'distribute:done', 'notify:done']);
    expect(result.postRelease.context.pullRequestUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/github\/example\/portal-dist\/pull\/1$/);
    expect(result.postRelease.context.releaseUrl).toMatch(/\/github\/example\/relctl-demo\/releases\/tag\/relctl-demo-1\.0\.0$/);
    expect(result.postRelease.context.announced).toBe('sent');
    // Nothing real was touched: the project's history and the distribution clone and its origin.
    expect(await git(dir, home, 'rev-parse', 'HEAD')).toBe(head);
    expect(await git(dir, home, 'tag', '--list')).toBe('relctl-demo-0.9.0');
    expect(await readFile(path.join(clone, 'gradle.properties'), 'utf8')).toBe(props);
    expect(await git(bare, home, 'branch', '--list')).toBe('* main');
  }, 180_000);
});
