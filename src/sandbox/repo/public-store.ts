import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile, rm, stat, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { DeploymentFile } from '../../core/validation/types.js';
import type { DataDir } from '../shared/persistence.js';

/** A publication that would replace a public file with other bytes. */
export class PublishedFileError extends Error {
  readonly code = 'EEXIST';
  constructor(readonly mavenPath: string) {
    super(`${mavenPath} is published already, with other bytes`);
  }
}

async function digest(chunks: AsyncIterable<Uint8Array>): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of chunks) hash.update(chunk);
  return hash.digest('hex');
}

/**
 * The public repository: `<data>/repo/<maven path>` (published files, each written atomically)
 * over an optional read-only seed folder that is never copied. Callers pass segments already
 * checked by safeSegments().
 */
export class PublicStore {
  private readonly seed: string | undefined;

  constructor(
    private readonly dir: DataDir,
    readonly root: string,
    seedRepo?: string,
  ) {
    this.seed = seedRepo === undefined ? undefined : path.resolve(seedRepo);
  }

  /** Resolves segments below a root and proves the result stays inside it. */
  private inside(root: string, segments: readonly string[]): string {
    const file = path.resolve(root, ...segments);
    if (!file.startsWith(root + path.sep)) throw new Error(`path escapes the store: ${segments.join('/')}`);
    return file;
  }

  /**
   * Publishes one file, streamed. A published file (or a seed one) is never replaced, as on Maven
   * Central: the same bytes again pass (a redo after a crash), other bytes throw. The portal
   * refuses such a publication before it gets here; this is the store's own guarantee.
   */
  async write(mavenPath: string, file: DeploymentFile): Promise<void> {
    const segments = mavenPath.split('/');
    const seeded = this.seed === undefined ? undefined : await this.fileIn(this.seed, segments);
    if (seeded !== undefined) {
      if ((await digest(file.chunks())) !== (await digest(createReadStream(seeded)))) throw new PublishedFileError(mavenPath);
      return;
    }
    const write = async (out: FileHandle): Promise<void> => {
      for await (const chunk of file.chunks()) await out.write(chunk);
    };
    const target = this.inside(this.root, segments);
    await this.dir.createAtomicWith(target, write, async (written) => {
      if ((await digest(createReadStream(written))) !== (await digest(createReadStream(target)))) throw new PublishedFileError(mavenPath);
    });
  }

  private async fileIn(root: string, segments: readonly string[]): Promise<string | undefined> {
    const file = this.inside(root, segments);
    return (await stat(file).catch(() => undefined))?.isFile() === true ? file : undefined;
  }

  /** Where a public file is and its size: published ones first, then the seed folder. */
  async locate(segments: readonly string[]): Promise<{ file: string; size: number } | undefined> {
    for (const root of this.seed === undefined ? [this.root] : [this.root, this.seed]) {
      const file = this.inside(root, segments);
      const info = await stat(file).catch(() => undefined);
      if (info?.isFile() === true) return { file, size: info.size };
    }
    return undefined;
  }

  /** A public file's bytes (small files: the POMs validation reads). */
  async get(segments: readonly string[]): Promise<Buffer | undefined> {
    const found = await this.locate(segments);
    return found === undefined ? undefined : readFile(found.file).catch(() => undefined);
  }

  async exists(segments: readonly string[]): Promise<boolean> {
    return (await this.locate(segments)) !== undefined;
  }

  /** Forgets every published file (the seed stays). */
  async clear(): Promise<void> {
    await rm(this.root, { recursive: true, force: true });
    await this.dir.folder(path.basename(this.root));
  }
}
