import type { CommandContext } from '../../io/command-context.js';
import type { ProcessRunner } from '../../io/process-runner.js';
import { withBuildProgress } from '../../ui/build-progress.js';
import { seedParents } from './parents.js';
import { RehearsalBuildFailed, rehearsalBuild, type RehearsalBuild, type RehearsalBuildInput } from './release-build.js';
import type { RehearsalBuildReport, RehearsalResult } from './result.js';

/** The Maven release build in the copy, its report in `result`, then the parents seeded for the sandbox portal. */
export async function buildMaven(ctx: CommandContext, proc: ProcessRunner, result: RehearsalResult, input: RehearsalBuildInput, seedRepo: string): Promise<RehearsalBuild> {
  const spinner = await ctx.out.spinner('Building and deploying to the sandbox as the release does (release:prepare, release:perform)');
  let build: RehearsalBuild;
  try {
    build = await withBuildProgress(ctx.out, spinner, 'Building and deploying to the sandbox', proc, () => rehearsalBuild(ctx, proc, input));
    spinner.succeed('Built and deployed to the sandbox');
  } catch (error) {
    spinner.fail(ctx.signal.aborted ? 'The build was stopped' : 'The build failed');
    if (error instanceof RehearsalBuildFailed) {
      result.build = { ...reportOf(error.build), parents: [], failure: { ...error.failure } };
      result.verdict = error.failure.deploy ? 'deploy-failed' : 'build-failed';
    }
    throw error;
  }
  result.build = { ...reportOf(build), parents: await seedParents(build.releaseDir, input.localRepo, seedRepo) };
  return build;
}

function reportOf(b: RehearsalBuild): Omit<RehearsalBuildReport, 'parents'> {
  return { commands: b.commands, redirect: b.redirect, ...(b.javaHome === undefined ? {} : { javaHome: b.javaHome }), notes: b.notes };
}
