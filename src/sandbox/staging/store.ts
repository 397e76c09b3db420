import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { SizedDeploymentFile } from '../../core/validation/types.js';
import { StagingLog } from './staging-log.js';

const logName = /^([0-9a-f-]{36})\.log$/;

/** A PUT's body spooled to disk: read (again, when a freeze sends it to a new repository) as chunks. */
export interface StreamedPut {
  length: number;
  open(): AsyncIterable<Uint8Array>;
}

/**
 * The open staging repositories' files: `<data>/staging/<repository id>.log` (see StagingLog).
 * Callers pass segments already checked by safeSegments().
 */
export class StagingStore {
  private readonly logs = new Map<string, StagingLog>();
  private readonly queues = new Map<string, Promise<void>>();

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

  /** Appends in arrival order per repository: a streamed body never interleaves with another. */
  put(repoId: string, segments: readonly string[], data: Uint8Array | StreamedPut): Promise<void> {
    const log = this.log(repoId);
    const task = (): Promise<void> =>
      data instanceof Uint8Array ? Promise.resolve(log.append(segments.join('/'), data)) : log.appendStream(segments.join('/'), data.length, data.open());
    const run = (this.queues.get(repoId) ?? Promise.resolve()).then(task);
    const tail = run.catch(() => undefined);
    this.queues.set(repoId, tail);
    void tail.then(() => {
      if (this.queues.get(repoId) === tail) this.queues.delete(repoId);
    });
    return run;
  }

  get(repoId: string, segments: readonly string[]): Buffer | undefined {
    return this.log(repoId).read(segments.join('/'));
  }

  /**
   * Every file of a repository as of now: the snapshot a manual upload call takes. Its index is
   * taken synchronously, the content is read when validated and copied (before remove()).
   */
  snapshot(repoId: string): Map<string, SizedDeploymentFile> {
    const log = this.log(repoId);
    log.frozen = true;
    return log.files();
  }

  /** The handover failed and the repository is open again: it takes files again. */
  thaw(repoId: string): void {
    this.log(repoId).frozen = false;
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
