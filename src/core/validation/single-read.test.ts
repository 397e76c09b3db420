import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { readArtifactOnce } from './single-read.js';
import type { DeploymentFile, SignatureVerdict } from './types.js';

/** A file served in chunks, counting how often it is opened and how many chunks are read. */
function chunkedFile(chunks: string[], failAt?: number): DeploymentFile & { opened: number; read: number } {
  const file = {
    opened: 0,
    read: 0,
    bytes: async () => Buffer.from(chunks.join('')),
    chunks: async function* () {
      file.opened += 1;
      for (const [i, chunk] of chunks.entries()) {
        if (i === failAt) throw new Error('EIO: the disk failed');
        file.read += 1;
        yield Buffer.from(chunk);
      }
    },
  };
  return file;
}

const sha1 = (text: string): string => createHash('sha1').update(text).digest('hex');

describe('readArtifactOnce', () => {
  it('opens the file once: the verifier and the digests see the same chunks', async () => {
    const file = chunkedFile(['ab', 'cd', 'ef']);
    let seen = '';
    const verify = async (data: AsyncIterable<Uint8Array>): Promise<SignatureVerdict> => {
      for await (const chunk of data) seen += Buffer.from(chunk).toString();
      return { status: 'valid', fingerprint: 'F' };
    };
    const reading = await readArtifactOnce(file, ['sha1', 'md5'], verify);
    expect(seen).toBe('abcdef');
    expect(reading.digests.get('sha1')).toBe(sha1('abcdef'));
    expect(reading.verdict).toEqual({ status: 'valid', fingerprint: 'F' });
    expect([file.opened, file.read]).toEqual([1, 3]);
  });

  it('reads what a verifier leaves unread for the digests, and nothing when nothing is asked', async () => {
    const file = chunkedFile(['ab', 'cd', 'ef']);
    const reading = await readArtifactOnce(file, ['sha1'], async () => ({ status: 'no-public-key', keyId: 'K' }));
    expect(reading.digests.get('sha1')).toBe(sha1('abcdef'));
    const untouched = chunkedFile(['x']);
    await readArtifactOnce(untouched, [], undefined);
    expect(untouched.opened).toBe(0);
  });

  it('a failing read is the error, even when the verifier swallowed it as an invalid signature', async () => {
    const file = chunkedFile(['ab', 'cd', 'ef'], 1);
    const swallowing = async (data: AsyncIterable<Uint8Array>): Promise<SignatureVerdict> => {
      try {
        for await (const _ of data);
      } catch {
        return { status: 'invalid' };
      }
      return { status: 'valid', fingerprint: 'F' };
    };
    await expect(readArtifactOnce(file, ['sha1'], swallowing)).rejects.toThrow(/EIO/);
  });
});
