import { mkdtemp, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import type { DeploymentFile } from '../../core/validation/types.js';
import { DataDir } from '../shared/persistence.js';
import { PublicStore, PublishedFileError } from './public-store.js';

/** The public repository never replaces a published file (DESIGN §8): the store's own guarantee. */

const dirs: string[] = [];
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

async function store(seed?: Record<string, string>): Promise<{ repo: PublicStore; root: string }> {
  const base = await mkdtemp(path.join(os.tmpdir(), 'relctl-public-'));
  dirs.push(base);
  const dir = new DataDir(path.join(base, 'data'));
  await dir.open();
  let seedRoot: string | undefined;
  if (seed !== undefined) {
    seedRoot = path.join(base, 'seed');
    for (const [p, text] of Object.entries(seed)) {
      await mkdir(path.dirname(path.join(seedRoot, p)), { recursive: true });
      await writeFile(path.join(seedRoot, p), text);
    }
  }
  const root = await dir.folder('repo');
  return { repo: new PublicStore(dir, root, seedRoot), root };
}

const file = (text: string): DeploymentFile => ({
  bytes: async () => Buffer.from(text),
  chunks: async function* () {
    yield Buffer.from(text);
  },
});
const jar = 'g/a/1/a-1.jar';

describe('PublicStore.write', () => {
  test('the same bytes again pass (a redo after a crash); other bytes are refused and the file keeps its bytes', async () => {
    const { repo, root } = await store();
    await repo.write(jar, file('first'));
    await repo.write(jar, file('first'));
    await expect(repo.write(jar, file('second'))).rejects.toBeInstanceOf(PublishedFileError);
    expect(await readFile(path.join(root, jar), 'utf8')).toBe('first');
  });

  test('of two writers racing for one path exactly one wins, and the file is whole', async () => {
    const { repo, root } = await store();
    const texts = ['a'.repeat(100_000), 'b'.repeat(100_000)];
    const results = await Promise.allSettled(texts.map((t) => repo.write(jar, file(t))));
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    const winner = texts[results.findIndex((r) => r.status === 'fulfilled')];
    expect(await readFile(path.join(root, jar), 'utf8')).toBe(winner);
  });

  test('a file of the seed folder counts as published', async () => {
    const { repo, root } = await store({ [jar]: 'seeded' });
    await expect(repo.write(jar, file('other'))).rejects.toBeInstanceOf(PublishedFileError);
    await repo.write(jar, file('seeded'));
    expect(await readdir(root)).toEqual([]);
    expect((await repo.get(jar.split('/')))?.toString()).toBe('seeded');
  });
});
