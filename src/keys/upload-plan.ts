import { isRelctlError, StepFailedError } from '../core/errors.js';
import { toReport } from '../core/findings.js';
import { snapshotReleaseRefused, snapshotVersionsOf } from '../core/snapshot-release.js';
import type { CommandContext } from '../io/command-context.js';
import type { PortalFailure } from '../portal/client.js';
import { refuseOversizedBundle } from '../portal/bundle-limit.js';
import { sizeText } from '../ui/progress.js';
import type { ArtifactSet } from './artifacts.js';

/**
 * What `upload` is about to hand to the portal, shown before the irreversible call: the file
 * count and total bytes (the portal's publishing limits count both). The staging API lists no
 * files of a repository, so they come from the local build output the deploy sent, the same set
 * `verify` checks.
 */
export interface UploadPlan {
  files: number;
  bytes: number;
  from: string;
}

export function planOf(set: ArtifactSet): UploadPlan {
  let bytes = 0;
  for (const file of set.files.values()) bytes += file.size;
  return { files: set.files.size, bytes, from: set.from };
}

/** The plan as one line: files and size. */
export function planText(plan: UploadPlan | undefined): string {
  return plan === undefined
    ? 'file count and size unknown (no local build output to count)'
    : `${plan.files} file${plan.files === 1 ? '' : 's'}, ${sizeText(plan.bytes)} (${plan.bytes} bytes) from ${plan.from}`;
}

/** The build output, or undefined when there is none (only an --no-verify upload gets this far without one). */
export async function localArtifacts(ctx: CommandContext): Promise<ArtifactSet | undefined> {
  const { fromBuildOutput } = await import('./artifacts.js');
  return fromBuildOutput(ctx.cwd).catch((error: unknown) => {
    if (isRelctlError(error) && error.exitCode === 2) return undefined;
    throw error;
  });
}

/**
 * `verify` before the upload: a build output that the portal would fail stops the upload (a
 * failed deployment blocks the namespace). Without any build output here (the artifacts were
 * deployed from another machine or folder) there is nothing to check: undefined, and the caller
 * says so before it asks.
 */
export async function verifyBeforeUpload(ctx: CommandContext): Promise<ArtifactSet | undefined> {
  const set = await localArtifacts(ctx);
  if (set === undefined) return undefined;
  const { verifyWithContext } = await import('./verify.js');
  const { findings } = await verifyWithContext(ctx, set);
  const report = toReport(findings);
  if (!report.ok) {
    const error: PortalFailure = new StepFailedError(
      'verify found problems the portal would fail: nothing was uploaded, so the namespace stays unblocked.',
      { kind: 'verify-failed', fix: 'Fix the findings, rebuild and deploy again, then upload (relctl verify shows them again).' },
    );
    error.findings = report.findings;
    throw error;
  }
  return set;
}

/**
 * What `upload` will send: verified first unless `verify` is false, counted for the publishing
 * limits, and the warning the user must read before the irreversible call (no check, or nothing to check).
 */
export async function uploadPlan(ctx: CommandContext, verify: boolean): Promise<{ plan?: UploadPlan; warning?: string }> {
  const set = verify ? await verifyBeforeUpload(ctx) : await localArtifacts(ctx);
  // Also under --no-verify: a -SNAPSHOT is the one failure that is certain (core/snapshot-release.ts).
  const snapshots = set === undefined ? [] : snapshotVersionsOf(set.files.keys());
  if (snapshots.length > 0) throw snapshotReleaseRefused(snapshots, `The build output the upload would send (${set!.from})`);
  const plan = set === undefined ? undefined : planOf(set);
  if (plan !== undefined) refuseOversizedBundle(plan.bytes, `The build output the upload would send (${plan.from})`, ctx.env);
  const warning = !verify
    ? '--no-verify: the build output is not checked; a deployment the portal fails blocks the namespace until it is dropped.'
    : plan === undefined
      ? `Nothing to verify in ${ctx.cwd} (no build output): the staged files go to the portal unchecked. Run upload in the built project to verify first, or pass --no-verify to say you mean it.`
      : undefined;
  return { ...(plan === undefined ? {} : { plan }), ...(warning === undefined ? {} : { warning }) };
}
