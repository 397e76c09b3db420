import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadScript } from './scripts.js';

const base = await mkdtemp(path.join(os.tmpdir(), 'relctl-scripts-'));
afterAll(() => rm(base, { recursive: true, force: true }));

describe('loadScript: apply from:', () => {
  it('follows scripts inside the project and never reads one outside it', async () => {
    const root = path.join(base, 'project');
    await mkdir(path.join(root, 'gradle'), { recursive: true });
    await writeFile(path.join(root, 'gradle', 'publish.gradle'), "publishing { repositories { maven { url 'https://repo.example.org/releases' } } }\n");
    await writeFile(path.join(base, 'shared.gradle'), "apply plugin: 'war'\npublishing { repositories { maven { url 'https://oss.sonatype.org/x' } } }\n");
    const text = "apply from: 'gradle/publish.gradle'\napply from: '../shared.gradle'\napply from: \"$rootDir/../shared.gradle\"\n";
    const notes: string[] = [];
    const loaded = await loadScript(root, path.join(root, 'build.gradle'), text, root, new Map(), notes);
    expect(loaded.repositories.map((r) => [r.url, r.file])).toEqual([['https://repo.example.org/releases', 'gradle/publish.gradle']]);
    expect(loaded.plugins).toEqual([]);
    expect(notes).toEqual([
      '../shared.gradle (applied from build.gradle:2) is outside the project; its checks were skipped.',
      '$rootDir/../shared.gradle (applied from build.gradle:3) is outside the project; its checks were skipped.',
    ]);
  });

  it('gives an applied script the URLs its applier set with ext, not its def variables', async () => {
    const root = path.join(base, 'ext');
    await mkdir(path.join(root, 'gradle'), { recursive: true });
    await writeFile(path.join(root, 'gradle', 'publish.gradle'), 'publishing { repositories {\n  maven { url releaseRepo }\n  maven { url localOnly }\n} }\n');
    const text = "ext.releaseRepo = 'https://repo.example.org/releases'\ndef localOnly = 'https://local.example.org/x'\napply from: 'gradle/publish.gradle'\n";
    const loaded = await loadScript(root, path.join(root, 'build.gradle'), text, root, new Map(), []);
    expect(loaded.repositories.map((r) => [r.url, r.file, r.via])).toEqual([['https://repo.example.org/releases', 'gradle/publish.gradle', 'releaseRepo']]);
  });
});
