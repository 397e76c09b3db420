import { EnvironmentError, UsageError } from '../../core/errors.js';
import type { CommandContext } from '../../io/command-context.js';
import { runGit } from '../../io/git.js';
import { readJournal, type Journal } from '../../io/journal.js';
import { readIdentity } from '../../io/project.js';
import { resolveReleaseTarget } from '../../io/release-version.js';

/**
 * What `relctl smoke` deploys (DESIGN §11): after `relctl distribute`, the pull request's branch,
 * so the bumped pin is what runs; without one for the version, the clone as it is, saying why.
 */
export type SmokeSource =
  | { kind: 'branch'; branch: string; version: string; /** The ref the worktree is made at. */ ref: string; fetch: boolean; artifactId: string }
  | { kind: 'clone'; why: string; artifactId?: string }
  /**
   * distribute recorded a pull request for the version, but its branch cannot be brought here (the
   * pull request went through the host's API to a repository this checkout does not fetch from,
   * origin is unreachable, or the branch was merged and deleted): a throwaway worktree of the
   * clone's HEAD gets the pull request's one change, the pin set to the version.
   */
  | { kind: 'pinned'; branch: string; version: string; why: string; artifactId: string };

/**
 * The release version smoke looks for: `--release-version`, else the journal's release, else the
 * version of the last `distribute` (run with its own --release-version), else the newest tag.
 */
async function versionToFind(ctx: CommandContext, journal: Journal, flag: string | undefined): Promise<string | undefined> {
  const lastDistributed = journal.distributions?.at(-1)?.version;
  if (flag === undefined && journal.release === undefined && lastDistributed !== undefined) return lastDistributed;
  try {
    return (await resolveReleaseTarget(ctx.cwd, ctx.env, flag)).version;
  } catch (error) {
    if (error instanceof UsageError) return undefined;
    throw error;
  }
}

export async function smokeSource(ctx: CommandContext, dist: string, releaseVersion: string | undefined): Promise<SmokeSource> {
  const artifactId = await readIdentity(ctx.cwd).then((i) => i.artifactId, () => undefined);
  if (artifactId === undefined) return { kind: 'clone', why: "the project's artifactId is unknown, so no distribute branch can be looked for" };
  const journal = await readJournal(ctx.cwd);
  const version = await versionToFind(ctx, journal, releaseVersion);
  if (version === undefined) return { kind: 'clone', why: 'no release version is known (pass --release-version after relctl distribute)', artifactId };
  const record = journal.distributions?.find((d) => d.version === version);
  const branch = record?.branch ?? `relctl/${artifactId}-${version}`;
  const git = (args: string[]) => runGit(dist, args, { env: ctx.env });

  const remote = await git(['ls-remote', '--heads', 'origin', `refs/heads/${branch}`]);
  if (remote.ok && remote.stdout.trim() !== '') return { kind: 'branch', branch, version, ref: `refs/remotes/origin/${branch}`, fetch: true, artifactId };
  if (remote.ok) {
    if (record !== undefined) return { kind: 'pinned', branch, version, artifactId, why: `origin of ${dist} has no branch ${branch} (a pull request made through the host's API, or merged and deleted)` };
    return { kind: 'clone', why: `origin has no branch ${branch}: no relctl distribute for ${version}`, artifactId };
  }
  // origin cannot be asked (no origin, offline): a local branch of that name is the next best thing.
  if ((await git(['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`])).ok) {
    ctx.out.warn(`Cannot ask origin for ${branch} (${firstLine(remote.stderr)}); deploying the local branch of that name.`);
    return { kind: 'branch', branch, version, ref: `refs/heads/${branch}`, fetch: false, artifactId };
  }
  if (record !== undefined) {
    return { kind: 'pinned', branch, version, artifactId, why: `origin of ${dist} cannot be asked for ${branch} (${firstLine(remote.stderr) || remote.spawnError || 'git failed'})` };
  }
  return { kind: 'clone', why: `origin cannot be asked for ${branch} (${firstLine(remote.stderr) || 'no origin'})`, artifactId };
}

/** Brings the branch into the clone's remote-tracking refs (the user's branches and files stay as they are). */
export async function fetchBranch(ctx: CommandContext, dist: string, source: Extract<SmokeSource, { kind: 'branch' }>): Promise<void> {
  if (!source.fetch) return;
  const r = await runGit(dist, ['fetch', '--quiet', 'origin', `+refs/heads/${source.branch}:${source.ref}`], { env: ctx.env });
  if (!r.ok) {
    throw new EnvironmentError(`git fetch origin ${source.branch} failed in ${dist}: ${firstLine(r.stderr) || r.spawnError || 'git failed'}.`, {
      kind: 'git-failed',
      fix: `Check that ${dist} reaches its origin (git -C ${dist} fetch origin), then run relctl smoke again.`,
    });
  }
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0] ?? '';
}
