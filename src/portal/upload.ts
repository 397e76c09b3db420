import os from 'node:os';
import type { CommandContext } from '../io/command-context.js';
import { EnvironmentError, isRelctlError } from '../core/errors.js';
import type { UploadRecord } from '../io/journal.js';
import type { PortalClient, PublishingType, StagingRepository } from './client.js';
import { localAddressOf } from './session.js';

/**
 * The manual upload with the "search, then decide" rule for a POST whose answer was lost: the
 * staging repository is looked up again; if it already moved (it has a deployment id, or it is
 * no longer open) the upload happened; if it is still open, one more upload is safe.
 */
export interface UploadRequest {
  groupId: string;
  publishingType: PublishingType;
  /** The by-key form (works from any source address). */
  repositoryKey?: string;
  log?: (line: string) => void;
}

export interface UploadOutcome {
  groupId: string;
  repositoryKey?: string;
  deploymentId?: string;
  /** True when the answer was lost and the search showed the upload had happened. */
  recovered: boolean;
}

function moved(r: StagingRepository | undefined): boolean {
  return r !== undefined && (r.portalDeploymentId !== null || r.state !== 'open');
}

async function findRepo(portal: PortalClient, groupId: string, key: string | undefined, ip: 'any' | 'client'): Promise<StagingRepository | undefined> {
  const repos = await portal.search({ groupId, ip });
  if (key !== undefined) return repos.find((r) => r.key === key);
  // Only one open repository per token+address+namespace exists; prefer it, then the newest listed.
  return repos.find((r) => r.state === 'open') ?? repos[repos.length - 1];
}

export async function manualUpload(portal: PortalClient, req: UploadRequest): Promise<UploadOutcome> {
  // Which repository this address holds, so the deployment id can be found afterwards.
  let key = req.repositoryKey;
  if (key === undefined) {
    const before = await portal.search({ groupId: req.groupId, ip: 'client', state: 'open' }).catch(() => []);
    key = before.find((r) => r.state === 'open')?.key;
  }
  const call = (): ReturnType<PortalClient['upload']> =>
    req.repositoryKey !== undefined
      ? portal.uploadByKey(req.repositoryKey, req.publishingType, req.groupId)
      : portal.upload(req.groupId, req.publishingType);

  let recovered = false;
  let answer: Awaited<ReturnType<PortalClient['upload']>>;
  try {
    answer = await call();
  } catch (error) {
    if (!isRelctlError(error) || error.kind !== 'request-ambiguous') throw error;
    req.log?.('the upload got no answer; searching before deciding');
    const repo = await findRepo(portal, req.groupId, key, req.repositoryKey !== undefined ? 'any' : 'client');
    if (moved(repo)) {
      recovered = true;
      answer = repo!.portalDeploymentId === null ? {} : { deploymentId: repo!.portalDeploymentId };
    } else if (repo !== undefined) {
      req.log?.(`repository ${repo.key} is still open: uploading once more`);
      answer = await call();
    } else {
      throw new EnvironmentError('The upload got no answer and no staging repository is listed for it now.', {
        kind: 'request-ambiguous',
        fix: `Check the portal's Deployments page and relctl search --group-id ${req.groupId} --ip any before uploading again.`,
        ...(key === undefined ? {} : { data: { repositoryKey: key } }),
      });
    }
  }
  let deploymentId = answer.deploymentId;
  if (deploymentId === undefined && key !== undefined) {
    const after = await findRepo(portal, req.groupId, key, 'any').catch(() => undefined);
    deploymentId = after?.portalDeploymentId ?? undefined;
  }
  return {
    groupId: req.groupId,
    recovered,
    ...(key === undefined ? {} : { repositoryKey: key }),
    ...(deploymentId === undefined ? {} : { deploymentId }),
  };
}

/**
 * The journal's record of an upload: which machine and source address made it (the staging API
 * matches by address, DESIGN §5). The repository key is stored as shown, its username masked.
 */
export function uploadRecord(ctx: CommandContext, groupId: string, outcome: UploadOutcome): UploadRecord {
  const sourceAddress = localAddressOf(ctx);
  const repositoryKey = outcome.repositoryKey === undefined ? undefined : ctx.out.redactor.redact(outcome.repositoryKey);
  return {
    machine: os.hostname(),
    ...(sourceAddress === undefined ? {} : { sourceAddress }),
    groupId,
    ...(repositoryKey === undefined ? {} : { repositoryKey }),
    ...(outcome.deploymentId === undefined ? {} : { deploymentId: outcome.deploymentId }),
    at: new Date().toISOString(),
  };
}
