import { ExitCode, StepFailedError, UsageError, isRelctlError } from '../core/errors.js';
import { deploymentsUrl } from '../portal/decode.js';
import { resolveDeploymentId } from '../portal/deployment.js';
import { AmbiguousRequestError } from '../io/http.js';
import { renderPortalFailure } from '../portal/report.js';
import { apiUrl, requireDeploymentId } from '../portal/urls.js';
import { confirm, portalSession, tokenOf } from '../portal/session.js';
import type { Define } from './define.js';
import { notePublished } from '../release/publishing-budget.js';

export const define: Define = (program, action) => {
  program
    .command('publish')
    .description('publish a VALIDATED deployment after showing what it holds (the portal UI\'s Publish)')
    .option('--deployment <id>', 'deployment id (default: the release journal, else the latest found for --group-id)')
    .option('--dry-run', 'show what would be published, change nothing')
    .option('--yes', 'publish without asking')
    .action(
      action(async (ctx, opts) => {
        const flagId = typeof opts.deployment === 'string' ? requireDeploymentId(opts.deployment) : undefined;
        const publishCall = (id: string): string => `POST ${apiUrl(`${ctx.config.portalUrl}/api/v1/publisher`)`/deployment/${id}`}`;
        if (opts.dryRun === true && flagId !== undefined && (await tokenOf(ctx)) === undefined) {
          // A dry run works without a token (DESIGN §10): say what would be called.
          const call = publishCall(flagId);
          ctx.out.dryRunResult(call, { deploymentId: flagId, request: call });
          return ExitCode.ok;
        }
        const { portal } = await portalSession(ctx);
        const id = await resolveDeploymentId(ctx, portal, flagId);
        const status = await portal.status(id);
        if (status.deploymentState === 'PUBLISHED') {
          await notePublished(ctx, status);
          if (ctx.out.json) ctx.out.resultJson({ ok: true, deploymentId: id, state: 'PUBLISHED', alreadyPublished: true });
          else ctx.out.result(`deployment ${id} is already PUBLISHED; nothing to do.`);
          return ExitCode.ok;
        }
        if (status.deploymentState !== 'VALIDATED') {
          throw new StepFailedError(`Deployment ${id} is ${status.deploymentState}, not VALIDATED: only a validated deployment can be published.`, {
            kind: 'not-publishable',
            fix:
              status.deploymentState === 'FAILED'
                ? `Drop it (relctl drop --deployment ${id}), fix the cause, release the next version.`
                : `Wait until it is validated: relctl status --deployment ${id} --wait`,
            data: { deploymentId: id, state: status.deploymentState },
          });
        }
        const request = publishCall(id);
        if (!ctx.out.json) {
          ctx.out.info(`deployment ${id}${status.deploymentName === undefined ? '' : ` (${status.deploymentName})`} holds:`);
          for (const purl of status.purls) ctx.out.info(`  ${purl}`);
        }
        if (opts.dryRun === true) {
          const count = `${status.purls.length} component${status.purls.length === 1 ? '' : 's'}`;
          ctx.out.dryRunResult(request, { deploymentId: id, purls: status.purls, request }, `dry run: would publish ${id} (${count})`);
          return ExitCode.ok;
        }
        if (!(await confirm(ctx, opts.yes === true, `Publish these ${status.purls.length} component(s) through ${publishTarget(ctx.config)}? This cannot be undone.`))) {
          throw new UsageError('Publish cancelled; nothing changed.', { fix: `Run relctl publish --deployment ${id} again when ready.`, data: { deploymentId: id } });
        }
        try {
          await portal.publish(id);
        } catch (error) {
          // No answer: look before doing anything again (a second publish of a published deployment fails).
          if (!isRelctlError(error) || error.kind !== 'request-ambiguous') return renderPortalFailure(ctx, error, 'publish', { deploymentId: id });
          const after = await portal.status(id).catch((statusError: unknown) => statusError as Error);
          if (after instanceof Error) {
            throw new AmbiguousRequestError(
              `The publish of ${id} got no answer, and the status check that should settle it failed too (${after.message}): the portal may or may not have started publishing.`,
              { fix: `Run relctl status --deployment ${id}: PUBLISHING or PUBLISHED means it happened; VALIDATED means run relctl publish --deployment ${id} again.`, data: { deploymentId: id } },
            );
          }
          if (!['PUBLISHING', 'PUBLISHED'].includes(after.deploymentState)) {
            return renderPortalFailure(ctx, error, 'publish', { deploymentId: id, state: after.deploymentState });
          }
          ctx.out.verbose(`the publish got no answer, but the deployment is ${after.deploymentState}`);
        }
        if (ctx.out.json) ctx.out.resultJson({ ok: true, deploymentId: id, purls: status.purls, state: 'PUBLISHING' });
        else {
          ctx.out.result(`Publishing deployment ${id} (${status.purls.join(', ')}).\ndeploymentId: ${id}`);
          ctx.out.info(`Follow it with relctl status --deployment ${id} --wait, or at ${deploymentsUrl(ctx.config.portalUrl)}`);
        }
        return ExitCode.ok;
      }),
    );
};

/** Where a publish goes, named truthfully: Maven Central only when the settings point there. */
function publishTarget(config: { portalUrl: string; publicRepoUrl: string }): string {
  const portal = new URL(config.portalUrl).host;
  const repo = new URL(config.publicRepoUrl);
  const central = repo.host === 'repo1.maven.org' || repo.host === 'repo.maven.apache.org';
  return central ? `the portal at ${portal} to Maven Central (${repo.host})` : `the portal at ${portal} to the public repository ${repo.host}${repo.pathname.replace(/\/+$/, '')} (not Maven Central)`;
}
