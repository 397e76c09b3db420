import { inflateRawSync } from 'node:zlib';

/**
 * Reads a zip archive (a Publisher API bundle: stored or deflated entries, no encryption, no
 * zip64) from its central directory. Folder entries are skipped. Throws an Error naming what is
 * wrong, so a caller can answer "not a valid bundle".
 */
export function readZip(data: Uint8Array, limits: { maxEntries?: number; maxBytes?: number } = {}): Map<string, Uint8Array> {
  const buf = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const maxEntries = limits.maxEntries ?? 10_000;
  const maxBytes = limits.maxBytes ?? 1024 * 1024 * 1024;
  // End of central directory: 22 bytes plus a comment of at most 65535.
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 65_535); i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error('not a zip archive (no end of central directory)');
  const count = buf.readUInt16LE(eocd + 10);
  let at = buf.readUInt32LE(eocd + 16);
  if (count > maxEntries) throw new Error(`too many entries (${count})`);
  const out = new Map<string, Uint8Array>();
  let total = 0;
  for (let n = 0; n < count; n++) {
    if (at + 46 > buf.length || buf.readUInt32LE(at) !== 0x02014b50) throw new Error('broken central directory');
    const flags = buf.readUInt16LE(at + 8);
    const method = buf.readUInt16LE(at + 10);
    const compressed = buf.readUInt32LE(at + 20);
    const size = buf.readUInt32LE(at + 24);
    const nameLength = buf.readUInt16LE(at + 28);
    const extraLength = buf.readUInt16LE(at + 30);
    const commentLength = buf.readUInt16LE(at + 32);
    const local = buf.readUInt32LE(at + 42);
    const name = buf.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    at += 46 + nameLength + extraLength + commentLength;
    if (name.endsWith('/')) continue;
    if ((flags & 1) !== 0) throw new Error(`${name}: encrypted entries are not supported`);
    if (local + 30 > buf.length || buf.readUInt32LE(local) !== 0x04034b50) throw new Error(`${name}: broken local header`);
    const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    if (start + compressed > buf.length) throw new Error(`${name}: truncated`);
    total += size;
    if (total > maxBytes) throw new Error('uncompressed size over the limit');
    const raw = buf.subarray(start, start + compressed);
    let content: Buffer;
    if (method === 0) content = Buffer.from(raw);
    else if (method === 8) content = inflateRawSync(raw, { maxOutputLength: Math.max(size, 1) });
    else throw new Error(`${name}: compression method ${method} is not supported`);
    if (content.length !== size) throw new Error(`${name}: size mismatch`);
    out.set(name, content);
  }
  return out;
}
