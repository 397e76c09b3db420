import { randomUUID } from 'node:crypto';
import { copyFile, mkdir, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Files of the sandbox under one data folder:
 *   staging/<repository id>/<maven path>   open and closed staging repositories
 *   repo/<maven path>                      the public repository (published files)
 *   tmp/                                   half-written files; emptied at start
 * Every write goes to tmp/ first and is renamed into place, so a kill -9 leaves either the old
 * file or the new one, never a torn one. Callers pass segments already checked by safeSegments().
 */
export class FileStore {
  readonly stagingRoot: string;
  readonly publicRoot: string;
  private readonly tmpRoot: string;
  private readonly madeDirs = new Set<string>();

  constructor(
    readonly root: string,
    private readonly seedRepo?: string,
  ) {
    this.stagingRoot = path.join(root, 'staging');
    this.publicRoot = path.join(root, 'repo');
    this.tmpRoot = path.join(root, 'tmp');
  }

  async init(): Promise<void> {
    await rm(this.tmpRoot, { recursive: true, force: true });
    await mkdir(this.tmpRoot, { recursive: true });
    await mkdir(this.stagingRoot, { recursive: true });
    await mkdir(this.publicRoot, { recursive: true });
  }

  /** Resolves segments below a root and proves the result stays inside it. */
  private inside(root: string, segments: readonly string[]): string {
    const file = path.resolve(root, ...segments);
    if (!file.startsWith(root + path.sep)) throw new Error(`path escapes the store: ${segments.join('/')}`);
    return file;
  }

  private async ensureDir(dir: string): Promise<void> {
    if (this.madeDirs.has(dir)) return;
    await mkdir(dir, { recursive: true });
    this.madeDirs.add(dir);
  }

  private async writeAtomic(file: string, data: Uint8Array): Promise<void> {
    const tmp = path.join(this.tmpRoot, randomUUID());
    await writeFile(tmp, data);
    await this.ensureDir(path.dirname(file));
    try {
      await rename(tmp, file);
    } catch (error) {
      // The cached folder may have been removed by a drop or reset meanwhile.
      this.madeDirs.delete(path.dirname(file));
      await mkdir(path.dirname(file), { recursive: true });
      await rename(tmp, file).catch(async () => {
        await rm(tmp, { force: true });
        throw error;
      });
    }
  }

  async putStaging(repoId: string, segments: readonly string[], data: Uint8Array): Promise<void> {
    await this.writeAtomic(this.inside(this.stagingRoot, [repoId, ...segments]), data);
  }

  async getStaging(repoId: string, segments: readonly string[]): Promise<Buffer | undefined> {
    return readFile(this.inside(this.stagingRoot, [repoId, ...segments])).catch(() => undefined);
  }

  /** Every file of a staging repository: maven path → bytes. */
  async readRepository(repoId: string): Promise<Map<string, Uint8Array>> {
    const base = this.inside(this.stagingRoot, [repoId]);
    const files = new Map<string, Uint8Array>();
    const entries = await readdir(base, { recursive: true, withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (!entry.isFile()) continue;
      const abs = path.join(entry.parentPath, entry.name);
      files.set(path.relative(base, abs).split(path.sep).join('/'), await readFile(abs));
    }
    return files;
  }

  async listRepository(repoId: string): Promise<string[]> {
    const base = this.inside(this.stagingRoot, [repoId]);
    const entries = await readdir(base, { recursive: true, withFileTypes: true }).catch(() => []);
    return entries
      .filter((e) => e.isFile())
      .map((e) => path.relative(base, path.join(e.parentPath, e.name)).split(path.sep).join('/'));
  }

  async hasFiles(repoId: string): Promise<boolean> {
    const entries = await readdir(this.inside(this.stagingRoot, [repoId]), { recursive: true, withFileTypes: true }).catch(() => []);
    return entries.some((e) => e.isFile());
  }

  async removeRepository(repoId: string): Promise<void> {
    await rm(this.inside(this.stagingRoot, [repoId]), { recursive: true, force: true });
    this.madeDirs.clear();
  }

  /** Copies a staging repository's files into the public repository (idempotent: safe to redo). */
  async publish(repoId: string, paths: readonly string[]): Promise<void> {
    for (const p of paths) {
      const segments = p.split('/');
      const tmp = path.join(this.tmpRoot, randomUUID());
      await copyFile(this.inside(this.stagingRoot, [repoId, ...segments]), tmp);
      const target = this.inside(this.publicRoot, segments);
      await this.ensureDir(path.dirname(target));
      await rename(tmp, target);
    }
  }

  /** A public file: published ones first, then the seed folder (read-only, never copied). */
  async getPublic(segments: readonly string[]): Promise<Buffer | undefined> {
    const published = await readFile(this.inside(this.publicRoot, segments)).catch(() => undefined);
    if (published !== undefined || this.seedRepo === undefined) return published;
    return readFile(this.inside(path.resolve(this.seedRepo), segments)).catch(() => undefined);
  }

  async publicExists(segments: readonly string[]): Promise<boolean> {
    const isFile = async (f: string): Promise<boolean> => (await stat(f).catch(() => undefined))?.isFile() === true;
    if (await isFile(this.inside(this.publicRoot, segments))) return true;
    return this.seedRepo !== undefined && isFile(this.inside(path.resolve(this.seedRepo), segments));
  }

  /** Forgets everything but the seed: staging repositories and published files. */
  async clear(): Promise<void> {
    await rm(this.stagingRoot, { recursive: true, force: true });
    await rm(this.publicRoot, { recursive: true, force: true });
    this.madeDirs.clear();
    await this.init();
  }
}
