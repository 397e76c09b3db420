import { closeSync, fstatSync, ftruncateSync, openSync, readSync, writevSync } from 'node:fs';

/** No maven path of a real deploy comes close; a longer one means the bytes are not a record. */
const maxPathBytes = 4096;
const headerBytes = 8;

/** One record's bytes: `[u32 path length][u32 data length][path][data]`. */
export function encodeRecord(mavenPath: string, data: Uint8Array): Buffer[] {
  const name = Buffer.from(mavenPath, 'utf8');
  const header = Buffer.alloc(headerBytes);
  header.writeUInt32LE(name.length, 0);
  header.writeUInt32LE(data.length, 4);
  return [header, name, Buffer.from(data.buffer, data.byteOffset, data.byteLength)];
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
    const parts = encodeRecord(mavenPath, data);
    const total = parts.reduce((n, p) => n + p.length, 0);
    let written = writevSync(this.fd, parts);
    // writev may write less than asked (rare for regular files); finish the record.
    while (written < total) written += writevSync(this.fd, [Buffer.concat(parts).subarray(written)]);
    this.index.set(mavenPath, { offset: this.size + headerBytes + parts[1]!.length, length: data.length });
    this.size += total;
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

  close(): void {
    closeSync(this.fd);
  }
}
