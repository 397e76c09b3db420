import os from 'node:os';
import path from 'node:path';
import { mavenRelease, openMavenSession, releaseCheckoutDir } from '../../build-tools/maven-release.js';
import { gradleRelease } from '../../build-tools/gradle-release.js';
import { warmGpgAgent } from '../gpg-warmup.js';
import { readIdentity } from '../../io/project.js';
import { tokenOf } from '../../portal/session.js';
import { mavenTokenFor, tokenFromEnvironment } from '../token.js';
import { decideVersion } from '../version-decision.js';
import type { Step } from '../types.js';

/**
 * The build tool's release: version decision (orphan-tag rule, fail early when the tag exists
 * and is published), gpg warm-up, then the release plugin (two commits, the tag, the deploy to
 * the staging API, which leaves the staging repository open).
 */
export const buildStep: Step = {
  id: 'build',
  title: 'Release build',
  prompts: false,
  summary: (rc) =>
    `${rc.version} tagged ${rc.tag}, next ${rc.nextVersion}${rc.skippedVersions !== undefined && rc.skippedVersions.length > 0 ? ` (skipped orphan ${rc.skippedVersions.join(', ')})` : ''}`,
  async run(rc, { ctx, options, proc }) {
    const root = ctx.cwd;
    const identity = await readIdentity(root);
    const decision = await decideVersion(ctx, identity);
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
      await warmGpgAgent(ctx, proc, rc.fingerprint);
      const token = await mavenTokenFor(ctx);
      const session = await openMavenSession(
        {
          root,
          env: ctx.env,
          ...(ctx.config.settings === undefined ? {} : { userSettings: ctx.config.settings }),
          ...(ctx.config.localRepo === undefined ? {} : { localRepo: ctx.config.localRepo }),
          ...(token === undefined ? {} : { token }),
        },
        options.dryRun,
      );
      try {
        await mavenRelease(proc, session, root, versions, { firstRelease: decision.firstRelease, interactive: options.interactive });
      } finally {
        await session.dispose();
      }
      return { ...added, releaseDir: releaseCheckoutDir(root) };
    }
    const token = await tokenOf(ctx);
    await gradleRelease(proc, root, versions, {
      ci: ctx.ci,
      interactive: options.interactive,
      ...(token !== undefined && tokenFromEnvironment(token) ? { token } : {}),
    });
    return { ...added, releaseDir: path.join(root, 'build') };
  },
};
