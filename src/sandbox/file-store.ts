import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { StagingLog } from './staging-log.js';

/**
 * Files of the sandbox under one data folder:
 *   staging/<repository id>.log            open and closed staging repositories (see StagingLog)
 *   repo/<maven path>                      the public repository (published files)
 *   tmp/                                   half-written files; emptied at start
 * Public files (and state.json) go to tmp/ first and are renamed into place, so a kill -9 leaves
 * the old file or the new one, never a torn one; staging logs cut a torn tail off when reopened.
 * Callers pass segments already checked by safeSegments().
 */
export class FileStore {
  readonly stagingRoot: string;
  readonly publicRoot: string;
  private readonly tmpRoot: string;
  private readonly logs = new Map<string, StagingLog>();

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

  private log(repoId: string): StagingLog {
    let log = this.logs.get(repoId);
    if (log === undefined) {
      if (!/^[0-9a-f-]{36}$/.test(repoId)) throw new Error(`bad repository id ${repoId}`);
      log = new StagingLog(path.join(this.stagingRoot, `${repoId}.log`));
      this.logs.set(repoId, log);
    }
    return log;
  }

  putStaging(repoId: string, segments: readonly string[], data: Uint8Array): void {
    this.log(repoId).append(segments.join('/'), data);
  }

  getStaging(repoId: string, segments: readonly string[]): Buffer | undefined {
    return this.log(repoId).read(segments.join('/'));
  }

  /** Every file of a staging repository: maven path → bytes. */
  readRepository(repoId: string): Map<string, Uint8Array> {
    const log = this.log(repoId);
    return new Map(log.paths().map((p) => [p, log.read(p)!]));
  }

  listRepository(repoId: string): string[] {
    return this.log(repoId).paths();
  }

  async removeRepository(repoId: string): Promise<void> {
    this.logs.get(repoId)?.close();
    this.logs.delete(repoId);
    await rm(path.join(this.stagingRoot, `${repoId}.log`), { force: true });
  }

  /** Copies a staging repository's files into the public repository (idempotent: safe to redo). */
  async publish(repoId: string): Promise<void> {
    const log = this.log(repoId);
    for (const p of log.paths()) {
      const target = this.inside(this.publicRoot, p.split('/'));
      const tmp = path.join(this.tmpRoot, randomUUID());
      await writeFile(tmp, log.read(p)!);
      await mkdir(path.dirname(target), { recursive: true });
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
    for (const log of this.logs.values()) log.close();
    this.logs.clear();
    await rm(this.stagingRoot, { recursive: true, force: true });
    await rm(this.publicRoot, { recursive: true, force: true });
    await this.init();
  }
}
