import { StepFailedError } from '../../core/errors.js';
import { toReport } from '../../core/findings.js';
import { deploymentsUrl } from '../../portal/decode.js';
import { resolveDeploymentId, statusFindings, waitForDeployment } from '../../portal/deployment.js';
import { portalSession } from '../../portal/session.js';
import { findingsText } from '../../ui/render/findings.js';
import type { Step } from '../types.js';
import { notePublished } from '../publishing-budget.js';

/**
 * Waits for the portal's verdict (DESIGN §6, §10). VALIDATED: a person reviews and publishes at
 * the deployments URL. FAILED: the findings and how to unblock the namespace. A wait that runs
 * out is not a failure: it says so, with the id and the command to check again.
 */
export const statusStep: Step = {
  id: 'status',
  title: 'Portal validation',
  summary: (rc) => {
    if (rc.deploymentState === 'VALIDATED') return `VALIDATED: review and publish at ${rc.deploymentsUrl}`;
    if (rc.deploymentState === 'PUBLISHED') return 'PUBLISHED';
    if (rc.deploymentState === undefined) return undefined;
    return `still ${rc.deploymentState} (not a failure): check again with relctl status --deployment ${rc.deploymentId} --wait`;
  },
  async run(rc, { ctx, options }) {
    const url = deploymentsUrl(ctx.config.portalUrl);
    if (options.dryRun) {
      ctx.out.wouldDo(`POST ${ctx.config.portalUrl.replace(/\/+$/, '')}/api/v1/publisher/status?id=${rc.deploymentId ?? '<deployment id>'} until VALIDATED (at most ${options.waitTimeout} s)`);
      return {};
    }
    const session = await portalSession(ctx);
    try {
      const id = rc.deploymentId ?? (await resolveDeploymentId(ctx, session.portal, undefined));
      const { status, settled } = await waitForDeployment(session.portal, id, {
        timeoutMs: options.waitTimeout * 1000,
        signal: ctx.signal,
        onState: (s) => ctx.out.verbose(`deployment ${id}: ${s}`),
      });
      if (status.deploymentState === 'FAILED') {
        const findings = statusFindings(status, ctx.config.portalUrl);
        if (findings.length > 0 && !ctx.out.json) ctx.out.info(findingsText(toReport(findings), ctx.out.c, 'portal validation'));
        // The block is the staging API's; a Publisher API bundle (portal-plugin route) blocks nothing.
        const blocks = rc.publishingRoute === 'portal-plugin' ? '' : '; it blocks the namespace until dropped';
        throw new StepFailedError(`Deployment ${id} FAILED the portal's validation${blocks}.`, {
          kind: 'deployment-failed',
          fix: `Drop it (relctl drop --deployment ${id}, or Drop at ${url}), fix the cause, then release the next version.`,
          data: { deploymentId: id, ...(rc.repositoryKey === undefined ? {} : { repositoryKey: rc.repositoryKey }), deploymentsUrl: url },
        });
      }
      await notePublished(ctx, status);
      if (!settled) ctx.out.warn(`The wait ran out while the deployment is ${status.deploymentState}; that is not a failure.`);
      return { deploymentId: id, deploymentState: status.deploymentState, deploymentsUrl: url };
    } finally {
      await session.http.close();
    }
  },
};
