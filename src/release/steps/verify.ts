import { StepFailedError } from '../../core/errors.js';
import { toReport } from '../../core/findings.js';
import { fromBundle, fromGradleBuild, fromMavenTargets, fromNexusLocalStaging, type ArtifactSet } from '../../keys/artifacts.js';
import { releaseCheckoutDir } from '../../build-tools/maven-release.js';
import { localStagingDirs } from '../nexus-staging.js';
import { verifyWithContext } from '../../keys/verify.js';
import { resolveNamespace } from '../../portal/namespace.js';
import { portalSession } from '../../portal/session.js';
import { findingsText } from '../../ui/render/findings.js';
import { dropOpenStaging } from '../staging.js';
import type { ReleaseContext, Step } from '../types.js';
import { checkBudget, countedFiles, gateBudget } from '../publishing-budget.js';

/**
 * The portal's rules, locally, on what the build deployed (DESIGN §7). If anything fails, the
 * manual upload is never called: the open staging repository is dropped, so no failed
 * deployment exists and the namespace stays unblocked.
 */
export const verifyStep: Step = {
  id: 'verify',
  title: 'Local verification',
  summary: (_rc, added) => (added.deploymentState === undefined ? 'every component passes the portal rules' : undefined),
  async run(rc, { ctx, options, command }) {
    if (options.dryRun) {
      ctx.out.info(`  would check ${rc.releaseDir ?? 'the release checkout'} with the portal's rules (nothing was built in a dry run)`);
      return {};
    }
    const set = await artifactsOf(rc, ctx.cwd);
    ctx.out.verbose(`checking ${set.files.size} files from ${set.from}`);
    const { verdicts, findings } = await verifyWithContext(ctx, set);
    const report = toReport(findings);
    if (report.ok) {
      ctx.out.verbose(`${verdicts.length} component(s) pass`);
      // The files the upload will send, against the month's budget: the last stop before the portal.
      // A rehearsal reports the budget itself (before its build) and goes on, as with preflight errors.
      const budget = options.budget ?? {};
      if (command !== 'rehearse') gateBudget(ctx, await checkBudget(ctx, budget, { files: countedFiles(set), ...(rc.groupId === undefined ? {} : { component: `${rc.groupId}:${rc.artifactId ?? ''}` }) }), budget);
      return {};
    }
    if (!ctx.out.json) ctx.out.info(findingsText(report, ctx.out.c, `verify (${verdicts.length} components)`));
    const codes = [...new Set(report.findings.map((f) => f.code))];
    if (rc.publishingRoute === 'portal-plugin') throw bundleVerifyFailed(rc, codes, report.findings.length);
    if (rc.publishingRoute === 'nexus-staging') throw nexusVerifyFailed(rc, codes, report.findings.length);
    let dropped: string[] = [];
    if (ctx.config.namespace !== undefined || ctx.config.groupId !== undefined || rc.groupId !== undefined) {
      const session = await portalSession(ctx);
      try {
        const resolved = await resolveNamespace(ctx, session.portal, rc.groupId === undefined ? undefined : { groupId: rc.groupId, from: "the release's groupId" });
        dropped = await dropOpenStaging(ctx, session.portal, resolved.namespace);
      } finally {
        await session.http.close();
      }
    }
    const droppedText = dropped.length === 0 ? 'no open staging repository was found to drop' : `the open staging repository ${dropped.join(', ')} was dropped`;
    throw new StepFailedError(
      `Local verification failed (${codes.join(', ')}): the portal would fail this deployment. Nothing was uploaded; ${droppedText}, so the namespace stays unblocked.`,
      {
        kind: 'verify-failed',
        fix: restartFix(rc),
        data: { findings: report.findings.length, ...(dropped.length === 0 ? {} : { droppedRepositories: dropped.join(', ') }) },
      },
    );
  },
};

/**
 * What verify reads: the portal-plugin bundle, nexus-staging-maven-plugin's local staging (what
 * deploy-staged will upload; when the plugin staged remotely itself, the build's target/ folders),
 * Gradle's build output, else the Maven targets of the release checkout.
 */
async function artifactsOf(rc: Readonly<ReleaseContext>, cwd: string): Promise<ArtifactSet> {
  if (rc.bundle !== undefined) return fromBundle(rc.bundle, cwd);
  if (rc.buildTool === 'gradle') return fromGradleBuild(cwd);
  if (rc.publishingRoute === 'nexus-staging' && rc.stagingRepositoryIds === undefined) {
    const dirs = await localStagingDirs(rc.releaseDir ?? releaseCheckoutDir(cwd));
    if (dirs.length > 0) return fromNexusLocalStaging(dirs, cwd);
  }
  return fromMavenTargets(cwd);
}

/** The nexus-staging route: nothing left the machine, unless the plugin staged (and closed) remotely itself. */
function nexusVerifyFailed(rc: Readonly<ReleaseContext>, codes: string[], findings: number): StepFailedError {
  const cause = `Local verification failed (${codes.join(', ')}): the portal would fail this deployment.`;
  if (rc.stagingRepositoryIds === undefined) {
    return new StepFailedError(`${cause} nexus-staging-maven-plugin staged it locally only; nothing was uploaded, so the namespace stays unblocked.`, { kind: 'verify-failed', fix: restartFix(rc), data: { findings } });
  }
  const ids = rc.stagingRepositoryIds.join(', ');
  return new StepFailedError(`${cause} The plugin already staged it remotely (${ids}); a closed repository is a portal deployment that will fail and block the namespace.`, {
    kind: 'verify-failed',
    fix: `Drop its deployment (relctl search --group-id <namespace> --ip any names it; relctl drop --deployment <id>), then: ${restartFix(rc)}`,
    data: { findings, stagingRepositoryIds: ids },
  });
}

function restartFix(rc: Readonly<ReleaseContext>): string {
  return `Fix the findings above, commit, then run \`relctl release --restart\`${rc.tag === undefined ? '' : ` (${rc.tag} stays as an orphan tag and the next version is released)`}.`;
}

/** The portal-plugin route: the bundle was never uploaded, unless the plugin did it itself. */
function bundleVerifyFailed(rc: Readonly<ReleaseContext>, codes: string[], findings: number): StepFailedError {
  const cause = `Local verification of the bundle failed (${codes.join(', ')}): the portal would fail this deployment.`;
  if (rc.deploymentId === undefined) {
    return new StepFailedError(`${cause} relctl did not upload it, so the namespace stays unblocked.`, { kind: 'verify-failed', fix: restartFix(rc), data: { findings } });
  }
  return new StepFailedError(`${cause} The plugin already uploaded it as deployment ${rc.deploymentId}, which will fail and block the namespace.`, {
    kind: 'verify-failed',
    fix: `Drop it (relctl drop --deployment ${rc.deploymentId}), then: ${restartFix(rc)}`,
    data: { findings, deploymentId: rc.deploymentId },
  });
}
