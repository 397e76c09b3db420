import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { CommandContext } from '../../io/command-context.js';

/**
 * The local clone of the distribution when `distribution.repo` names a folder (relative to the
 * project), else `distribution.smoke.dir`, else undefined (an `owner/name` on the repository
 * host without a local checkout, or nothing configured).
 */
export async function localDistributionDir(ctx: CommandContext): Promise<string | undefined> {
  return (await repoFolder(ctx)) ?? (ctx.config.distribution?.smoke?.dir === undefined ? undefined : path.resolve(ctx.cwd, ctx.config.distribution.smoke.dir));
}

/** `distribution.repo` when it names a folder: the clone distribute works in. */
export async function repoFolder(ctx: CommandContext): Promise<string | undefined> {
  const repo = ctx.config.distribution?.repo;
  if (repo === undefined) return undefined;
  const dir = path.resolve(ctx.cwd, repo);
  const looksRemote = /^[\w.-]+\/[\w.-]+$/.test(repo) && !repo.startsWith('.');
  const info = await stat(dir).catch(() => undefined);
  if (info?.isDirectory() === true) return dir;
  return looksRemote ? undefined : dir;
}
