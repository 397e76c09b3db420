import type { Readable } from 'node:stream';
import type { Entry, ZipFile } from 'yauzl';

/**
 * A zip archive on disk (a Publisher API bundle) read entry by entry with yauzl: only the central
 * directory is held in memory; each entry's content is inflated as a stream when it is read, and
 * yauzl checks its declared size and rejects entries it cannot decode (encrypted, unknown
 * compression) as it reads. Zip64 archives (over 4 GiB) are read too.
 */
export interface ZipEntry {
  /** The entry's name as stored (a Maven path in a bundle). */
  name: string;
  /** Uncompressed size, as the central directory declares it. */
  size: number;
  /** The inflated content in chunks; each call reads the entry anew. */
  chunks(): AsyncIterable<Uint8Array>;
}

export interface OpenZip {
  entries: ZipEntry[];
  close(): void;
}

type Yauzl = typeof import('yauzl');
let yauzlModule: Promise<Yauzl> | undefined;
// Only commands that read a bundle pay for loading yauzl.
const loadYauzl = (): Promise<Yauzl> => (yauzlModule ??= import('yauzl').then((m) => ((m as { default?: Yauzl }).default ?? m) as Yauzl));

/**
 * Opens `file` and lists its file entries (folders skipped). Throws an Error naming what is
 * wrong (not a zip, broken directory, too many entries), so a caller can answer "not a valid bundle".
 */
export async function openZip(file: string, limits: { maxEntries?: number } = {}): Promise<OpenZip> {
  const yauzl = await loadYauzl();
  const zip = await new Promise<ZipFile>((resolve, reject) =>
    yauzl.open(file, { lazyEntries: true, autoClose: false, validateEntrySizes: true, strictFileNames: false }, (error, z) => (error ? reject(error) : resolve(z))),
  );
  try {
    const maxEntries = limits.maxEntries ?? 100_000;
    if (zip.entryCount > maxEntries) throw new Error(`too many entries (${zip.entryCount})`);
    const listed = await listEntries(zip);
    const entries = listed
      .filter((e) => !e.fileName.endsWith('/'))
      .map((e): ZipEntry => ({ name: e.fileName, size: e.uncompressedSize, chunks: () => entryChunks(zip, e) }));
    return { entries, close: () => zip.close() };
  } catch (error) {
    zip.close();
    throw error;
  }
}

function listEntries(zip: ZipFile): Promise<Entry[]> {
  return new Promise((resolve, reject) => {
    const out: Entry[] = [];
    zip.on('entry', (entry: Entry) => {
      out.push(entry);
      zip.readEntry();
    });
    zip.once('end', () => resolve(out));
    zip.once('error', reject);
    zip.readEntry();
  });
}

async function* entryChunks(zip: ZipFile, entry: Entry): AsyncGenerator<Uint8Array> {
  if (entry.isEncrypted()) throw new Error(`${entry.fileName}: encrypted entries are not supported`);
  const stream = await new Promise<Readable>((resolve, reject) => zip.openReadStream(entry, (error, s) => (error ? reject(error) : resolve(s))));
  try {
    for await (const chunk of stream) yield chunk as Buffer;
  } finally {
    stream.destroy();
  }
}
