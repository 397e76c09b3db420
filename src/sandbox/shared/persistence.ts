import { randomUUID } from 'node:crypto';
import { link, mkdir, open, readFile, rename, rm, writeFile, type FileHandle } from 'node:fs/promises';
import path from 'node:path';

/**
 * The sandbox's persistence layer, shared by every service:
 *   <data>/state.json   one JSON object; each service owns one or more top-level keys
 *   <data>/tmp/          half-written files; emptied at start
 * Every whole-file write goes to tmp/ first and is renamed into place, so a kill -9 leaves the
 * old file or the new one, never a torn one. One state file (not one per service) keeps a change
 * spanning two services, such as a staging repository handed to the portal, a single write.
 */
export class DataDir {
  readonly tmp: string;
  constructor(readonly root: string) {
    this.tmp = path.join(root, 'tmp');
  }

  async open(): Promise<void> {
    await mkdir(this.root, { recursive: true });
    await rm(this.tmp, { recursive: true, force: true });
    await mkdir(this.tmp, { recursive: true });
  }

  /** Folder `name` below the data folder, created if missing. */
  async folder(name: string): Promise<string> {
    const dir = path.join(this.root, name);
    await mkdir(dir, { recursive: true });
    return dir;
  }

  /** A fresh path under tmp/ for a file that arrives in pieces (an upload's body); the caller removes it. */
  scratch(extension = ''): string {
    return path.join(this.tmp, `${randomUUID()}${extension}`);
  }

  /** Like writeAtomic, for content written piece by piece (`write` gets the open temp file). */
  async writeAtomicWith(target: string, write: (file: FileHandle) => Promise<void>): Promise<void> {
    await this.viaTemp(write, async (tmp) => {
      await mkdir(path.dirname(target), { recursive: true });
      await rename(tmp, target);
    });
  }

  /**
   * Like writeAtomicWith, but never replaces `target`: the temp file is hard-linked into place,
   * which fails where a rename would overwrite, so two writers cannot both win. When `target`
   * exists, `existing(written)` gets the temp file to decide (return: keep the old one; throw: refuse).
   */
  async createAtomicWith(target: string, write: (file: FileHandle) => Promise<void>, existing: (written: string) => Promise<void>): Promise<void> {
    await this.viaTemp(write, async (tmp) => {
      await mkdir(path.dirname(target), { recursive: true });
      try {
        await link(tmp, target);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        await existing(tmp);
      }
    });
  }

  /** Writes a fresh temp file, hands it to `place`, and removes whatever `place` left of it. */
  private async viaTemp(write: (file: FileHandle) => Promise<void>, place: (tmp: string) => Promise<void>): Promise<void> {
    const tmp = this.scratch();
    try {
      const handle = await open(tmp, 'w');
      try {
        await write(handle);
      } finally {
        await handle.close();
      }
      await place(tmp);
    } finally {
      await rm(tmp, { force: true });
    }
  }

  /** Writes `target` whole or not at all (temp file + rename). */
  async writeAtomic(target: string, data: string | Uint8Array): Promise<void> {
    const tmp = path.join(this.tmp, randomUUID());
    try {
      await writeFile(tmp, data);
      await mkdir(path.dirname(target), { recursive: true });
      await rename(tmp, target);
    } catch (error) {
      await rm(tmp, { force: true });
      throw error;
    }
  }
}

type Saved = Record<string, unknown>;

/**
 * state.json. Services register the keys they own; saves are coalesced: a caller that awaits
 * save() knows a write holding the state as of its call has reached the disk.
 */
export class StateFile {
  private readonly file: string;
  private readonly owners = new Map<string, () => unknown>();
  private loaded: Saved = Object.create(null) as Saved;
  private writing: Promise<void> = Promise.resolve();
  private pending: Promise<void> | undefined;

  constructor(private readonly dir: DataDir) {
    this.file = path.join(dir.root, 'state.json');
  }

  async load(): Promise<void> {
    const text = await readFile(this.file, 'utf8').catch(() => undefined);
    const data: unknown = text === undefined ? {} : JSON.parse(text);
    this.loaded = Object.assign(Object.create(null) as Saved, typeof data === 'object' && data !== null ? data : {});
  }

  /** What was saved under `key` (undefined on a new data folder). */
  saved(key: string): unknown {
    return this.loaded[key];
  }

  /** `snapshot` gives the current value of `key` at each save. */
  own(key: string, snapshot: () => unknown): void {
    this.owners.set(key, snapshot);
  }

  save(): Promise<void> {
    if (this.pending !== undefined) return this.pending;
    const previous = this.writing;
    this.pending = (async () => {
      await previous.catch(() => undefined);
      this.pending = undefined;
      const data: Saved = { version: 1 };
      for (const [key, snapshot] of this.owners) data[key] = snapshot();
      this.writing = this.dir.writeAtomic(this.file, JSON.stringify(data));
      await this.writing;
    })();
    return this.pending;
  }
}

/**
 * Runs tasks one after another per key (a namespace): an upload call and a drop in one namespace
 * never interleave, while other namespaces go on in parallel.
 */
export class KeyedLock {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(task, task);
    const tail = result.catch(() => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }
}
