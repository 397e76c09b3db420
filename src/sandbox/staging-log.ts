import { closeSync, ftruncateSync, openSync, readFileSync, readSync, writevSync } from 'node:fs';

/**
 * One staging repository's files as an append-only log: each PUT appends one record
 * `[u32 path length][u32 data length][path][data]` with a single writev on a file kept open.
 * Maven uploads one file at a time, so per-PUT latency is what a deploy feels: opening and
 * renaming a file per PUT cost more than the whole rest of the request on an overlay filesystem.
 * A re-PUT appends again and the index points at the newest record. A kill -9 can only leave a
 * partial last record, which open() cuts off: the log is always a sequence of whole uploads.
 */
export class StagingLog {
  private readonly index = new Map<string, { offset: number; length: number }>();
  private size = 0;
  private readonly fd: number;

  constructor(file: string) {
    this.fd = openSync(file, 'a+');
    const data = readFileSync(file);
    let at = 0;
    while (at + 8 <= data.length) {
      const pathLength = data.readUInt32LE(at);
      const length = data.readUInt32LE(at + 4);
      const end = at + 8 + pathLength + length;
      if (end > data.length) break;
      const p = data.toString('utf8', at + 8, at + 8 + pathLength);
      this.index.set(p, { offset: at + 8 + pathLength, length });
      at = end;
    }
    if (at !== data.length) ftruncateSync(this.fd, at);
    this.size = at;
  }

  append(mavenPath: string, data: Uint8Array): void {
    const name = Buffer.from(mavenPath, 'utf8');
    const header = Buffer.alloc(8);
    header.writeUInt32LE(name.length, 0);
    header.writeUInt32LE(data.length, 4);
    let written = writevSync(this.fd, [header, name, data]);
    const total = 8 + name.length + data.length;
    // writev may write less than asked (rare for regular files); finish the record.
    while (written < total) {
      const rest = Buffer.concat([header, name, data]).subarray(written);
      written += writevSync(this.fd, [rest]);
    }
    this.index.set(mavenPath, { offset: this.size + 8 + name.length, length: data.length });
    this.size += total;
  }

  read(mavenPath: string): Buffer | undefined {
    const entry = this.index.get(mavenPath);
    if (entry === undefined) return undefined;
    const out = Buffer.alloc(entry.length);
    let done = 0;
    while (done < entry.length) {
      const n = readSync(this.fd, out, done, entry.length - done, entry.offset + done);
      if (n === 0) break;
      done += n;
    }
    return out;
  }

  paths(): string[] {
    return [...this.index.keys()];
  }

  close(): void {
    closeSync(this.fd);
  }
}
