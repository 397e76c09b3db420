import { StepFailedError } from '../errors.js';

/** The portal drops VALIDATED and FAILED deployments only (Publisher API, DELETE /deployment/{id}). */
export function dropRefusal(id: string, state: string): StepFailedError | undefined {
  if (state === 'VALIDATED' || state === 'FAILED') return undefined;
  const data = { deploymentId: id, state };
  if (state === 'PUBLISHED' || state === 'PUBLISHING') {
    return new StepFailedError(`Deployment ${id} is ${state}: a published release cannot be dropped; Maven Central keeps it for good.`, {
      kind: 'not-droppable',
      fix: 'Nothing to drop, and a published deployment blocks nothing. To replace what it published, fix the cause and release a new version.',
      data,
    });
  }
  return new StepFailedError(`Deployment ${id} is ${state}: the portal drops only VALIDATED or FAILED deployments.`, {
    kind: 'not-droppable',
    fix: `Wait until validation ends (relctl status --deployment ${id} --wait), then drop it if it is still unwanted.`,
    data,
  });
}
