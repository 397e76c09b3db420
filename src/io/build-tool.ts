import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { BuildTool } from '../core/build-tool.js';
import { UsageError } from '../core/errors.js';

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
