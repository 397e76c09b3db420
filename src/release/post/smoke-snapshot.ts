import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Writable } from 'node:stream';
import { InterruptedError, StepFailedError, UsageError } from '../../core/errors.js';
import { findPinnedProperty, setProperty } from '../../core/post-release/pin-property.js';
import { isSnapshotVersion } from '../../core/version.js';
import type { CommandContext } from '../../io/command-context.js';
import { runGit } from '../../io/git.js';
import { runLogged } from '../../io/logged-process.js';
import { exists, readIdentity, type ProjectIdentity } from '../../io/project.js';

export interface SnapshotWorktree {
  dir: string;
  version: string;
  property: string;
  remove(): Promise<void>;
}

/** The command that puts the component's snapshot into the local Maven repository. */
async function installCommand(ctx: CommandContext, buildTool: 'maven' | 'gradle'): Promise<string[]> {
  if (buildTool === 'gradle') {
    const wrapper = await exists(path.join(ctx.cwd, 'gradlew'));
    return [wrapper ? './gradlew' : 'gradle', 'publishToMavenLocal'];
  }
  const wrapper = await exists(path.join(ctx.cwd, 'mvnw'));
  return [
    wrapper ? './mvnw' : 'mvn',
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
  const installed = await runLogged({ command: command!, args, cwd: ctx.cwd, env: ctx.env, log, signal: ctx.signal, redact: (t) => ctx.out.redactor.redact(t) });
  if (installed.interrupted) throw new InterruptedError();
  if (installed.exitCode !== 0) {
    throw new StepFailedError(`Installing ${identity.artifactId} ${identity.version} locally failed (${installed.spawnError ?? `exit ${installed.exitCode ?? '?'}`}).`, {
      kind: 'smoke-failed',
      fix: `Run ${[command, ...args].join(' ')} yourself to see why, fix it, then run relctl smoke --snapshot again.`,
    });
  }
}

/**
 * Part 4.7 step 5: install the component's snapshot locally, then a throwaway worktree of the
 * distribution whose pinning property names that snapshot. The user's clone is never written:
 * the worktree lives in a temporary folder and is removed afterwards.
 */
export async function snapshotWorktree(ctx: CommandContext, dist: string, log: Writable, options: { install: boolean }): Promise<SnapshotWorktree> {
  const identity = await readIdentity(ctx.cwd);
  if (!isSnapshotVersion(identity.version)) {
    throw new UsageError(`smoke --snapshot tests the local snapshot, but the project's version is ${identity.version}.`, {
      fix: 'Run it before the release, while the version is X.Y.Z-SNAPSHOT (or run relctl smoke without --snapshot).',
    });
  }
  if (options.install) await installSnapshot(ctx, identity, log);


  const temp = await mkdtemp(path.join(os.tmpdir(), 'relctl-smoke-'));
  const dir = path.join(temp, 'distribution');
  const added = await runGit(dist, ['worktree', 'add', '--detach', dir, 'HEAD'], { env: ctx.env });
  const remove = async (): Promise<void> => {
    await runGit(dist, ['worktree', 'remove', '--force', dir], { env: ctx.env });
    await rm(temp, { recursive: true, force: true });
    await runGit(dist, ['worktree', 'prune'], { env: ctx.env });
  };
  if (!added.ok) {
    await rm(temp, { recursive: true, force: true });
    throw new UsageError(`${dist} is not a git clone relctl can add a worktree to: ${added.stderr || added.spawnError || 'git failed'}.`, {
      fix: 'Point distribution.repo at a git clone of the distribution.',
    });
  }
  try {
    const file = path.join(dir, 'gradle.properties');
    const text = await readFile(file, 'utf8').catch(() => '');
    const found = findPinnedProperty(text, { artifactId: identity.artifactId, ...(ctx.config.distribution?.property === undefined ? {} : { property: ctx.config.distribution.property }) });
    if (!found.ok) {
      throw new UsageError(`The distribution does not pin ${identity.artifactId}: ${found.reason}.`, { fix: 'Set distribution.property in relctl.config.json to the gradle.properties key that pins it.' });
    }
    await writeFile(file, setProperty(text, found.property.key, identity.version));
    return { dir, version: identity.version, property: found.property.key, remove };
  } catch (error) {
    await remove();
    throw error;
  }
}
