import { closeSync, fstatSync, ftruncateSync, openSync, read, readSync, write, writevSync } from 'node:fs';
import { promisify } from 'node:util';
import type { SizedDeploymentFile } from '../../core/validation/types.js';

const readAsync = promisify(read);
const writeAsync = promisify(write);
/** Chunk size of a streamed read of one record. */
const chunkBytes = 1024 * 1024;

/** No maven path of a real deploy comes close; a longer one means the bytes are not a record. */
const maxPathBytes = 4096;
const headerBytes = 8;

/** What precedes a record's data: `[u32 path length][u32 data length][path]`. */
export function recordHead(mavenPath: string, length: number): Buffer {
  const name = Buffer.from(mavenPath, 'utf8');
  const header = Buffer.alloc(headerBytes);
  header.writeUInt32LE(name.length, 0);
  header.writeUInt32LE(length, 4);
  return Buffer.concat([header, name]);
}

/** One record's bytes: `[u32 path length][u32 data length][path][data]`. */
export function encodeRecord(mavenPath: string, data: Uint8Array): Buffer[] {
  return [recordHead(mavenPath, data.length), Buffer.from(data.buffer, data.byteOffset, data.byteLength)];
}

/** The repository was handed over while a file was on its way: it goes to a new one. */
export class FrozenLogError extends Error {
  constructor() {
    super('the staging repository was frozen by a manual upload call');
  }
}

/**
 * One staging repository's files as an append-only log: each PUT appends one record with a
 * single writev on a file kept open. Maven uploads one file at a time, so per-PUT latency is what
 * a deploy feels: opening and renaming a file per PUT cost more than the whole rest of the request
 * on an overlay filesystem. A re-PUT appends again and the index points at the newest record.
 * A kill -9 can only leave a partial last record, which opening cuts off: the log is always a
 * sequence of whole uploads. Opening reads record headers only (positioned reads, data skipped),
 * so a log of any size opens in memory proportional to its number of files.
 */
export class StagingLog {
  private readonly index = new Map<string, { offset: number; length: number }>();
  private size = 0;
  private readonly fd: number;
  /** Bytes cut off a torn or foreign tail when opened (0 for a clean log). */
  readonly cutBytes: number;
  /** Set by a manual upload call's snapshot: no record may be added after it (FrozenLogError). */
  frozen = false;

  constructor(file: string) {
    this.fd = openSync(file, 'a+');
    try {
      const total = fstatSync(this.fd).size;
      this.size = this.scan(total);
      this.cutBytes = total - this.size;
      if (this.cutBytes > 0) ftruncateSync(this.fd, this.size);
    } catch (error) {
      closeSync(this.fd);
      throw error;
    }
  }

  /** Indexes whole records from the start; returns where the last whole record ends. */
  private scan(total: number): number {
    const header = Buffer.alloc(headerBytes);
    let at = 0;
    while (at + headerBytes <= total) {
      if (this.readAt(header, at) < headerBytes) break;
      const pathLength = header.readUInt32LE(0);
      const length = header.readUInt32LE(4);
      if (pathLength === 0 || pathLength > maxPathBytes) break;
      const end = at + headerBytes + pathLength + length;
      if (end > total) break;
      const name = Buffer.alloc(pathLength);
      if (this.readAt(name, at + headerBytes) < pathLength) break;
      this.index.set(name.toString('utf8'), { offset: at + headerBytes + pathLength, length });
      at = end;
    }
    return at;
  }

  private readAt(into: Buffer, position: number): number {
    let done = 0;
    while (done < into.length) {
      const n = readSync(this.fd, into, done, into.length - done, position + done);
      if (n === 0) break;
      done += n;
    }
    return done;
  }

  append(mavenPath: string, data: Uint8Array): void {
    if (this.frozen) throw new FrozenLogError();
    const parts = encodeRecord(mavenPath, data);
    const total = parts.reduce((n, p) => n + p.length, 0);
    let written = writevSync(this.fd, parts);
    // writev may write less than asked (rare for regular files); finish the record.
    while (written < total) written += writevSync(this.fd, [Buffer.concat(parts).subarray(written)]);
    this.index.set(mavenPath, { offset: this.size + parts[0]!.length, length: data.length });
    this.size += total;
  }

  /**
   * Appends a record whose data arrives in pieces (a big PUT's body, written as it comes): the
   * caller must not append anything else meanwhile (StagingStore queues appends per log). If the
   * data fails or is not `length` bytes, the log is cut back to where the record began: a failed
   * upload leaves no trace.
   */
  async appendStream(mavenPath: string, length: number, data: AsyncIterable<Uint8Array>): Promise<void> {
    if (this.frozen) throw new FrozenLogError();
    const start = this.size;
    const head = recordHead(mavenPath, length);
    try {
      await this.writeAll(head);
      let received = 0;
      for await (const chunk of data) {
        received += chunk.length;
        if (received > length) throw new Error('more bytes than declared');
        await this.writeAll(chunk);
      }
      if (received !== length) throw new Error('fewer bytes than declared');
      // Frozen while the data arrived: the snapshot did not hold it, so it must not stay.
      if (this.frozen) throw new FrozenLogError();
    } catch (error) {
      ftruncateSync(this.fd, start);
      throw error;
    }
    this.index.set(mavenPath, { offset: start + head.length, length });
    this.size = start + head.length + length;
  }

  private async writeAll(chunk: Uint8Array): Promise<void> {
    for (let done = 0; done < chunk.length; ) done += (await writeAsync(this.fd, chunk, done, chunk.length - done)).bytesWritten;
  }

  read(mavenPath: string): Buffer | undefined {
    const entry = this.index.get(mavenPath);
    if (entry === undefined) return undefined;
    const out = Buffer.alloc(entry.length);
    this.readAt(out, entry.offset);
    return out;
  }

  paths(): string[] {
    return [...this.index.keys()];
  }

  /** Every file: maven path → bytes, read now (synchronously, so nothing can change meanwhile). */
  readAll(): Map<string, Buffer> {
    return new Map(this.paths().map((p) => [p, this.read(p)!]));
  }

  /**
   * Every file as it is now, read later and only when asked: the index is copied in this tick,
   * so records appended afterwards are not part of it, and a big file is read in chunks (the log
   * must stay open until the reading is done).
   */
  files(): Map<string, SizedDeploymentFile> {
    const out = new Map<string, SizedDeploymentFile>();
    for (const [p, { offset, length }] of this.index) {
      const chunks = async function* (this: StagingLog): AsyncGenerator<Uint8Array> {
        for (let at = 0; at < length; ) {
          const buffer = Buffer.alloc(Math.min(chunkBytes, length - at));
          const { bytesRead } = await readAsync(this.fd, buffer, 0, buffer.length, offset + at);
          if (bytesRead === 0) throw new Error(`${p}: the staging log ended early`);
          at += bytesRead;
          yield buffer.subarray(0, bytesRead);
        }
      }.bind(this);
      const bytes = async (): Promise<Uint8Array> => {
        const data = Buffer.alloc(length);
        this.readAt(data, offset);
        return data;
      };
      out.set(p, { size: length, chunks, bytes });
    }
    return out;
  }

  close(): void {
    closeSync(this.fd);
  }
}
