import { readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { DataDir } from '../shared/persistence.js';

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

  /** Publishes one file (idempotent: a redo after a crash writes the same bytes again). */
  async write(mavenPath: string, data: Uint8Array): Promise<void> {
    await this.dir.writeAtomic(this.inside(this.root, mavenPath.split('/')), data);
  }

  /** A public file: published ones first, then the seed folder. */
  async get(segments: readonly string[]): Promise<Buffer | undefined> {
    const published = await readFile(this.inside(this.root, segments)).catch(() => undefined);
    if (published !== undefined || this.seed === undefined) return published;
    return readFile(this.inside(this.seed, segments)).catch(() => undefined);
  }

  async exists(segments: readonly string[]): Promise<boolean> {
    const isFile = async (f: string): Promise<boolean> => (await stat(f).catch(() => undefined))?.isFile() === true;
    if (await isFile(this.inside(this.root, segments))) return true;
    return this.seed !== undefined && isFile(this.inside(this.seed, segments));
  }

  /** Forgets every published file (the seed stays). */
  async clear(): Promise<void> {
    await rm(this.root, { recursive: true, force: true });
    await this.dir.folder(path.basename(this.root));
  }
}
