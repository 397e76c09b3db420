import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { EnvironmentError } from '../../core/errors.js';
import type { CommandContext } from '../../io/command-context.js';
import { runGit } from '../../io/git.js';
import { onInterrupt } from '../../io/interrupt.js';
import * as api from '../../github/repo-api.js';
import { propertiesFile, type DistributeResult, type DistributeWork } from './distribute-work.js';

/**
 * A git command in the user's clone, or in relctl's throwaway worktree of it (`where`): a failure
 * names the user's clone, never the temporary folder that is gone by the time the message is read.
 */
async function gitOrFail(cwd: string, args: string[], ctx: CommandContext, failure: { clone: string; fix: string }): Promise<string> {
  const r = await runGit(cwd, ['-c', 'commit.gpgSign=false', ...args], { env: ctx.env });
  if (!r.ok) {
    const where = cwd === failure.clone ? failure.clone : `relctl's worktree of ${failure.clone}`;
    throw new EnvironmentError(`git ${args[0]} failed in ${where}: ${(r.stderr || r.spawnError || '').trim()}`, { kind: 'git-failed', fix: failure.fix });
  }
  return r.stdout.trim();
}

/**
 * The branch origin's HEAD names, asked of the remote itself (`git ls-remote --symref origin HEAD`):
 * a clone made with `git init` + `git remote add` has no origin/HEAD, and guessing `main` picks
 * the wrong base on a `master` or `develop` distribution. The clone's own origin/HEAD serves only
 * when the remote cannot be asked (a dry run offline).
 */
export async function originDefaultBranch(clone: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const remote = await runGit(clone, ['ls-remote', '--symref', 'origin', 'HEAD'], { env });
  const named = remote.ok ? /^ref: refs\/heads\/(\S+)\tHEAD$/m.exec(remote.stdout)?.[1] : undefined;
  if (named !== undefined) return named;
  const local = await runGit(clone, ['symbolic-ref', '--quiet', '--short', 'refs/remotes/origin/HEAD'], { env });
  const short = local.ok ? local.stdout.trim() : '';
  return short.startsWith('origin/') ? short.slice('origin/'.length) : undefined;
}

/** The local clone: fetch, a throwaway worktree on the branch from origin's default branch, commit, push. */
export async function viaClone(ctx: CommandContext, clone: string, w: DistributeWork): Promise<DistributeResult> {
  const { version, repository, branch, message } = w;
  const env = ctx.env;
  const fail = (fix: string): { clone: string; fix: string } => ({ clone, fix });
  if (!w.dryRun) await gitOrFail(clone, ['fetch', '--quiet', 'origin'], ctx, fail('Check that the clone can reach its origin (git fetch origin), then run relctl distribute again.'));
  const baseBranch = await originDefaultBranch(clone, env);
  if (baseBranch === undefined) {
    throw new EnvironmentError(`Cannot tell the default branch of ${clone}'s origin: the remote does not name its HEAD and the clone has no origin/HEAD.`, {
      kind: 'git-failed',
      fix: `Name it once in the clone: git -C ${clone} remote set-head origin <branch> (e.g. main), then run relctl distribute again.`,
    });
  }
  const baseRef = `refs/remotes/origin/${baseBranch}`;
  const text = await gitOrFail(clone, ['show', `${baseRef}:${propertiesFile}`], ctx, fail(`Make sure origin/${baseBranch} has a ${propertiesFile} (git -C ${clone} fetch origin).`));
  const change = w.pinBase(text.endsWith('\n') ? text : `${text}\n`);
  const base = { version, repository, branch, base: baseBranch, property: change.property, diff: change.diff };
  if (change.diff === '') return { ...base, state: 'already-pinned' };
  if (w.dryRun) {
    ctx.out.wouldDo(`in a worktree of ${clone}: branch ${branch} from origin/${baseBranch}, commit "${message}", git push origin ${branch}, open a pull request on ${repository}`);
    return { ...base, state: 'dry-run' };
  }
  const temp = await mkdtemp(path.join(os.tmpdir(), 'relctl-distribute-'));
  const dir = path.join(temp, 'worktree');
  const remove = async (): Promise<void> => {
    await runGit(clone, ['worktree', 'remove', '--force', dir], { env });
    await rm(temp, { recursive: true, force: true });
    await runGit(clone, ['worktree', 'prune'], { env });
  };
  const forget = onInterrupt(remove);
  try {
    await gitOrFail(clone, ['worktree', 'add', '--quiet', '-B', branch, dir, baseRef], ctx, fail(`Check the clone ${clone} (git worktree list).`));
    const file = path.join(dir, propertiesFile);
    await writeFile(file, w.pin(await readFile(file, 'utf8')).next);
    await gitOrFail(dir, ['commit', '--quiet', '-m', message, '--', propertiesFile], ctx, fail(`Check the git identity of ${clone} (git config user.name, user.email).`));
    // relctl/ branches are relctl's own: a rerun rebuilds the same commit and replaces the branch.
    await gitOrFail(dir, ['push', '--quiet', '--force', 'origin', `${branch}:refs/heads/${branch}`], ctx, fail('Check that you may push to the distribution repository (or fork it and point origin at the fork).'));
  } finally {
    forget();
    await remove();
  }
  const pr = await w.call(`opening the pull request on ${repository}`, () => api.createPull(w.gh, w.repoId, { title: message, body: w.body, head: branch, base: baseBranch }));
  return { ...base, pullRequest: { ...pr, existing: false }, state: 'opened' };
}
