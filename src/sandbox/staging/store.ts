import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { StagingLog } from './staging-log.js';

const logName = /^([0-9a-f-]{36})\.log$/;

/**
 * The open staging repositories' files: `<data>/staging/<repository id>.log` (see StagingLog).
 * Callers pass segments already checked by safeSegments().
 */
export class StagingStore {
  private readonly logs = new Map<string, StagingLog>();

  constructor(readonly root: string) {}

  file(repoId: string): string {
    if (!/^[0-9a-f-]{36}$/.test(repoId)) throw new Error(`bad repository id ${repoId}`);
    return path.join(this.root, `${repoId}.log`);
  }

  private log(repoId: string): StagingLog {
    let log = this.logs.get(repoId);
    if (log === undefined) {
      log = new StagingLog(this.file(repoId));
      this.logs.set(repoId, log);
    }
    return log;
  }

  put(repoId: string, segments: readonly string[], data: Uint8Array): void {
    this.log(repoId).append(segments.join('/'), data);
  }

  get(repoId: string, segments: readonly string[]): Buffer | undefined {
    return this.log(repoId).read(segments.join('/'));
  }

  /** Every file of a repository, read synchronously: the snapshot a manual upload call takes. */
  snapshot(repoId: string): Map<string, Buffer> {
    return this.log(repoId).readAll();
  }

  /** Opens a repository's log now; returns how many bytes of torn tail were cut off. */
  check(repoId: string): number {
    return this.log(repoId).cutBytes;
  }

  async remove(repoId: string): Promise<void> {
    this.logs.get(repoId)?.close();
    this.logs.delete(repoId);
    await rm(this.file(repoId), { force: true });
  }

  /** Repository ids with a log on disk. */
  async onDisk(): Promise<string[]> {
    const names = await readdir(this.root).catch(() => [] as string[]);
    return names.flatMap((n) => logName.exec(n)?.[1] ?? []);
  }

  close(): void {
    for (const log of this.logs.values()) log.close();
    this.logs.clear();
  }

  async clear(): Promise<void> {
    this.close();
    for (const id of await this.onDisk()) await rm(this.file(id), { force: true });
  }
}
