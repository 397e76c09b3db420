import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Writable } from 'node:stream';
import { InterruptedError, StepFailedError, UsageError } from '../../core/errors.js';
import { setProperty } from '../../core/post-release/pin-property.js';
import { isSnapshotVersion } from '../../core/version.js';
import type { CommandContext } from '../../io/command-context.js';
import { runLogged } from '../../io/logged-process.js';
import { readIdentity, type ProjectIdentity } from '../../io/project.js';
import { buildToolCommand } from '../../build-tools/wrapper.js';
import { openMavenSession } from '../../build-tools/maven-release.js';
import { pinIn } from './distribution-pin.js';
import { throwawayWorktree, type ThrowawayWorktree } from './throwaway-worktree.js';

export interface SnapshotWorktree extends ThrowawayWorktree {
  version: string;
  property: string;
}

/**
 * The command that puts the component's snapshot into the local Maven repository, with the
 * project's wrapper only when it can run (the one wrapper rule: build-tools/wrapper.ts).
 */
async function installCommand(ctx: CommandContext, buildTool: 'maven' | 'gradle'): Promise<string[]> {
  const tool = await buildToolCommand(ctx.cwd, buildTool);
  if (tool.why !== undefined) ctx.out.info(`smoke --snapshot: ${tool.why}`);
  if (buildTool === 'gradle') return [tool.executable, 'publishToMavenLocal'];
  return [
    tool.executable,
    '-B',
    'install',
    '-DskipTests',
    ...(ctx.config.settings === undefined ? [] : ['-s', ctx.config.settings]),
    ...(ctx.config.localRepo === undefined ? [] : [`-Dmaven.repo.local=${ctx.config.localRepo}`]),
  ];
}

async function installSnapshot(ctx: CommandContext, identity: ProjectIdentity, log: Writable): Promise<void> {
  const [command, ...args] = await installCommand(ctx, identity.buildTool);
  ctx.out.info(`smoke --snapshot: ${[command, ...args].join(' ')}`);
  // Maven runs in relctl's private Maven home (the release's one mechanism): the same settings and
  // local repository reach any Maven the build forks.
  const session =
    identity.buildTool === 'maven'
      ? await openMavenSession(
          {
            root: ctx.cwd,
            env: ctx.env,
            ...(ctx.config.settings === undefined ? {} : { userSettings: ctx.config.settings }),
            ...(ctx.config.localRepo === undefined ? {} : { localRepo: ctx.config.localRepo }),
          },
          false,
        )
      : undefined;
  const installed = await runLogged({ command: command!, args, cwd: ctx.cwd, env: { ...ctx.env, ...session?.env }, log, signal: ctx.signal, redact: (t) => ctx.out.redactor.redact(t) }).finally(
    () => session?.dispose(),
  );
  if (installed.interrupted) throw new InterruptedError();
  if (installed.exitCode !== 0) {
    throw new StepFailedError(`Installing ${identity.artifactId} ${identity.version} locally failed (${installed.spawnError ?? `exit ${installed.exitCode ?? '?'}`}).`, {
      kind: 'smoke-failed',
      fix: `Run ${[command, ...args].join(' ')} yourself to see why, fix it, then run relctl smoke --snapshot again.`,
    });
  }
}

/** The project's identity, refused unless its version is a snapshot (what --snapshot tests). */
async function snapshotIdentity(ctx: CommandContext): Promise<ProjectIdentity> {
  const identity = await readIdentity(ctx.cwd);
  if (!isSnapshotVersion(identity.version)) {
    throw new UsageError(`smoke --snapshot tests the local snapshot, but the project's version is ${identity.version}.`, {
      fix: 'Run it before the release, while the version is X.Y.Z-SNAPSHOT (or run relctl smoke without --snapshot).',
    });
  }
  return identity;
}

/** `--snapshot --dry-run`: the install and the worktree, as `!` lines. */
export async function showSnapshotPlan(ctx: CommandContext, dist: string, options: { install: boolean }): Promise<void> {
  const identity = await snapshotIdentity(ctx);
  if (options.install) ctx.out.wouldDo(`${(await installCommand(ctx, identity.buildTool)).join(' ')} (in ${ctx.cwd})`);
  const pin = pinIn(await readFile(path.join(dist, 'gradle.properties'), 'utf8').catch(() => ''), ctx, identity.artifactId);
  ctx.out.wouldDo(`a throwaway worktree of ${dist} at HEAD in a temporary folder, with ${pin.property}=${identity.version} (your clone stays untouched)`);
}

/**
 * Part 4.7 step 5: install the component's snapshot locally, then a throwaway worktree of the
 * distribution whose pinning property names that snapshot. The user's clone is never written:
 * the worktree lives in a temporary folder and is removed afterwards.
 */
export async function snapshotWorktree(ctx: CommandContext, dist: string, log: Writable, options: { install: boolean }): Promise<SnapshotWorktree> {
  const identity = await snapshotIdentity(ctx);
  if (options.install) await installSnapshot(ctx, identity, log);
  const worktree = await throwawayWorktree(ctx, dist, 'HEAD');
  try {
    const file = path.join(worktree.dir, 'gradle.properties');
    const text = await readFile(file, 'utf8').catch(() => '');
    const pin = pinIn(text, ctx, identity.artifactId);
    await writeFile(file, setProperty(text, pin.property, identity.version));
    return { ...worktree, version: identity.version, property: pin.property };
  } catch (error) {
    await worktree.remove();
    throw error;
  }
}
