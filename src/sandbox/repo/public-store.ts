import { readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { DeploymentFile } from '../../core/validation/types.js';
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

  /** Publishes one file, streamed (idempotent: a redo after a crash writes the same bytes again). */
  async write(mavenPath: string, file: DeploymentFile): Promise<void> {
    await this.dir.writeAtomicWith(this.inside(this.root, mavenPath.split('/')), async (out) => {
      for await (const chunk of file.chunks()) await out.write(chunk);
    });
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
