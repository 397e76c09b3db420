import { stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { UsageError } from '../core/errors.js';
import type { BuildTool, ProjectFacts } from '../checks/facts.js';
import type { CommandContext } from '../commands/context.js';

export interface GatherOptions {
  offline: boolean;
}

async function isFile(p: string): Promise<boolean> {
  return (await stat(p).catch(() => undefined))?.isFile() === true;
}

/** Maven wins when both descriptors exist (a Gradle build rarely ships a pom.xml at its root). */
export async function detectBuildTool(root: string): Promise<BuildTool> {
  if ((await stat(path.join(root, 'pom.xml')).catch(() => undefined)) !== undefined) return 'maven';
  for (const name of ['settings.gradle', 'settings.gradle.kts', 'build.gradle', 'build.gradle.kts']) {
    if (await isFile(path.join(root, name))) return 'gradle';
  }
  throw new UsageError(`No Maven or Gradle build in ${root}.`, {
    kind: 'no-build',
    fix: 'Run relctl in the root folder of the project (the one with pom.xml or settings.gradle), or pass --cwd.',
  });
}

/** All I/O of preflight, done once. Each build tool's gatherer fills its own section. */
export async function gatherFacts(ctx: CommandContext, options: GatherOptions): Promise<ProjectFacts> {
  const buildTool = await detectBuildTool(ctx.cwd);
  const facts: ProjectFacts = { root: ctx.cwd, buildTool, gatherFindings: [] };
  if (buildTool === 'maven') {
    const { gatherMavenFacts } = await import('../build-tools/maven/gather.js');
    const maven = await gatherMavenFacts(ctx.cwd, {
      ...(ctx.config.settings === undefined ? {} : { settingsFile: ctx.config.settings }),
      ...(ctx.config.localRepo === undefined ? {} : { localRepo: ctx.config.localRepo }),
      env: ctx.env,
      home: ctx.env.HOME ?? os.homedir(),
      stagingApiUrl: ctx.config.stagingApiUrl,
    });
    facts.maven = maven.facts;
    facts.gatherFindings.push(...maven.findings);
    facts.release = { ...facts.release, ...maven.release };
  }
  void options;
  return facts;
}
