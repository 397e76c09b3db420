import os from 'node:os';
import { isRelctlError } from '../../core/errors.js';
import { toReport } from '../../core/findings.js';
import type { PortalFailure } from '../../portal/client.js';
import { deploymentsUrl } from '../../portal/decode.js';
import { groupIdOf, portalSession } from '../../portal/session.js';
import { journaledUpload, snapshotBeforeUpload, type UploadRequest } from '../../portal/upload.js';
import { repositoryKeyOf } from '../../portal/urls.js';
import { findingsText } from '../../ui/render/findings.js';
import type { CommandContext } from '../../io/command-context.js';
import type { Step } from '../types.js';

/** Portal validation findings travel on the error; show them before the error's cause and fix. */
export function showPortalFindings(ctx: CommandContext, error: unknown): void {
  if (!isRelctlError(error) || ctx.out.json) return;
  const findings = (error as PortalFailure).findings;
  if (findings !== undefined && findings.length > 0) ctx.out.info(findingsText(toReport(findings), ctx.out.c, 'portal validation'));
}

/** The manual upload call: the staged repository becomes a portal deployment (seed 4.1). */
export const uploadStep: Step = {
  id: 'upload',
  title: 'Manual upload to the portal',
  summary: (rc) => `deployment ${rc.deploymentId ?? '(id not returned; see relctl search)'}${rc.repositoryKey === undefined ? '' : `, repository ${rc.repositoryKey}`}`,
  async run(rc, { ctx, options }) {
    const groupId = groupIdOf(ctx, rc.groupId);
    if (groupId === undefined) throw new Error('upload step without a group id');
    const call = `POST ${ctx.config.stagingApiUrl.replace(/\/+$/, '')}/manual/upload/defaultRepository/${groupId}?publishing_type=user_managed`;
    if (options.dryRun) {
      ctx.out.wouldDo(call);
      return {};
    }
    const session = await portalSession(ctx);
    try {
      // Resumed on another machine: the by-address upload cannot find the repository; use its key.
      let repositoryKey: UploadRequest['repositoryKey'];
      if (rc.machine !== undefined && rc.machine !== os.hostname()) {
        ctx.out.warn(`The build staged from ${rc.machine}, this is ${os.hostname()}: uploading the open staging repository by its key instead.`);
        const open = (await session.portal.search({ groupId, ip: 'any', state: 'open' })).filter((r) => r.state === 'open');
        if (open.length === 1) repositoryKey = repositoryKeyOf(open[0]!.key, 'the staging API listed');
        else ctx.out.warn(`${open.length} open staging repositories for ${groupId}: trying the by-address upload; see relctl search --group-id ${groupId} --ip any.`);
      }
      const req: UploadRequest = {
        groupId,
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
