import { InterruptedError } from '../core/errors.js';
import { readIdentity } from '../io/project.js';
import type { ChainRequest, ReleaseContext, Step, StepDeps, StepOutcome } from './types.js';

/**
 * The error of a chain stopped by Ctrl-C / SIGTERM: which steps finished, which one did not, what
 * was running, and the exact command that continues. A deploy or upload cut short may have left
 * an open staging repository (or a deployment): say so, with how to reuse or drop it.
 */
export async function interruptedChain(o: {
  request: ChainRequest;
  step: Step;
  rc: Readonly<ReleaseContext>;
  outcomes: readonly StepOutcome[];
  deps: StepDeps;
}): Promise<InterruptedError> {
  const { request, step, rc, deps } = o;
  const dryRun = deps.options.dryRun;
  const done = o.outcomes.filter((s) => s.status === 'done' || s.status === 'already-done').map((s) => s.id);
  const running = deps.proc.started.at(-1);
  const resume = resumeCommand(request);
  const lines = [
    `Interrupted during ${step.id} (${step.title}${running === undefined ? '' : `; ${running} was running and was stopped`}).`,
    `Finished steps: ${done.length === 0 ? 'none' : done.join(', ')}; ${step.id} did not finish${dryRun ? ' (dry run: nothing was changed)' : ''}.`,
  ];
  // The namespace the commands below need: given, learnt by an earlier step, or the project's.
  const group = deps.ctx.config.groupId ?? rc.groupId ?? (await readIdentity(deps.ctx.cwd).catch(() => undefined))?.groupId ?? '<group id>';
  const data: Record<string, unknown> = { step: step.id, finished: done.join(', ') };
  if (rc.repositoryKey !== undefined) data.repositoryKey = rc.repositoryKey;
  if (rc.deploymentId !== undefined) data.deploymentId = rc.deploymentId;
  if (resume === undefined) {
    // A rehearsal owns nothing real: its sandbox and throwaway copy are gone with it.
    return new InterruptedError(lines.join('\n'), { fix: 'Run relctl rehearse again.', data });
  }
  let fix = `Continue with: ${resume}`;
  const deploying = step.id === 'build' && deps.proc.started.some((p) => /perform|deploy|clean release/.test(p));
  if (!dryRun && deploying) {
    lines.push(
      `The deploy was cut short: a staging repository for ${group} may be open on the staging API (release:perform deploys into it).`,
    );
    fix = `Reuse it: ${resume} (the build runs again). Or drop it: relctl search --group-id ${group} shows its key, then relctl drop --repository-key <key>.`;
  } else if (!dryRun && step.id === 'upload') {
    lines.push(
      `The manual upload call may have reached the portal: relctl search --group-id ${group} --ip any shows the staging repository and whether a deployment was made from it.`,
    );
    fix = `Reuse it: ${resume} (uploads the open staging repository). Or drop it: relctl drop --repository-key <key from relctl search>.`;
  }
  return new InterruptedError(lines.join('\n'), { fix, data });
}

/** The exact command that continues this chain after its last finished step (none for a rehearsal). */
export function resumeCommand(request: ChainRequest): string | undefined {
  if (request.command === 'rehearse') return undefined;
  if (request.command === 'release') return 'relctl release --resume';
  return `relctl run ${request.steps.join(' ')} --resume`;
}
