import { StepFailedError } from '../core/errors.js';
import { sizeText } from '../ui/progress.js';

/** The portal's cap on one deployment (its front server answers 413 above it; DESIGN §5a). */
const portalBundleBytes = 1024 ** 3;

/** What to do about a deployment over the cap: the same advice for relctl's own check and the portal's 413. */
export const bundleTooLargeFix =
  'Split the release into several deployments of under 1 GiB each (groups of modules), or leave optional files (.sha256/.sha512, extra classifiers) out, then upload again.';

/**
 * The cap relctl checks before an upload. RELCTL_TEST_BUNDLE_BYTES (a byte count) lets tests meet
 * it without writing a gigabyte; nothing else reads it.
 */
export function bundleLimitBytes(env: NodeJS.ProcessEnv): number {
  const given = Number(env.RELCTL_TEST_BUNDLE_BYTES ?? 'NaN');
  return Number.isSafeInteger(given) && given > 0 ? given : portalBundleBytes;
}

/**
 * Refuses, before any upload call, a deployment the portal would refuse for its size: the upload
 * would go out whole (minutes of it) only to be answered 413.
 */
export function refuseOversizedBundle(bytes: number, what: string, env: NodeJS.ProcessEnv): void {
  const limit = bundleLimitBytes(env);
  if (bytes <= limit) return;
  throw new StepFailedError(
    `${what} is ${sizeText(bytes)} (${bytes} bytes): the portal takes at most ${sizeText(limit)} (${limit} bytes) in one deployment; nothing was uploaded.`,
    { kind: 'bundle-too-large', fix: bundleTooLargeFix },
  );
}
