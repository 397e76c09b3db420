import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir, type TempDir } from '../../test/helpers/temp.js';
import { makeZip } from '../../test/helpers/zip.js';
import { openZip } from './zip-reader.js';

let dir: TempDir;
beforeAll(async () => {
  dir = await tempDir();
});
afterAll(async () => {
  await dir?.[Symbol.asyncDispose]();
});

async function content(chunks: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of chunks) parts.push(Buffer.from(chunk));
  return Buffer.concat(parts);
}

describe('openZip', () => {
  it('lists the file entries with their sizes and reads each (deflated) entry as often as asked', async () => {
    const file = path.join(dir.path, 'bundle.zip');
    const jar = Buffer.alloc(300_000, 7);
    await writeFile(file, makeZip(new Map<string, Uint8Array>([['org/', Buffer.alloc(0)], ['org/a/1/a-1.pom', Buffer.from('<project/>')], ['org/a/1/a-1.jar', jar]])));
    const zip = await openZip(file);
    try {
      expect(zip.entries.map((e) => [e.name, e.size])).toEqual([
        ['org/a/1/a-1.pom', 10],
        ['org/a/1/a-1.jar', 300_000],
      ]);
      const entry = zip.entries[1]!;
      expect((await content(entry.chunks())).equals(jar)).toBe(true);
      expect((await content(entry.chunks())).equals(jar)).toBe(true);
    } finally {
      zip.close();
    }
  });

  it('names what is wrong: not a zip, too many entries', async () => {
    const notZip = path.join(dir.path, 'hello.zip');
    await writeFile(notZip, 'hello');
    await expect(openZip(notZip)).rejects.toThrow(/end of central directory/i);
    const two = path.join(dir.path, 'two.zip');
    await writeFile(two, makeZip(new Map([['a', Buffer.from('x')], ['b', Buffer.from('y')]])));
    await expect(openZip(two, { maxEntries: 1 })).rejects.toThrow(/too many entries/);
  });
});
