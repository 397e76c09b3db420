import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { StreamedBody } from '../io/http.js';

/** Read size of one chunk of the bundle. */
const chunkBytes = 1024 * 1024;

/**
 * The Publisher API upload's body: a multipart form whose one part, `bundle`, is the zip read
 * from disk as it is sent. Its length is computed up front (the part's head and tail are known,
 * the file's size is stat'ed), so it goes out with Content-Length. `sent` hears the bundle's bytes
 * read so far in this attempt (a retry starts again from 0).
 */
export async function bundleFormBody(file: string, sent: (bytes: number) => void = () => undefined): Promise<{ body: StreamedBody; contentType: string; size: number }> {
  const size = (await stat(file)).size;
  const boundary = `relctl-${Date.now().toString(36)}${Math.random().toString(36).slice(2)}`;
  const filename = path.basename(file).replace(/["\r\n]/g, '_');
  const head = Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="bundle"; filename="${filename}"\r\ncontent-type: application/octet-stream\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const open = async function* (): AsyncGenerator<Uint8Array> {
    let read = 0;
    sent(read);
    yield head;
    for await (const chunk of createReadStream(file, { highWaterMark: chunkBytes }) as AsyncIterable<Buffer>) {
      read += chunk.length;
      // A bundle that changes while it is sent would not match the length announced.
      if (read > size) throw new Error(`${file} grew while it was being sent`);
      sent(read);
      yield chunk;
    }
    if (read !== size) throw new Error(`${file} shrank while it was being sent`);
    yield tail;
  };
  return { body: { length: head.length + size + tail.length, open }, contentType: `multipart/form-data; boundary=${boundary}`, size };
}
