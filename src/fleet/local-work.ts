/**
 * Local work in a workspace clone (DESIGN §13 Safety, issue 41 item 3): what `checkout` and
 * `clean` would lose there. `--workdir` may point at a folder of one's own clones
 * (`~/src/OWNER/NAME`); a clone holding any of these is `workspace-dirty` and never touched.
 *
 * Ignored files are not local work: git itself treats them as expendable (a checkout overwrites
 * them), and in a clone relctl made they are build output. They are removed only in a clone
 * relctl made (`madeByRelctl`); in anyone else's clone they stay where they are (an IDE's
 * settings, a local secrets file), since the audit reads tracked files only.
 */
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { runGit, statusEntryPath, type GitOptions } from '../io/git.js';
import { fixBranch } from './fix/branch.js';

/**
 * The file (in the clone's `.git`) that marks a clone relctl made itself: a stat, not one more git
 * process per repository and run. A clone cannot bring it (git never clones `.git`'s own files).
 */
const madeByRelctlMarker = 'relctl-workspace-clone';

export function madeByRelctl(dir: string): boolean {
  return existsSync(path.join(dir, '.git', madeByRelctlMarker));
}

export async function markMadeByRelctl(dir: string): Promise<void> {
  await writeFile(path.join(dir, '.git', madeByRelctlMarker), 'This clone was made by relctl fleet: its ignored files are build output, its tags mirror the remote.\n');
}

export interface LocalWork {
  modified: string[];
  untracked: string[];
  /** Commits on local branches (relctl's own branch aside) or a detached HEAD that no remote-tracking ref holds. */
  commits: string[];
  stash: boolean;
}

export function hasLocalWork(w: LocalWork): boolean {
  return w.modified.length > 0 || w.untracked.length > 0 || w.commits.length > 0 || w.stash;
}

/** What is there; undefined when git could not say (then nothing may be assumed either way). */
export async function localWork(dir: string, opts: GitOptions): Promise<LocalWork | undefined> {
  // One status for the files and the stash (`# stash N`, porcelain v2 with --show-stash).
  const status = await runGit(dir, ['status', '--porcelain=v2', '-z', '--show-stash', '--untracked-files=all', '--ignore-submodules=none'], opts);
  if (!status.ok) return undefined;
  const { modified, untracked, stash } = statusEntries(status.stdout);
  // relctl's own branch holds relctl's own fix commits (fleet fix); every other local commit is someone's work.
  const commits = await runGit(dir, ['rev-list', '--max-count=20', `--exclude=${fixBranch}`, '--branches', 'HEAD', '--not', '--remotes'], opts);
  if (!commits.ok && (await runGit(dir, ['rev-parse', '--verify', '--quiet', 'HEAD'], opts)).ok) return undefined;
  return { modified, untracked, commits: commits.ok ? commits.stdout.split('\n').filter((c) => c !== '') : [], stash };
}

/** `git status --porcelain=v2 -z --show-stash`: changed paths, untracked paths, whether a stash exists. */
export function statusEntries(stdout: string): { modified: string[]; untracked: string[]; stash: boolean } {
  const modified: string[] = [];
  const untracked: string[] = [];
  let stash = false;
  const entries = stdout.split('\u0000');
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!;
    if (e.startsWith('# stash ')) stash = Number(e.slice('# stash '.length)) > 0;
    const entry = statusEntryPath(e);
    if (entry !== undefined) (entry.untracked ? untracked : modified).push(entry.path);
    // A rename or copy names its source next: that is the same change.
    if (e.startsWith('2 ')) i++;
  }
  return { modified, untracked, stash };
}

/** One line naming what is there (at most a few names of each kind). */
export function describeLocalWork(w: LocalWork): string {
  const some = (list: string[]): string => list.slice(0, 5).join(', ') + (list.length > 5 ? ` and ${list.length - 5} more` : '');
  const parts: string[] = [];
  if (w.modified.length > 0) parts.push(`modified: ${some(w.modified)}`);
  if (w.untracked.length > 0) parts.push(`untracked: ${some(w.untracked)}`);
  if (w.commits.length > 0) parts.push(`local commits not on the remote: ${some(w.commits.map((c) => c.slice(0, 12)))}`);
  if (w.stash) parts.push('a stash');
  return parts.join('; ');
}
