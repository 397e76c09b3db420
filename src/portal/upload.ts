import os from 'node:os';
import { randomUUID } from 'node:crypto';
import type { CommandContext } from '../io/command-context.js';
import { isRelctlError } from '../core/errors.js';
import type { RepositoryKey } from '../core/identifiers.js';
import { updateJournal, type Journal, type UploadRecord } from '../io/journal.js';
import { AmbiguousRequestError } from '../io/http.js';
import { searchCommand, type PortalClient, type PublishingType, type StagingRepository } from './client.js';
import { localAddressOf } from './session.js';
import { keyText } from './urls.js';

/**
 * The manual upload, recovered by identity (DESIGN §5). Before the POST relctl looks at what the
 * namespace holds; when the answer is lost it looks again and adopts only a deployment that did
 * not exist before the call, of the same repository, not published (unless automatic). Never an
 * older deployment with the same key, never a PUBLISHED one a previous release left behind.
 */
export interface UploadRequest {
  /** The portal namespace the call names (portal/namespace.ts), not necessarily the groupId. */
  namespace: string;
  publishingType: PublishingType;
  /** The by-key form (works from any source address). */
  repositoryKey?: RepositoryKey;
  log?: (line: string) => void;
}

/** What the namespace held before the call: the repository to move and every known deployment. */
export interface UploadSnapshot {
  /** The repository the call moves, as the staging API spells its key. */
  key?: string;
  /** Deployment ids that existed before the call: none of them can be this call's. */
  knownDeploymentIds: Set<string>;
}

export interface UploadOutcome {
  namespace: string;
  repositoryKey?: string;
  deploymentId?: string;
  /** True when the answer was lost and the search showed the upload had happened. */
  recovered: boolean;
}

/** Looks first (read-only: a failure here changes nothing). */
export async function snapshotBeforeUpload(portal: PortalClient, req: UploadRequest): Promise<UploadSnapshot> {
  const byKey = req.repositoryKey !== undefined;
  const repos = await portal.search({ namespace: req.namespace, ip: byKey ? 'any' : 'client' });
  const known = new Set(repos.map((r) => r.portalDeploymentId).filter((id): id is string => id !== null));
  const key = byKey ? keyText(req.repositoryKey!) : repos.find((r) => r.state === 'open')?.key;
  return { knownDeploymentIds: known, ...(key === undefined ? {} : { key }) };
}

/** Repositories that this call can have produced: same key, a deployment id nobody had seen. */
function madeByThisCall(repos: readonly StagingRepository[], snap: UploadSnapshot, type: PublishingType): StagingRepository[] {
  return repos.filter(
    (r) =>
      r.portalDeploymentId !== null &&
      !snap.knownDeploymentIds.has(r.portalDeploymentId) &&
      (snap.key === undefined || r.key === snap.key) &&
      r.state !== 'open' &&
      // A user-managed deployment is never published by the portal on its own.
      (r.state !== 'released' || type === 'automatic'),
  );
}

async function searchAfter(portal: PortalClient, req: UploadRequest): Promise<StagingRepository[]> {
  return portal.search({ namespace: req.namespace, ip: req.repositoryKey !== undefined ? 'any' : 'client' });
}

function ambiguous(req: UploadRequest, snap: UploadSnapshot, why: string): AmbiguousRequestError {
  return new AmbiguousRequestError(`The upload of ${req.namespace} got no answer and ${why}: the portal may or may not have made a deployment.`, {
    fix: `Run ${searchCommand(req.namespace)} and look for a new deployment id (or at the portal's Deployments page) before uploading again.`,
    ...(snap.key === undefined ? {} : { data: { repositoryKey: snap.key } }),
  });
}

export async function performUpload(portal: PortalClient, req: UploadRequest, snap: UploadSnapshot): Promise<UploadOutcome> {
  const call = (): ReturnType<PortalClient['upload']> =>
    req.repositoryKey !== undefined ? portal.uploadByKey(req.repositoryKey, req.publishingType) : portal.upload(req.namespace, req.publishingType);
  let recovered = false;
  let deploymentId: string | undefined;
  try {
    deploymentId = (await call()).deploymentId;
  } catch (error) {
    if (!isRelctlError(error) || error.kind !== 'request-ambiguous') throw error;
    req.log?.('the upload got no answer; searching before deciding');
    let after: StagingRepository[];
    try {
      after = await searchAfter(portal, req);
    } catch (searchError) {
      const why = isRelctlError(searchError) ? searchError.message : String(searchError);
      throw ambiguous(req, snap, `the search that should settle it failed too (${why})`);
    }
    const made = madeByThisCall(after, snap, req.publishingType);
    if (made.length === 1) {
      recovered = true;
      deploymentId = made[0]!.portalDeploymentId!;
    } else if (made.length > 1) {
      throw ambiguous(req, snap, `${made.length} new deployments are listed (${made.map((r) => r.portalDeploymentId).join(', ')})`);
    } else if (snap.key !== undefined && after.some((r) => r.key === snap.key && r.state === 'open')) {
      // Nothing moved: the repository is provably still open, so the call did not happen; once more is safe.
      req.log?.(`repository ${snap.key} is still open: uploading once more`);
      deploymentId = (await call()).deploymentId;
    } else {
      throw ambiguous(req, snap, 'the search shows neither the open repository nor a new deployment');
    }
  }
  if (deploymentId === undefined) {
    // An empty 200 (as Sonatype's prototype answers): the new deployment is found by identity.
    const after = await searchAfter(portal, req).catch(() => []);
    const made = madeByThisCall(after, snap, req.publishingType);
    if (made.length === 1) deploymentId = made[0]!.portalDeploymentId!;
  }
  return {
    namespace: req.namespace,
    recovered,
    ...(snap.key === undefined ? {} : { repositoryKey: snap.key }),
    ...(deploymentId === undefined ? {} : { deploymentId }),
  };
}

/**
 * The upload with its journal: the attempt is recorded before the call (machine, source address,
 * group id, repository key) and completed with its outcome after it, failures included, so
 * `status` and `publish` find a deployment id even after a failed or interrupted upload. The
 * repository key is stored as shown, its username masked.
 */
export async function journaledUpload(ctx: CommandContext, portal: PortalClient, req: UploadRequest, snap: UploadSnapshot): Promise<UploadOutcome> {
  const attempt = randomUUID();
  const sourceAddress = localAddressOf(ctx);
  const shownKey = snap.key === undefined ? undefined : ctx.out.redactor.redact(snap.key);
  const base: UploadRecord = {
    attempt,
    machine: os.hostname(),
    ...(sourceAddress === undefined ? {} : { sourceAddress }),
    // The journal's field keeps its name (older journals): it holds the namespace the call named.
    groupId: req.namespace,
    publishingType: req.publishingType,
    ...(shownKey === undefined ? {} : { repositoryKey: shownKey }),
    outcome: 'pending',
    at: new Date().toISOString(),
  };
  const complete = (fields: Partial<UploadRecord>): Promise<unknown> =>
    updateJournal(ctx.cwd, (j) => {
      const i = j.uploads.findIndex((u) => u.attempt === attempt);
      const record = { ...base, ...fields, at: new Date().toISOString() };
      if (i >= 0) j.uploads[i] = record;
      else j.uploads.push(record);
      if (record.repositoryKey !== undefined) j.repositoryKey = record.repositoryKey;
      if (record.deploymentId !== undefined) j.deploymentId = record.deploymentId;
    });
  await updateJournal(ctx.cwd, (j) => {
    j.uploads.push(base);
  });
  try {
    const outcome = await performUpload(portal, req, snap);
    await complete({ outcome: outcome.recovered ? 'recovered' : 'uploaded', ...(outcome.deploymentId === undefined ? {} : { deploymentId: outcome.deploymentId }) });
    return outcome;
  } catch (error) {
    const kind = isRelctlError(error) ? error.kind : 'internal';
    const id = isRelctlError(error) && typeof error.data.deploymentId === 'string' ? error.data.deploymentId : undefined;
    await complete({ outcome: kind === 'request-ambiguous' ? 'ambiguous' : 'failed', error: kind, ...(id === undefined ? {} : { deploymentId: id }) }).catch(() => undefined);
    throw error;
  }
}

/**
 * The last upload was made on another machine: the portal finds a staging repository only from the
 * address that deployed it, so the by-address upload would find nothing (DESIGN §5).
 */
export function otherMachineCaution(journal: Journal, namespace: string, machine = os.hostname()): { warning: string; hint: string } | undefined {
  const last = journal.uploads.at(-1);
  if (last === undefined || last.machine === machine) return undefined;
  return {
    warning: `The last upload of this release was made on ${last.machine}, not on ${machine}; the portal only finds a staging repository from the address that deployed it.`,
    hint: `  By key instead: ${searchCommand(namespace)}, then relctl upload --namespace ${namespace} --repository-key <key>`,
  };
}

/** The last upload attempt ended without a known outcome: look before calling again. */
export function unsettledAttemptCaution(journal: Journal): string | undefined {
  const last = journal.uploads.at(-1);
  if (last?.outcome !== 'pending' && last?.outcome !== 'ambiguous') return undefined;
  return `The last upload attempt (${last.at}) ended without a known outcome; relctl only adopts a deployment it can prove is new, but look first: ${searchCommand(last.groupId)}`;
}
