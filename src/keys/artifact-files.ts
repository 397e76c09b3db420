import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { EnvironmentError } from '../core/errors.js';
import type { DeploymentFile, SizedDeploymentFile } from '../core/validation/types.js';

export type SizedFile = SizedDeploymentFile;

/** How much of a set has been read so far: updated by every read, shown by the progress line. */
export interface ReadTally {
  files: number;
  bytes: number;
}

export function newTally(): ReadTally {
  return { files: 0, bytes: 0 };
}

/** Read size of one chunk: large enough for the disk and the hashes, small beside any memory budget. */
export const chunkBytes = 1024 * 1024;

async function* counted(source: AsyncIterable<Uint8Array>, tally: ReadTally): AsyncGenerator<Uint8Array> {
  for await (const chunk of source) {
    tally.bytes += chunk.length;
    yield chunk;
  }
  tally.files += 1;
}

async function collect(source: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const parts: Buffer[] = [];
  for await (const chunk of source) parts.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
  return Buffer.concat(parts);
}

/** A file that went away or cannot be read since it was listed: the machine's problem (exit 3). */
function unreadable(file: string, error: unknown): EnvironmentError {
  const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
  return new EnvironmentError(`Cannot read ${file} (${code}) while verifying it.`, {
    kind: 'file-unreadable',
    fix: 'Check that the build output is complete and readable (nothing deleting or rewriting it meanwhile), then verify again.',
  });
}

async function* fromDisk(file: string): AsyncGenerator<Uint8Array> {
  try {
    yield* createReadStream(file, { highWaterMark: chunkBytes }) as AsyncIterable<Buffer>;
  } catch (error) {
    throw unreadable(file, error);
  }
}

/** A file on disk, read when asked. */
export function diskFile(file: string, size: number, tally: ReadTally): SizedFile {
  return {
    size,
    bytes: async () => {
      const data = await readFile(file).catch((error: unknown) => {
        throw unreadable(file, error);
      });
      tally.bytes += data.length;
      return data;
    },
    chunks: () => counted(fromDisk(file), tally),
  };
}

/** Content from elsewhere (an archive's entry) as a deployment file. */
export function streamedFile(size: number, open: () => AsyncIterable<Uint8Array>, tally: ReadTally): SizedFile {
  return {
    size,
    bytes: async () => collect(counted(open(), tally)),
    chunks: () => counted(open(), tally),
  };
}

/** Bytes already in memory (a module's pom.xml read for its coordinates). */
export function memoryFile(data: Uint8Array): SizedFile {
  return {
    size: data.length,
    bytes: async () => data,
    chunks: async function* () {
      yield data;
    },
  };
}

/**
 * The `.md5`/`.sha1` Maven writes only while deploying, stood in for by relctl: it matches its
 * artifact by construction, so the rules do not read the artifact for it; asked for its bytes
 * (only an upload would), it hashes the artifact then.
 */
export function derivedChecksum(artifact: DeploymentFile, algorithm: 'md5' | 'sha1'): SizedFile {
  const bytes = async (): Promise<Uint8Array> => Buffer.from(await digestOf(artifact, algorithm));
  return {
    size: algorithm === 'md5' ? 32 : 40,
    derived: true,
    bytes,
    chunks: async function* () {
      yield await bytes();
    },
  };
}

/** A file's digest, read as a stream. */
export async function digestOf(file: DeploymentFile, algorithm: string): Promise<string> {
  const hash = createHash(algorithm);
  for await (const chunk of file.chunks()) hash.update(chunk);
  return hash.digest('hex');
}
