import { createHash, type Hash } from 'node:crypto';
import type { DeploymentFile, SignatureVerdict } from './types.js';

/** Plain bytes as a deployment file (deployments held in memory: small ones, tests). */
export function fileOfBytes(data: Uint8Array): DeploymentFile {
  return {
    bytes: async () => data,
    chunks: async function* () {
      yield data;
    },
  };
}

export function asDeploymentFile(file: DeploymentFile | Uint8Array): DeploymentFile {
  return file instanceof Uint8Array ? fileOfBytes(file) : file;
}

/** What one pass over an artifact found: its digests, and the signature's verdict when it had one. */
export interface ArtifactReading {
  digests: Map<string, string>;
  verdict?: SignatureVerdict;
}

/**
 * Reads an artifact once: every chunk updates the digests asked for and, when a signature is
 * given, goes on to the signature verifier as the same chunk (no copy, no second read). When the
 * verifier stops early (a signature it cannot use, no key), the rest is read for the digests.
 * Nothing is read when there is nothing to compute.
 */
export async function readArtifactOnce(
  file: DeploymentFile,
  algorithms: readonly string[],
  verify: ((data: AsyncIterable<Uint8Array>) => Promise<SignatureVerdict>) | undefined,
): Promise<ArtifactReading> {
  const digests = new Map<string, string>();
  if (algorithms.length === 0 && verify === undefined) return { digests };
  const hashes: [string, Hash][] = algorithms.map((a) => [a, createHash(a)]);
  const source = file.chunks()[Symbol.asyncIterator]();
  // A read that fails (a disk error, a broken zip entry) is the file's failure, not a verdict on
  // its signature: the verifier may swallow it, so it is kept and thrown here.
  let failure: { error: unknown } | undefined;
  const next = async (): Promise<IteratorResult<Uint8Array>> => {
    let step: IteratorResult<Uint8Array>;
    try {
      step = await source.next();
    } catch (error) {
      failure ??= { error };
      throw error;
    }
    if (step.done !== true) for (const [, hash] of hashes) hash.update(step.value);
    return step;
  };
  // The verifier's view never closes the source: what it leaves unread is still hashed below.
  const shared: AsyncIterable<Uint8Array> = { [Symbol.asyncIterator]: () => ({ next }) };
  let verdict: SignatureVerdict | undefined;
  try {
    if (verify !== undefined) verdict = await verify(shared);
    if (failure !== undefined) throw failure.error;
    while ((await next()).done !== true);
  } finally {
    await source.return?.();
  }
  for (const [algorithm, hash] of hashes) digests.set(algorithm, hash.digest('hex'));
  return verdict === undefined ? { digests } : { digests, verdict };
}
