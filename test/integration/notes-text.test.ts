import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandContext } from '../../src/io/command-context.js';
import { loadConfig } from '../../src/io/config-file.js';
import { notesText } from '../../src/release/post/notes-text.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { Output } from '../../src/ui/output.js';
import { History } from '../helpers/history.js';
import { tempDir, type TempDir } from '../helpers/temp.js';
import { pomXml } from './upload-helpers.js';

/**
 * Issue 18 item 4: the pull request body, the announcement and the social post (all through
 * notesText) carry what `relctl notes` says. 1.0.0 is published, 1.0.1 was tagged and never
 * published, 1.0.2 is the release: the text starts after 1.0.0, names 1.0.1 as superseded and
 * holds 1.0.1's changes too. Before, it was built offline and started at the 1.0.1 tag.
 */
let sb: RunningSandbox;
let work: TempDir;
let dir: string;

async function context(env: Record<string, string>): Promise<{ ctx: CommandContext; stderr: () => string }> {
  let err = '';
  const sink = new Writable({ write: (chunk, _enc, done) => ((err += String(chunk)), done()) });
  const out = new Output({ json: false, verbose: false, color: false, interactive: false, stdout: sink, stderr: sink });
  const { config } = await loadConfig(dir, {}, env);
  const ctx: CommandContext = { cwd: dir, out, config, configSources: {}, env, canPrompt: false, ci: true, signal: new AbortController().signal };
  return { ctx, stderr: () => err };
}

beforeAll(async () => {
  work = await tempDir();
  const seed = path.join(work.path, 'seed');
  await mkdir(path.join(seed, 'org/example/demo/1.0.0'), { recursive: true });
  await writeFile(path.join(seed, 'org/example/demo/1.0.0/demo-1.0.0.pom'), pomXml({ groupId: 'org.example', artifactId: 'demo', version: '1.0.0' }));
  sb = await startSandbox({ seedRepo: seed });
  dir = path.join(work.path, 'demo');
  const h = await History.create(dir, work.path, { 'pom.xml': pomXml({ groupId: 'org.example', artifactId: 'demo', version: '1.0.3-SNAPSHOT' }) });
  await h.mavenRelease('demo', '1.0.0');
  await h.commit('feat: made for the orphan 1.0.1');
  await h.mavenRelease('demo', '1.0.1');
  await h.commit('fix: made for 1.0.2');
  await h.mavenRelease('demo', '1.0.2');
}, 60_000);

afterAll(async () => {
  await sb?.close();
  await work?.[Symbol.asyncDispose]();
});

describe('notesText: one source for the pull request body and the notices', () => {
  it('starts at the last published release, says the orphan was superseded and keeps its changes', async () => {
    const { ctx } = await context({ RELCTL_PUBLIC_REPO_URL: sb.urls.publicRepoUrl });
    const notes = await notesText(ctx, { version: '1.0.2' });
    expect(notes.previous).toBe('1.0.0');
    expect(notes.skipped).toEqual(['1.0.1']);
    expect(notes.text.startsWith('1.0.1 was prepared but not published; this release supersedes it.\n')).toBe(true);
    expect(notes.text).toContain('- made for the orphan 1.0.1 (');
    expect(notes.text).toContain('- made for 1.0.2 (');
  });

  it('a public repository that cannot be asked: a warning and the same fallback as relctl notes', async () => {
    const { ctx, stderr } = await context({ RELCTL_PUBLIC_REPO_URL: 'http://127.0.0.1:9/repo', RELCTL_TIMEOUT: '2' });
    const notes = await notesText(ctx, { version: '1.0.2' });
    expect(stderr()).toContain('Cannot tell whether 1.0.1 was published');
    expect(notes.previous).toBe('1.0.1');
    expect(notes.text).toContain('- made for 1.0.2 (');
    expect(notes.text).not.toContain('made for the orphan');
  });
});
