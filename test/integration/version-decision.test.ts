/**
 * The release chain's version decision looks tags up in every form preflight does (shared
 * src/core/tag-forms): `vX.Y.Z`, `X.Y.Z`, `<artifactId>-X.Y.Z` and the build's configured format,
 * against a real public repository (the sandbox's, seeded) and a real git repository.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandContext } from '../../src/io/command-context.js';
import { decideVersion } from '../../src/release/version-decision.js';
import { git, gitRepo, tempDir, type TempDir } from '../helpers/temp.js';
import { startSandbox } from './upload-helpers.js';

let sb: Awaited<ReturnType<typeof startSandbox>>;
let work: TempDir;

beforeAll(async () => {
  work = await tempDir('relctl-version-decision-');
  const seed = path.join(work.path, 'seed');
  // 2.0.0 is published; 3.0.0 was tagged but never published.
  const published = path.join(seed, 'org', 'example', 'cli', 'cli', '2.0.0');
  await mkdir(published, { recursive: true });
  await writeFile(path.join(published, 'cli-2.0.0.pom'), '<project/>');
  sb = await startSandbox({ seedRepo: seed });
});
afterAll(async () => {
  await sb?.close();
  await work?.[Symbol.asyncDispose]();
});

function ctxFor(cwd: string): CommandContext {
  const quiet = { verbose: () => undefined, info: () => undefined, warn: () => undefined };
  return {
    cwd,
    out: quiet as unknown as CommandContext['out'],
    config: { publicRepoUrl: sb.urls.publicRepoUrl, timeout: 10 } as CommandContext['config'],
    configSources: {},
    env: { HOME: work.path, PATH: process.env.PATH },
    canPrompt: false,
    ci: true,
    signal: new AbortController().signal,
  };
}

async function repoWithTags(name: string, tags: string[]): Promise<string> {
  const dir = path.join(work.path, name);
  await gitRepo(dir, work.path, { 'README.md': 'x\n' });
  for (const t of tags) await git(dir, work.path, 'tag', t);
  return dir;
}

const id = (version: string, tagTemplate?: string) => ({
  buildTool: 'maven' as const,
  groupId: 'org.example.cli',
  artifactId: 'cli',
  version,
  ...(tagTemplate === undefined ? {} : { tagTemplate }),
});

describe('version decision with tag forms', () => {
  it('skips a v-prefixed orphan tag and releases the next version', async () => {
    const dir = await repoWithTags('v-orphan', ['v2.0.0', 'v3.0.0']);
    const d = await decideVersion(ctxFor(dir), id('3.0.0-SNAPSHOT'));
    expect(d).toMatchObject({ version: '3.0.1', tag: 'cli-3.0.1', skippedVersions: ['3.0.0'], firstRelease: false });
  });

  it('stops when a bare X.Y.Z tag exists and that version is published', async () => {
    const dir = await repoWithTags('bare-published', ['2.0.0']);
    await expect(decideVersion(ctxFor(dir), id('2.0.0-SNAPSHOT'))).rejects.toThrow(/tag 2\.0\.0 exists and 2\.0\.0 is already published \(public repository\)/);
  });

  it("uses the build's configured tag format for both the lookup and the new tag", async () => {
    const dir = await repoWithTags('configured', ['release-3.0.0']);
    const d = await decideVersion(ctxFor(dir), id('3.0.0-SNAPSHOT', 'release-@{project.version}'));
    expect(d).toMatchObject({ version: '3.0.1', tag: 'release-3.0.1', skippedVersions: ['3.0.0'] });
  });
});
