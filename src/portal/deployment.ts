import { setTimeout as sleep } from 'node:timers/promises';
import type { CommandContext } from '../io/command-context.js';
import { UsageError } from '../core/errors.js';
import type { Finding } from '../core/findings.js';
import { readJournal } from '../io/journal.js';
import type { DeploymentStatus, PortalClient } from './client.js';
import { validationFindings } from './decode.js';
import { requireDeploymentId } from './urls.js';
import { reportNamespace, resolveNamespace } from './namespace.js';

/** Publisher API deployment states (reference/portal-api.md §B). */
export const settledStates = new Set(['VALIDATED', 'PUBLISHED', 'FAILED']);

/** The deployment to act on: --deployment, else the journal's, else the newest one search shows. */
export async function resolveDeploymentId(ctx: CommandContext, portal: PortalClient, flag: unknown): Promise<string> {
  if (typeof flag === 'string') return requireDeploymentId(flag);
  const journal = await readJournal(ctx.cwd);
  if (journal.deploymentId !== undefined) {
    ctx.out.verbose(`deployment ${journal.deploymentId} from the release journal`);
    return journal.deploymentId;
  }
  // Only a namespace or groupId the user named is searched: a project's own groupId alone is not a question about the portal.
  if (ctx.config.namespace !== undefined || ctx.config.groupId !== undefined) {
    const resolved = await resolveNamespace(ctx, portal);
    reportNamespace(ctx, resolved);
    const repos = await portal.search({ namespace: resolved.namespace, ip: 'any' });
    const withId = repos.filter((r) => r.portalDeploymentId !== null);
    const latest = withId[withId.length - 1];
    if (latest?.portalDeploymentId != null) {
      ctx.out.verbose(`deployment ${latest.portalDeploymentId} from the search of ${resolved.namespace}`);
      return latest.portalDeploymentId;
    }
  }
  throw new UsageError('No deployment id given and none is known.', {
    fix: 'Pass --deployment <id> (printed by relctl upload), or --namespace <namespace> (or --group-id <groupId>) to find the latest one.',
  });
}

/** What each state means for the person releasing, and what to do next. */
export function stateMeaning(state: string, id: string): { text: string; next?: string } {
  switch (state) {
    case 'PUBLISHED':
      return { text: 'published: the artifacts are on their way to the public repository' };
    case 'VALIDATED':
      return { text: 'validated, NOT published yet: a person must publish it', next: `relctl publish --deployment ${id}` };
    case 'FAILED':
      return { text: 'validation FAILED: the namespace is blocked until this deployment is dropped', next: `relctl drop --deployment ${id}` };
    default:
      return { text: `${state.toLowerCase()}: the portal is still working on it`, next: `relctl status --deployment ${id} --wait` };
  }
}

export interface WaitResult {
  status: DeploymentStatus;
  /** False when the time limit ran out before VALIDATED, PUBLISHED or FAILED. */
  settled: boolean;
}

/** Polls with backoff (1 s doubling to 15 s) until the state settles or the limit runs out. */
export async function waitForDeployment(
  portal: PortalClient,
  id: string,
  options: { timeoutMs: number; signal?: AbortSignal; onState?: (s: string) => void; firstDelayMs?: number },
): Promise<WaitResult> {
  const deadline = Date.now() + options.timeoutMs;
  let delay = options.firstDelayMs ?? 1000;
  let last: string | undefined;
  for (;;) {
    const status = await portal.status(id);
    if (status.deploymentState !== last) options.onState?.(status.deploymentState);
    last = status.deploymentState;
    if (settledStates.has(status.deploymentState)) return { status, settled: true };
    const left = deadline - Date.now();
    if (left <= 0) return { status, settled: false };
    await sleep(Math.min(delay, left), undefined, options.signal === undefined ? {} : { signal: options.signal });
    delay = Math.min(delay * 2, 15_000);
  }
}

export function statusFindings(status: DeploymentStatus, portalUrl: string): Finding[] {
  return validationFindings(status.errors, portalUrl);
}
