import { portalError, type HttpError } from '../shared/http.js';
import type { DeploymentRecord } from './records.js';

/**
 * Optional publishing limits per organization and calendar month (UTC), as Central counts them
 * (Sonatype's "Maven Central Publishing Limits": an organization is one or more namespaces). Here
 * an organization is an account's namespaces: everything one sandbox user published counts together.
 */
export interface PublishingLimits {
  files?: number;
  bytes?: number;
  releases?: number;
}

const units: Record<string, number> = Object.assign(Object.create(null) as Record<string, number>, {
  '': 1,
  b: 1,
  kb: 1000,
  mb: 1000 ** 2,
  gb: 1000 ** 3,
  kib: 1024,
  mib: 1024 ** 2,
  gib: 1024 ** 3,
});

/** `files=300,bytes=15MB,releases=3` (any subset); throws a readable Error on anything else. */
export function parseLimits(spec: string): PublishingLimits {
  const limits: PublishingLimits = {};
  for (const part of spec.split(',').map((p) => p.trim()).filter((p) => p !== '')) {
    const match = /^(files|bytes|releases)=(\d+(?:\.\d+)?)\s*([a-zA-Z]*)$/.exec(part);
    const unit = match?.[3]?.toLowerCase() ?? '';
    if (match === null || !(unit in units) || (match[1] !== 'bytes' && unit !== '')) {
      throw new Error(`"${part}" is not a limit; write files=N, bytes=SIZE (such as 15MB) or releases=N`);
    }
    const value = Math.floor(Number(match[2]) * units[unit]!);
    limits[match[1] as keyof PublishingLimits] = value;
  }
  if (Object.keys(limits).length === 0) throw new Error('no limit given; write files=N, bytes=SIZE or releases=N');
  return limits;
}

const month = (iso: string): string => iso.slice(0, 7);

/**
 * The 400 a deployment of `fileCount` files and `bytes` bytes into `namespace` by `user` gets when
 * it would exceed a limit this month, counting what the user's organization (all its namespaces)
 * published already; undefined when it fits.
 * Sonatype documents no text for a capped publication ("publishing activity capped until usage
 * resets"); this wording is the sandbox's own, and relctl's decoder (portal/decode.ts) keys on its
 * opening "Publishing limit reached", so both stay in step.
 */
export function limitExceeded(
  limits: PublishingLimits | undefined,
  published: readonly DeploymentRecord[],
  owner: { user: string; namespace: string },
  adding: { fileCount: number; bytes: number },
  now = new Date().toISOString(),
): HttpError | undefined {
  if (limits === undefined) return undefined;
  const used = { files: 0, bytes: 0, releases: 0 };
  for (const d of published) {
    if (d.state !== 'PUBLISHED' || d.user !== owner.user || month(d.publishedAt ?? d.createdAt) !== month(now)) continue;
    used.files += d.fileCount ?? 0;
    used.bytes += d.bytes ?? 0;
    used.releases += 1;
  }
  const after = { files: used.files + adding.fileCount, bytes: used.bytes + adding.bytes, releases: used.releases + 1 };
  for (const what of ['releases', 'files', 'bytes'] as const) {
    const limit = limits[what];
    if (limit === undefined || after[what] <= limit) continue;
    return portalError(
      `Publishing limit reached for namespace '${owner.namespace}' in ${month(now)} (its organization's namespaces together): ${used[what]} of ${limit} ${what} used, this deployment needs ${what === 'releases' ? 1 : adding[what === 'files' ? 'fileCount' : 'bytes']} more. Usage resets at the start of next month.`,
    );
  }
  return undefined;
}
