import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { EnvironmentError, RelctlError, UsageError } from '../../core/errors.js';
import { inPlaceDiff } from '../../core/post-release/line-diff.js';
import { findPinnedProperty, setProperty } from '../../core/post-release/pin-property.js';
import { parseRepoName, repoFromRemoteUrl, type RepoName } from '../../core/notes/tracker.js';
import type { CommandContext } from '../../io/command-context.js';
import { runGit } from '../../io/git.js';
import { resolveReleaseTarget } from '../../io/release-version.js';
import { githubMessage, relctlCause, statusOf } from '../../github/client.js';
import type { GithubSession } from '../../github/session.js';
import * as api from '../../github/repo-api.js';
import { repoFolder } from './distribution-dir.js';
import { notesText } from './notes-text.js';

export interface DistributeRequest {
  releaseVersion?: string;
  dryRun: boolean;
}

export interface DistributeResult {
  version: string;
  repository: string;
  branch: string;
  property: string;
  /** The change to gradle.properties ('' when the distribution already pins the version). */
  diff: string;
  pullRequest?: { number: number; url: string; existing: boolean };
  state: 'opened' | 'already-open' | 'already-pinned' | 'dry-run';
}

const propertiesFile = 'gradle.properties';

function githubError(error: unknown, what: string): RelctlError {
  if (error instanceof RelctlError) return error;
  const cause = relctlCause(error);
  if (cause !== undefined) return cause;
  const status = statusOf(error);
  const auth = status === 401 || status === 403;
  return new EnvironmentError(`${what}: GitHub answered ${status ?? 'nothing'} (github said: ${githubMessage(error)}).`, {
    kind: auth ? 'github-auth-rejected' : 'github-failed',
    fix: auth
      ? 'Set RELCTL_GITHUB_TOKEN (or GITHUB_TOKEN, or log in with gh) to a token that may push to and open pull requests on the distribution repository.'
      : 'Check distribution.repo and the GitHub API URL (--github-api-url), then run relctl distribute again (it is idempotent).',
  });
}

async function gitOrFail(cwd: string, args: string[], env: NodeJS.ProcessEnv, fix: string): Promise<string> {
  const r = await runGit(cwd, ['-c', 'commit.gpgSign=false', ...args], { env });
  if (!r.ok) throw new EnvironmentError(`git ${args[0]} failed in ${cwd}: ${(r.stderr || r.spawnError || '').trim()}`, { kind: 'git-failed', fix });
  return r.stdout.trim();
}

/**
 * `relctl distribute` (seed part 4.8 step 2): the distribution's pinned version of this component
 * on branch `relctl/<artifactId>-X.Y.Z`, one commit `chore: <artifactId> X.Y.Z`, a pull request
 * with the notes as body. Idempotent: an open pull request for the branch is reported, not
 * duplicated. A local clone is changed in a throwaway worktree and pushed to its origin; an
 * `owner/name` is changed through the repository host's API alone (refs, contents, pulls).
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
  const { identity, version } = target;
  const branch = `relctl/${identity.artifactId}-${version}`;
  const message = `chore: ${identity.artifactId} ${version}`;
  const notes = await notesText(ctx, { version });
  const previous = notes.previous;
  const body = notes.text === '' ? `${identity.artifactId} ${version}.` : `${identity.artifactId} ${version}\n\n${notes.text}\n`;
  const local = await repoFolder(ctx);

  const pin = (text: string): { property: string; next: string; diff: string } => {
    const found = findPinnedProperty(text, {
      artifactId: identity.artifactId,
      ...(ctx.config.distribution?.property === undefined ? {} : { property: ctx.config.distribution.property }),
      ...(previous === undefined ? {} : { previous }),
    });
    if (!found.ok) throw new UsageError(`The distribution does not pin ${identity.artifactId}: ${found.reason}.`, { fix: 'Set distribution.property in relctl.config.json to the gradle.properties key that pins it.' });
    if (previous !== undefined && found.property.value !== previous && found.property.value !== version) {
      ctx.out.warn(`${found.property.key} is ${found.property.value}, not the previous release ${previous}; it is set to ${version} all the same.`);
    }
    const next = setProperty(text, found.property.key, version);
    return { property: found.property.key, next, diff: inPlaceDiff(text, next, propertiesFile) };
  };

  let repoId: RepoName | undefined;
  let originUrl: string | undefined;
  if (local !== undefined) {
    originUrl = (await runGit(local, ['remote', 'get-url', 'origin'], { env: ctx.env })).stdout.trim() || undefined;
    repoId = originUrl === undefined ? undefined : repoFromRemoteUrl(originUrl);
    if (repoId === undefined) throw new UsageError(`${local} has no origin remote naming owner/name on the repository host.`, { fix: 'Add the origin remote (git remote add origin ...), or set distribution.repo to owner/name.' });
  } else {
    repoId = parseRepoName(spec);
    if (repoId === undefined) throw new UsageError(`distribution.repo ${spec} is neither a folder nor owner/name.`, { fix: 'Set it to a local clone path or owner/name.' });
  }
  const repository = `${repoId.owner}/${repoId.name}`;
  const base = { version, repository, branch };

  // A dry run works without a token: it reads what it can and shows the diff.
  const { openGithub } = await import('../../github/session.js');
  const session = await openGithub(ctx);
  try {
    const gh = session.gh;
    const call = async <T>(what: string, fn: () => Promise<T>): Promise<T> => fn().catch((error: unknown) => Promise.reject(githubError(error, what)));
    if (session.hasToken || !request.dryRun) {
      const open = await call(`looking for an open pull request from ${branch} in ${repository}`, () => api.findOpenPull(gh, repoId!, branch));
      if (open !== undefined) return { ...base, property: '', diff: '', pullRequest: { ...open, existing: true }, state: 'already-open' };
    }
    if (local !== undefined) return await viaClone(ctx, local, { ...base, message, body, pin, dryRun: request.dryRun, repoId, call, gh });
    const baseBranch = await call(`reading ${repository}`, () => api.defaultBranch(gh, repoId!));
    const file = await call(`reading ${propertiesFile} of ${repository}`, () => api.readRepoFile(gh, repoId!, propertiesFile, baseBranch));
    if (file === undefined) throw new UsageError(`${repository} has no ${propertiesFile} on ${baseBranch}.`, { fix: 'Point distribution.repo at the distribution that pins this component in gradle.properties.' });
    const change = pin(file.text);
    if (change.diff === '') return { ...base, property: change.property, diff: '', state: 'already-pinned' };
    if (request.dryRun) {
      ctx.out.wouldDo(`create branch ${branch} from ${baseBranch}, commit "${message}", open a pull request on ${repository}`);
      return { ...base, property: change.property, diff: change.diff, state: 'dry-run' };
    }
    const baseSha = await call(`reading ${baseBranch} of ${repository}`, () => api.branchSha(gh, repoId!, baseBranch));
    // A rerun after a half-finished one finds the branch, and maybe the commit, already there.
    if ((await call(`reading ${branch}`, () => api.branchSha(gh, repoId!, branch))) === undefined) {
      await call(`creating ${branch}`, () => api.createBranch(gh, repoId!, branch, baseSha!));
    }
    const onBranch = await call(`reading ${propertiesFile} on ${branch}`, () => api.readRepoFile(gh, repoId!, propertiesFile, branch));
    if (onBranch !== undefined && pin(onBranch.text).diff !== '') {
      await call(`committing on ${branch}`, () => api.writeRepoFile(gh, repoId!, { path: propertiesFile, text: pin(onBranch.text).next, sha: onBranch.sha, branch, message }));
    }
    const pr = await call(`opening the pull request on ${repository}`, () => api.createPull(gh, repoId!, { title: message, body, head: branch, base: baseBranch }));
    return { ...base, property: change.property, diff: change.diff, pullRequest: { ...pr, existing: false }, state: 'opened' };
  } finally {
    await session.close();
  }
}

interface CloneInput {
  version: string;
  repository: string;
  branch: string;
  message: string;
  body: string;
  dryRun: boolean;
  repoId: RepoName;
  pin: (text: string) => { property: string; next: string; diff: string };
  call: <T>(what: string, fn: () => Promise<T>) => Promise<T>;
  gh: GithubSession['gh'];
}

/** The local clone: fetch, a throwaway worktree on the branch from origin's default branch, commit, push. */
async function viaClone(ctx: CommandContext, clone: string, input: CloneInput): Promise<DistributeResult> {
  const { version, repository, branch, message } = input;
  const env = ctx.env;
  const fetchFix = 'Check that the clone can reach its origin (git fetch origin), then run relctl distribute again.';
  if (!input.dryRun) await gitOrFail(clone, ['fetch', '--quiet', 'origin'], env, fetchFix);
  const head = await runGit(clone, ['symbolic-ref', '--quiet', '--short', 'refs/remotes/origin/HEAD'], { env });
  const baseRef = head.ok && head.stdout.trim() !== '' ? head.stdout.trim() : 'origin/main';
  const baseBranch = baseRef.replace(/^origin\//, '');
  const text = await gitOrFail(clone, ['show', `${baseRef}:${propertiesFile}`], env, `Make sure ${baseRef} has a ${propertiesFile} (git fetch origin).`);
  const change = input.pin(text.endsWith('\n') ? text : `${text}\n`);
  const base = { version, repository, branch, property: change.property, diff: change.diff };
  if (change.diff === '') return { ...base, state: 'already-pinned' };
  if (input.dryRun) {
    ctx.out.wouldDo(`in a worktree of ${clone}: branch ${branch} from ${baseRef}, commit "${message}", git push origin ${branch}, open a pull request on ${repository}`);
    return { ...base, state: 'dry-run' };
  }
  const temp = await mkdtemp(path.join(os.tmpdir(), 'relctl-distribute-'));
  const dir = path.join(temp, 'worktree');
  try {
    await gitOrFail(clone, ['worktree', 'add', '--quiet', '-B', branch, dir, baseRef], env, `Check the clone ${clone} (git worktree list).`);
    const file = path.join(dir, propertiesFile);
    await writeFile(file, input.pin(await readFile(file, 'utf8')).next);
    await gitOrFail(dir, ['commit', '--quiet', '-m', message, '--', propertiesFile], env, 'Check the git identity (user.name, user.email) of the clone.');
    // relctl/ branches are relctl's own: a rerun rebuilds the same commit and replaces the branch.
    await gitOrFail(dir, ['push', '--quiet', '--force', 'origin', `${branch}:refs/heads/${branch}`], env, 'Check that you may push to the distribution repository (or fork it and point origin at the fork).');
  } finally {
    await runGit(clone, ['worktree', 'remove', '--force', dir], { env });
    await rm(temp, { recursive: true, force: true });
  }
  const pr = await input.call(`opening the pull request on ${repository}`, () => api.createPull(input.gh, input.repoId, { title: message, body: input.body, head: branch, base: baseBranch }));
  return { ...base, pullRequest: { ...pr, existing: false }, state: 'opened' };
}
