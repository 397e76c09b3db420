import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { EnvironmentError, StepFailedError } from '../../core/errors.js';
import { fromGradleBuild, fromMavenLayout, type ArtifactSet } from '../../keys/artifacts.js';
import { httpFor } from '../../portal/session.js';
import type { CommandContext } from '../../io/command-context.js';

/**
 * Rehearsing a Gradle release as far as relctl can (issue 19 item 6). A Gradle build publishes
 * through its own scripts (maven-publish repositories, nexus-publish, JReleaser), which no property
 * points at the sandbox, and this machine's Gradle (Debian's 4.4.1) cannot publish at all; so the
 * build itself is not rehearsed. What is: the Maven-layout folder the build published locally
 * (--staging-dir, else the project's build/staging-deploy, build/repo or build/m2), deployed to
 * the sandbox's staging API as Gradle's publish would, then verify, upload and status.
 */
export async function gradlePublication(projectDir: string, stagingDir: string | undefined): Promise<ArtifactSet> {
  if (stagingDir !== undefined) return fromMavenLayout(path.resolve(projectDir, stagingDir), projectDir);
  return fromGradleBuild(projectDir).catch((error: unknown) => {
    throw new EnvironmentError('Rehearsing a Gradle build needs the Maven-layout folder it publishes: relctl cannot point a Gradle build\'s publishing at the sandbox.', {
      kind: 'rehearse-gradle',
      fix: `Publish into a local folder first (a maven-publish repository at build/staging-deploy, e.g. ./gradlew publishAllPublicationsToStagingRepository), then rehearse again (or pass it with --staging-dir). ${(error as { message?: string }).message ?? ''}`.trim(),
    });
  });
}

/**
 * The folder's files PUT to the sandbox's staging API (what a Gradle `publish` to it sends), and a
 * copy under `<copy>/build/staging-deploy`, where the chain's verify step reads a Gradle build.
 */
export async function stageInSandbox(
  ctx: CommandContext,
  set: ArtifactSet,
  copy: string,
  deployUrl: string,
  user: { name: string; password: string },
): Promise<number> {
  const http = httpFor(ctx);
  const authorization = `Basic ${Buffer.from(`${user.name}:${user.password}`).toString('base64')}`;
  try {
    for (const [mavenPath, data] of set.files) {
      const local = path.join(copy, 'build', 'staging-deploy', ...mavenPath.split('/'));
      await mkdir(path.dirname(local), { recursive: true });
      // Streamed from the build's folder, never held whole (a war or a distribution can be large).
      await writeFile(local, data.chunks());
      const res = await http.request({ method: 'PUT', url: `${deployUrl}${mavenPath}`, headers: { authorization }, body: { length: data.size, open: () => data.chunks() } });
      if (res.status < 200 || res.status > 299) {
        throw new StepFailedError(`The sandbox refused ${mavenPath} (HTTP ${res.status}).`, { kind: 'deploy-failed', fix: 'Check the folder holds release versions in Maven layout, then rehearse again.' });
      }
    }
    return set.files.size;
  } finally {
    await http.close();
  }
}
