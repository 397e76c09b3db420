import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { UsageError } from '../../core/errors.js';
import type { CommandContext } from '../../io/command-context.js';
import { runGit } from '../../io/git.js';
import { onInterrupt } from '../../io/interrupt.js';
import { setProperty } from '../../core/post-release/pin-property.js';
import { pinIn } from './distribution-pin.js';

export interface ThrowawayWorktree {
  dir: string;
  /** Removes the worktree and its temp folder; safe to call more than once. */
  remove(): Promise<void>;
  /**
   * Keeps the worktree past this process (the smoke test's server runs from it until
   * `relctl smoke --stop`): no interrupt clean-up, and remove() does nothing. Returns what
   * {@link removeWorktree} needs later.
   */
  keep(): KeptWorktree;
}

export interface KeptWorktree {
  /** The user's clone the worktree belongs to. */
  clone: string;
  /** The worktree itself, inside `temp`. */
  dir: string;
  /** The temp folder relctl made for it. */
  temp: string;
}

/** Removes a worktree relctl made (now or in an earlier run) and its temp folder; the clone forgets it. */
export async function removeWorktree(ctx: CommandContext, kept: KeptWorktree): Promise<void> {
  await runGit(kept.clone, ['worktree', 'remove', '--force', kept.dir], { env: ctx.env });
  await rm(kept.temp, { recursive: true, force: true });
  await runGit(kept.clone, ['worktree', 'prune'], { env: ctx.env });
}

/**
 * A detached worktree of the user's clone at `ref`, in a temp folder: relctl deploys from it and
 * edits it, and the user's checkout (its branch, its files) is never written. Removed by its
 * owner on every exit path (unless kept); registered for the interrupt clean-up in case the owner cannot.
 */
export async function throwawayWorktree(ctx: CommandContext, clone: string, ref: string): Promise<ThrowawayWorktree> {
  const temp = await mkdtemp(path.join(os.tmpdir(), 'relctl-smoke-'));
  const dir = path.join(temp, 'distribution');
  let removed = false;
  const remove = async (): Promise<void> => {
    if (removed) return;
    removed = true;
    forget();
    await removeWorktree(ctx, { clone, dir, temp });
  };
  const forget = onInterrupt(remove);
  const keep = (): KeptWorktree => {
    removed = true;
    forget();
    return { clone, dir, temp };
  };
  const added = await runGit(clone, ['worktree', 'add', '--detach', dir, ref], { env: ctx.env });
  if (!added.ok) {
    await remove();
    throw new UsageError(`${clone} is not a git clone relctl can add a worktree at ${ref} to: ${(added.stderr || added.spawnError || 'git failed').trim()}.`, {
      fix: 'Point distribution.repo (or distribution.smoke.dir) at a git clone of the distribution.',
    });
  }
  return { dir, remove, keep };
}

/** A throwaway worktree of the clone's HEAD with the component's pin set to `version` (the pull request's change). */
export async function pinnedWorktree(ctx: CommandContext, clone: string, pin: { artifactId: string; version: string }): Promise<ThrowawayWorktree> {
  const worktree = await throwawayWorktree(ctx, clone, 'HEAD');
  try {
    const file = path.join(worktree.dir, 'gradle.properties');
    const text = await readFile(file, 'utf8').catch(() => '');
    const { property } = pinIn(text, ctx, pin.artifactId);
    await writeFile(file, setProperty(text, property, pin.version));
    return worktree;
  } catch (error) {
    await worktree.remove();
    throw error;
  }
}
