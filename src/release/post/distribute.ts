import { UsageError } from '../../core/errors.js';
import { inPlaceDiff } from '../../core/post-release/line-diff.js';
import { setProperty } from '../../core/post-release/pin-property.js';
import { parseRepoName, repoFromRemoteUrl, type RepoName } from '../../core/notes/tracker.js';
import type { CommandContext } from '../../io/command-context.js';
import { runGit } from '../../io/git.js';
import { updateJournal, type DistributionRecord } from '../../io/journal.js';
import { requirePublished, resolveReleaseTarget } from '../../io/release-version.js';
import { githubFailure } from '../../github/errors.js';
import * as api from '../../github/repo-api.js';
import { viaClone } from './distribute-clone.js';
import { propertiesFile, type DistributeResult, type DistributeWork, type PinChange } from './distribute-work.js';
import { repoFolder } from './distribution-dir.js';
import { notesText } from './notes-text.js';
import { pinIn } from './distribution-pin.js';

export type { DistributeResult } from './distribute-work.js';

export interface DistributeRequest {
  releaseVersion?: string;
  dryRun: boolean;
  /** Go on with a version the public repository does not have. */
  force?: boolean;
}

const githubWords = {
  rights: 'push to and open pull requests on the distribution repository',
  retry: 'run relctl distribute again (it is idempotent)',
};

/**
 * `relctl distribute` (seed part 4.8 step 2): the distribution's pinned version of this component
 * on branch `relctl/<artifactId>-X.Y.Z`, one commit `chore: <artifactId> X.Y.Z`, a pull request
 * with the notes as body. Idempotent: an open pull request for the branch is reported, not
 * duplicated. A local clone is changed in a throwaway worktree and pushed to its origin; an
 * `owner/name` is changed through the repository host's API alone (refs, contents, pulls).
 * The branch is journaled per version, so `relctl smoke` deploys what the pull request changes.
 */
export async function runDistribute(ctx: CommandContext, request: DistributeRequest): Promise<DistributeResult> {
  const spec = ctx.config.distribution?.repo;
  if (spec === undefined) {
    throw new UsageError('relctl.config.json sets no distribution.repo.', {
      kind: 'invalid-config',
      fix: 'Add "distribution": {"repo": "apereo/uPortal-start"} (or a local clone path such as "../uPortal-start") to relctl.config.json.',
    });
  }
  const target = await resolveReleaseTarget(ctx.cwd, ctx.env, request.releaseVersion);
  await requirePublished(ctx, target, { force: request.force === true, dryRun: request.dryRun, what: 'a distribution pull request' });
  const { identity, version } = target;
  const local = await repoFolder(ctx);
  const repoId = await repositoryOf(ctx, spec, local);
  const notes = await notesText(ctx, { version });
  const previous = notes.previous;
  const pin = (text: string): PinChange => {
    const { property: key, version: value } = pinIn(text, ctx, identity.artifactId, previous);
    const next = setProperty(text, key, version);
    const mismatch = previous !== undefined && value !== previous && value !== version ? `${key} is ${value}, not the previous release ${previous}; it is set to ${version} all the same.` : undefined;
    return { property: key, next, diff: inPlaceDiff(text, next, propertiesFile), ...(mismatch === undefined ? {} : { mismatch }) };
  };
  const pinBase = (text: string): PinChange => {
    const change = pin(text);
    if (change.mismatch !== undefined) ctx.out.warn(change.mismatch);
    return change;
  };
  const repository = `${repoId.owner}/${repoId.name}`;
  const work = {
    version,
    repository,
    repoId,
    branch: `relctl/${identity.artifactId}-${version}`,
    message: `chore: ${identity.artifactId} ${version}`,
    body: notes.text === '' ? `${identity.artifactId} ${version}.` : `${identity.artifactId} ${version}\n\n${notes.text}\n`,
    dryRun: request.dryRun,
    pin,
    pinBase,
  };

  // A dry run works without a token: it reads what it can and shows the diff.
  const { openGithub } = await import('../../github/session.js');
  const session = await openGithub(ctx);
  try {
    const gh = session.gh;
    const call = async <T>(what: string, fn: () => Promise<T>): Promise<T> => fn().catch((error: unknown) => Promise.reject(githubFailure(error, what, githubWords)));
    const all: DistributeWork = { ...work, call, gh };
    let result: DistributeResult;
    const open = session.hasToken || !request.dryRun ? await call(`looking for an open pull request from ${work.branch} in ${repository}`, () => api.findOpenPull(gh, repoId, work.branch)) : undefined;
    if (open !== undefined) result = { version, repository, branch: work.branch, property: '', diff: '', pullRequest: { ...open, existing: true }, state: 'already-open' };
    else if (local !== undefined) result = await viaClone(ctx, local, all);
    else result = await viaApi(ctx, all);
    if (!request.dryRun) await journalDistribution(ctx, result);
    return result;
  } finally {
    await session.close();
  }
}

/** owner/name of the distribution: the local clone's origin, else distribution.repo itself. */
async function repositoryOf(ctx: CommandContext, spec: string, local: string | undefined): Promise<RepoName> {
  if (local === undefined) {
    const repoId = parseRepoName(spec);
    if (repoId === undefined) throw new UsageError(`distribution.repo ${spec} is neither a folder nor owner/name.`, { fix: 'Set it to a local clone path or owner/name.' });
    return repoId;
  }
  const originUrl = (await runGit(local, ['remote', 'get-url', 'origin'], { env: ctx.env })).stdout.trim();
  const repoId = originUrl === '' ? undefined : repoFromRemoteUrl(originUrl);
  if (repoId === undefined) throw new UsageError(`${local} has no origin remote naming owner/name on the repository host.`, { fix: 'Add the origin remote (git remote add origin ...), or set distribution.repo to owner/name.' });
  return repoId;
}

/** The repository host's API alone: a branch from the default branch, one commit, the pull request. */
async function viaApi(ctx: CommandContext, w: DistributeWork): Promise<DistributeResult> {
  const { gh, repoId, repository, branch, message, call } = w;
  const baseBranch = await call(`reading ${repository}`, () => api.defaultBranch(gh, repoId));
  const file = await call(`reading ${propertiesFile} of ${repository}`, () => api.readRepoFile(gh, repoId, propertiesFile, baseBranch));
  if (file === undefined) throw new UsageError(`${repository} has no ${propertiesFile} on ${baseBranch}.`, { fix: 'Point distribution.repo at the distribution that pins this component in gradle.properties.' });
  const change = w.pinBase(file.text);
  const base = { version: w.version, repository, branch, base: baseBranch, property: change.property, diff: change.diff };
  if (change.diff === '') return { ...base, state: 'already-pinned' };
  if (w.dryRun) {
    ctx.out.wouldDo(`create branch ${branch} from ${baseBranch}, commit "${message}", open a pull request on ${repository}`);
    return { ...base, state: 'dry-run' };
  }
  const baseSha = await call(`reading ${baseBranch} of ${repository}`, () => api.branchSha(gh, repoId, baseBranch));
  // A rerun after a half-finished one finds the branch, and maybe the commit, already there.
  if ((await call(`reading ${branch}`, () => api.branchSha(gh, repoId, branch))) === undefined) {
    await call(`creating ${branch}`, () => api.createBranch(gh, repoId, branch, baseSha!));
  }
  const onBranch = await call(`reading ${propertiesFile} on ${branch}`, () => api.readRepoFile(gh, repoId, propertiesFile, branch));
  const branchChange = onBranch === undefined ? undefined : w.pin(onBranch.text);
  if (onBranch !== undefined && branchChange !== undefined && branchChange.diff !== '') {
    await call(`committing on ${branch}`, () => api.writeRepoFile(gh, repoId, { path: propertiesFile, text: branchChange.next, sha: onBranch.sha, branch, message }));
  }
  const pr = await call(`opening the pull request on ${repository}`, () => api.createPull(gh, repoId, { title: message, body: w.body, head: branch, base: baseBranch }));
  return { ...base, pullRequest: { ...pr, existing: false }, state: 'opened' };
}

/** One record per version (the latest run's): relctl smoke deploys this branch. */
async function journalDistribution(ctx: CommandContext, result: DistributeResult): Promise<void> {
  const record: DistributionRecord = {
    version: result.version,
    repository: result.repository,
    // Already pinned: the default branch is what the distribution deploys.
    branch: result.state === 'already-pinned' && result.base !== undefined ? result.base : result.branch,
    ...(result.pullRequest === undefined ? {} : { pullRequest: { number: result.pullRequest.number, url: result.pullRequest.url } }),
    at: new Date().toISOString(),
  };
  await updateJournal(ctx.cwd, (j) => {
    j.distributions = [...(j.distributions ?? []).filter((d) => d.version !== record.version), record];
  });
}
