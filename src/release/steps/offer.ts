import { askYesNo } from '../../ui/ask.js';
import type { ReleaseContext, StepDeps } from '../types.js';

/**
 * Post-release chores in `relctl release` (DESIGN §11): offered only once the deployment is
 * PUBLISHED, asking first on a terminal (`--yes` and dry runs do not ask; without a terminal they
 * are not run). `relctl run` and the rehearsal run what they are told. Returns a skip reason, or undefined to run.
 */
export async function offeredAfterPublish(rc: Readonly<ReleaseContext>, deps: StepDeps, question: string, later: string): Promise<string | undefined> {
  if (deps.command !== 'release') return undefined;
  const state = rc.deploymentState;
  if (state !== 'PUBLISHED') return `the deployment is ${state ?? 'not yet'} ${state === undefined ? 'PUBLISHED' : 'and not PUBLISHED'}; ${later} once it is`;
  if (deps.options.yes || deps.options.dryRun) return undefined;
  if (!deps.ctx.canPrompt) return `not asked without a terminal: pass --yes, or ${later}`;
  return (await askYesNo(`The release is PUBLISHED. ${question}`, true)) ? undefined : `declined: ${later} later`;
}
