import os from 'node:os';
import { UsageError } from '../../core/errors.js';
import path from 'node:path';
import { detectPublishingRoute, mavenPerform, mavenRelease, readPreparedRelease, releaseCheckoutDir } from '../../build-tools/maven-release.js';
import { localRepoOfContext } from '../maven-local-repo.js';
import { bundleOnlyArgument, bundlePath, deploymentIdFromPluginLog, nexusLocalStagingArgument, portalPluginArtifactId, stagingRepositoryIdsFromPluginLog } from '../../core/publishing-route.js';
import { nexusRouteNote } from '../nexus-staging.js';
import { tagExists } from '../../io/git.js';
import { gradleRelease } from '../../build-tools/gradle-release.js';
import { withMavenSession } from '../with-maven-session.js';
import { readIdentity } from '../../io/project.js';
import { withBuildProgress } from '../../ui/build-progress.js';
import { tokenOf } from '../../portal/session.js';
import { tokenFromEnvironment } from '../token.js';
import { decideVersion, isPublished } from '../version-decision.js';
import type { PreparedRelease } from '../../core/release-properties.js';
import type { CommandContext } from '../../io/command-context.js';
import type { ProjectIdentity } from '../../io/project.js';
import type { ReleaseContext, Step, StepDeps } from '../types.js';

/**
 * A release:prepare that finished (release.properties) whose tag exists and whose version is not
 * published: release:perform failed or was interrupted, and finishing it is the resume. The real
 * plugin refuses to prepare over an existing tag, and the orphan-tag rule would skip a version
 * that only needs its deploy.
 */
async function pendingPerform(ctx: CommandContext, identity: ProjectIdentity): Promise<PreparedRelease | undefined> {
  const prepared = await readPreparedRelease(ctx.cwd, identity.groupId, identity.artifactId);
  if (prepared === undefined || !(await tagExists(ctx.cwd, prepared.tag, { env: ctx.env }))) return undefined;
  return (await isPublished(ctx, identity, prepared.version)) ? undefined : prepared;
}

/**
 * The portal-plugin route: release:perform builds the bundle without uploading it (verify checks
 * it, upload sends it); if the project's own release configuration made the plugin upload anyway,
 * the id it printed is the deployment and relctl's upload is skipped.
 */
async function routeOf(ctx: CommandContext): Promise<{ extraArgs: string[]; outcome(output: string): Partial<ReleaseContext> }> {
  const route = await detectPublishingRoute(ctx.cwd, await localRepoOfContext(ctx));
  if (route === 'staging-api') return { extraArgs: [], outcome: () => ({ publishingRoute: route }) };
  if (route === 'nexus-staging') {
    nexusRouteNote(ctx, nexusLocalStagingArgument);
    return {
      extraArgs: [nexusLocalStagingArgument],
      outcome: (output) => {
        const ids = stagingRepositoryIdsFromPluginLog(output);
        if (ids.length > 0) ctx.out.warn(`nexus-staging-maven-plugin staged remotely itself (${ids.join(', ')}): the project's release configuration overrides ${nexusLocalStagingArgument}.`);
        return { publishingRoute: route, ...(ids.length === 0 ? {} : { stagingRepositoryIds: ids }) };
      },
    };
  }
  ctx.out.info(`  ${portalPluginArtifactId} is declared: the bundle is built by release:perform (${bundleOnlyArgument}), verified, then uploaded`);
  return {
    extraArgs: [bundleOnlyArgument],
    outcome: (output) => {
      const deploymentId = deploymentIdFromPluginLog(output);
      if (deploymentId !== undefined) ctx.out.warn(`The plugin uploaded the bundle itself (deployment ${deploymentId}): the project's release configuration overrides ${bundleOnlyArgument}.`);
      return { publishingRoute: route, bundle: path.join(releaseCheckoutDir(ctx.cwd), ...bundlePath), ...(deploymentId === undefined ? {} : { deploymentId }) };
    },
  };
}

/**
 * The build tool's release: version decision (orphan-tag rule, fail early when the tag exists
 * and is published), gpg warm-up, then the release plugin (two commits, the tag, the deploy to
 * the staging API, which leaves the staging repository open).
 * A finished release:prepare (release.properties) is resumed with release:perform alone.
 */
export const buildStep: Step = {
  id: 'build',
  title: 'Release build',
  prompts: false,
  summary: (rc) =>
    `${rc.version} tagged ${rc.tag}, next ${rc.nextVersion}${rc.skippedVersions !== undefined && rc.skippedVersions.length > 0 ? ` (skipped orphan ${rc.skippedVersions.join(', ')})` : ''}`,
  async run(rc, deps) {
    const { ctx, options, proc } = deps;
    const root = ctx.cwd;
    const identity = await readIdentity(root);
    const prepared = identity.buildTool === 'maven' && options.restart !== true ? await pendingPerform(ctx, identity) : undefined;
    if (prepared !== undefined && options.versions?.release !== undefined && options.versions.release !== prepared.version) {
      throw new UsageError(`release.properties holds a finished release:prepare of ${prepared.version} (tag ${prepared.tag}), not of --release-version ${options.versions.release}.`, {
        kind: 'bad-version-option',
        fix: `Finish ${prepared.version} with relctl release --resume (no version flags), or start over with relctl release --restart (the tag ${prepared.tag} then counts as an orphan).`,
      });
    }
    if (prepared !== undefined) {
      ctx.out.info(`  release.properties: release:prepare finished for ${prepared.tag}; running release:perform only (no second tag)`);
      const route = await routeOf(ctx);
      const output = await withMavenSession(deps, rc.fingerprint, (session) =>
        withBuildProgress(ctx.out, deps.spinner, 'Release build', proc, () => mavenPerform(proc, session, root, { interactive: options.interactive, extraArgs: route.extraArgs })),
      );
      return {
        ...route.outcome(output),
        buildTool: identity.buildTool,
        groupId: identity.groupId,
        artifactId: identity.artifactId,
        ...prepared,
        skippedVersions: rc.skippedVersions ?? [],
        firstRelease: false,
        machine: os.hostname(),
        releaseDir: releaseCheckoutDir(root),
      };
    }
    const decision = await decideVersion(ctx, identity, options.versions);
    for (const skipped of decision.skippedVersions) {
      ctx.out.warn(`${identity.artifactId}-${skipped} was tagged but never published: releasing ${decision.version} instead; the release notes must say ${skipped} was prepared but not published.`);
    }
    const versions = { version: decision.version, nextVersion: decision.nextVersion, tag: decision.tag };
    ctx.out.info(`  release ${decision.version}, tag ${decision.tag}, next ${decision.nextVersion}${decision.firstRelease ? ' (first release: the three goals run separately)' : ''}`);
    const added = {
      buildTool: identity.buildTool,
      groupId: identity.groupId,
      artifactId: identity.artifactId,
      ...versions,
      skippedVersions: decision.skippedVersions,
      firstRelease: decision.firstRelease,
      // The deploy stages from this machine; the manual upload must come from the same address.
      machine: os.hostname(),
    };
    if (identity.buildTool === 'maven') {
      const route = await routeOf(ctx);
      const output = await withMavenSession(deps, rc.fingerprint, (session) =>
        withBuildProgress(ctx.out, deps.spinner, 'Release build', proc, () =>
          mavenRelease(proc, session, root, versions, { firstRelease: decision.firstRelease, interactive: options.interactive, extraArgs: route.extraArgs }),
        ),
      );
      return { ...added, ...route.outcome(output), releaseDir: releaseCheckoutDir(root) };
    }
    const token = await tokenOf(ctx);
    await withBuildProgress(ctx.out, deps.spinner, 'Release build', proc, () => gradleRelease(proc, root, versions, {
      ci: ctx.ci,
      interactive: options.interactive,
      chosen: options.versions !== undefined,
      checksums: ctx.config.checksums,
      note: (line) => ctx.out.info(`  ${line}`),
      ...(token !== undefined && tokenFromEnvironment(token) ? { token } : {}),
    }));
    return { ...added, releaseDir: path.join(root, 'build') };
  },
};
