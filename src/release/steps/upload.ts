import { stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { snapshotReleaseRefused } from '../../core/snapshot-release.js';
import { parseVersion } from '../../core/version.js';
import { UsageError, isRelctlError } from '../../core/errors.js';
import { readIdentity } from '../../io/project.js';
import { toReport } from '../../core/findings.js';
import { searchCommand, type PortalFailure } from '../../portal/client.js';
import { deploymentsUrl } from '../../portal/decode.js';
import { namespaceText, reportNamespace, resolveNamespace } from '../../portal/namespace.js';
import { portalSession } from '../../portal/session.js';
import { journaledUpload, snapshotBeforeUpload, type UploadRequest } from '../../portal/upload.js';
import { repositoryKeyOf } from '../../portal/urls.js';
import { findingsText } from '../../ui/render/findings.js';
import { bundleFormBody } from '../../portal/bundle-body.js';
import { refuseOversizedBundle } from '../../portal/bundle-limit.js';
import { startProgress, uploadProgressText } from '../../ui/progress.js';
import type { CommandContext } from '../../io/command-context.js';
import type { ReleaseContext, Step } from '../types.js';
import { uploadNexusStaged } from '../nexus-staging.js';

/** Portal validation findings travel on the error; show them before the error's cause and fix. */
export function showPortalFindings(ctx: CommandContext, error: unknown): void {
  if (!isRelctlError(error) || ctx.out.json) return;
  const findings = (error as PortalFailure).findings;
  if (findings !== undefined && findings.length > 0) ctx.out.info(findingsText(toReport(findings), ctx.out.c, 'portal validation'));
}

/**
 * The manual upload call: the staged repository becomes a portal deployment (seed 4.1). On the
 * portal-plugin route the verified bundle goes to the Publisher API instead, unless the plugin
 * already uploaded it.
 */
export const uploadStep: Step = {
  id: 'upload',
  title: 'Manual upload to the portal',
  skip: (rc) =>
    rc.publishingRoute === 'portal-plugin' && rc.deploymentId !== undefined ? `central-publishing-maven-plugin uploaded the bundle: deployment ${rc.deploymentId}` : undefined,
  summary: (rc) => `${rc.publishingRoute === 'nexus-staging' ? 'nexus-staging-maven-plugin closed the staging repository: ' : ''}deployment ${rc.deploymentId ?? '(id not returned; see relctl search)'}${rc.repositoryKey === undefined ? '' : `, repository ${rc.repositoryKey}`}`,
  async run(rc, deps) {
    const { ctx, options } = deps;
    if (rc.version !== undefined && parseVersion(rc.version)?.snapshot === true) throw snapshotReleaseRefused([rc.version], 'The release');
    if (rc.publishingRoute === 'portal-plugin' && rc.bundle !== undefined) return uploadBundle(ctx, rc, options.dryRun, rc.bundle);
    // nexus-staging-maven-plugin uploads and closes; relctl follows the repository to its deployment.
    if (rc.publishingRoute === 'nexus-staging') return uploadNexusStaged(rc, deps);
    // Run on its own (`relctl run upload`), no earlier step named the group: the project declares it.
    const declared = rc.groupId === undefined ? undefined : { groupId: rc.groupId, from: "the release's groupId" };
    if (options.dryRun) {
      const resolved = await resolveNamespace(ctx, undefined, declared).catch(() => undefined);
      ctx.out.wouldDo(`POST ${ctx.config.stagingApiUrl.replace(/\/+$/, '')}/manual/upload/defaultRepository/${resolved?.namespace ?? '<namespace>'}?publishing_type=user_managed`);
      if (resolved === undefined) ctx.out.warn('No namespace or group id: a real run would stop here (pass --namespace).');
      else ctx.out.info(`  ${namespaceText(resolved)}; a real run looks for the staging repository holding it`);
      return {};
    }
    const session = await portalSession(ctx);
    try {
      const resolved = await resolveNamespace(ctx, session.portal, declared);
      reportNamespace(ctx, resolved);
      const namespace = resolved.namespace;
      // Resumed on another machine: the by-address upload cannot find the repository; use its key.
      let repositoryKey: UploadRequest['repositoryKey'];
      if (rc.machine !== undefined && rc.machine !== os.hostname()) {
        ctx.out.warn(`The build staged from ${rc.machine}, this is ${os.hostname()}: uploading the open staging repository by its key instead.`);
        const open = (await session.portal.search({ namespace, ip: 'any', state: 'open' })).filter((r) => r.state === 'open');
        if (open.length === 1) repositoryKey = repositoryKeyOf(open[0]!.key, 'the staging API listed');
        else ctx.out.warn(`${open.length} open staging repositories for ${namespace}: trying the by-address upload; see ${searchCommand(namespace)}.`);
      }
      const req: UploadRequest = {
        namespace,
        publishingType: 'user_managed',
        log: (l) => ctx.out.verbose(l),
        ...(repositoryKey === undefined ? {} : { repositoryKey }),
      };
      const outcome = await journaledUpload(ctx, session.portal, req, await snapshotBeforeUpload(session.portal, req));
      const shownKey = outcome.repositoryKey === undefined ? undefined : ctx.out.redactor.redact(outcome.repositoryKey);
      return {
        deploymentsUrl: deploymentsUrl(ctx.config.portalUrl),
        ...(shownKey === undefined ? {} : { repositoryKey: shownKey }),
        ...(outcome.deploymentId === undefined ? {} : { deploymentId: outcome.deploymentId }),
      };
    } catch (error) {
      showPortalFindings(ctx, error);
      throw error;
    } finally {
      await session.http.close();
    }
  },
};

/** The portal-plugin route: the bundle relctl verified, as the Publisher API upload (USER_MANAGED: a person publishes). */
async function uploadBundle(ctx: CommandContext, rc: Readonly<ReleaseContext>, dryRun: boolean, bundle: string): Promise<Partial<ReleaseContext>> {
  const name = `${rc.artifactId ?? 'release'}-${rc.version ?? ''}`.replace(/-$/, '');
  const query = new URLSearchParams({ publishingType: 'USER_MANAGED', name });
  if (dryRun) {
    ctx.out.wouldDo(`POST ${ctx.config.portalUrl.replace(/\/+$/, '')}/api/v1/publisher/upload?${query} (bundle ${path.relative(ctx.cwd, bundle)})`);
    return {};
  }
  refuseOversizedBundle((await stat(bundle)).size, `The bundle ${path.relative(ctx.cwd, bundle)}`, ctx.env);
  const session = await portalSession(ctx);
  const sent = { bytes: 0, total: 0 };
  const progress = startProgress(ctx.out, () => uploadProgressText(sent.bytes, sent.total));
  try {
    const form = await bundleFormBody(bundle, (n) => (sent.bytes = n));
    sent.total = form.size;
    const outcome = await session.portal.uploadBundle(form, { name, publishingType: 'USER_MANAGED' });
    if (outcome.deploymentId === undefined) throw new Error('the Publisher API upload answered without a deployment id');
    return { deploymentsUrl: deploymentsUrl(ctx.config.portalUrl), deploymentId: outcome.deploymentId };
  } catch (error) {
    showPortalFindings(ctx, error);
    throw error;
  } finally {
    progress.stop();
    await session.http.close();
  }
}
