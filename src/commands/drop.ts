import { ExitCode, UsageError } from '../core/errors.js';
import { deploymentsUrl } from '../portal/decode.js';
import { renderPortalFailure } from '../portal/report.js';
import { confirm, portalSession, requireAnswerable, tokenOf } from '../portal/session.js';
import { apiUrl, keyText, repositoryKeyOf, requireDeploymentId, withUser } from '../portal/urls.js';
import { dropRefusal } from '../core/portal/drop-rule.js';
import type { Define } from './define.js';

export const define: Define = (program, action) => {
  program
    .command('drop')
    .description('drop an open staging repository (--repository-key) or a failed/validated deployment (--deployment)')
    .option('--repository-key <key>', 'the open staging repository to drop (relctl search --ip any lists them)')
    .option('--deployment <id>', 'the FAILED or VALIDATED deployment to drop (a FAILED one blocks the staging API uploads of its namespace)')
    .option('--dry-run', 'print the call that would be made, change nothing')
    .option('--yes', 'drop without asking')
    .action(
      action(async (ctx, opts) => {
        const given = { key: typeof opts.repositoryKey === 'string', id: typeof opts.deployment === 'string' };
        if (given.key === given.id) {
          throw new UsageError('Say what to drop: exactly one of --repository-key and --deployment.', {
            fix: 'relctl drop --deployment <id> for a failed deployment, relctl drop --repository-key <key> for an open staging repository.',
          });
        }
        const id = given.id ? requireDeploymentId(opts.deployment as string) : undefined;
        const key = given.key ? repositoryKeyOf(opts.repositoryKey as string) : undefined;
        const request =
          id !== undefined
            ? `DELETE ${apiUrl(`${ctx.config.portalUrl}/api/v1/publisher`)`/deployment/${id}`}`
            : `DELETE ${apiUrl(ctx.config.stagingApiUrl)`/manual/drop/repository/${{ repositoryKey: key! }}`}`;
        const ids = id !== undefined ? { deploymentId: id } : { repositoryKey: keyText(key!) };
        if (opts.dryRun === true) {
          // Registers the token (if any) with the redactor so a key holding its username is masked.
          await tokenOf(ctx).catch(() => undefined);
          ctx.out.dryRunResult(request, { ...ids, request });
          return ExitCode.ok;
        }
        const what = id !== undefined ? `deployment ${id}` : `staging repository ${keyText(key!)}`;
        requireAnswerable(ctx, opts.yes === true, `Dropping ${what}`);
        const { portal, token, http } = await portalSession(ctx);
        let state: string | undefined;
        try {
          if (id !== undefined) {
            // Look first: the portal drops only what is settled and unpublished, and saying so beats a refused DELETE.
            state = (await portal.status(id)).deploymentState;
            const refusal = dropRefusal(id, state);
            if (refusal !== undefined) throw refusal;
          }
          if (!(await confirm(ctx, opts.yes === true, `Drop ${what}? Its files are discarded.`))) {
            throw new UsageError('Drop cancelled; nothing changed.', { fix: 'Run again and confirm, or pass --yes.', data: ids });
          }
          if (id !== undefined) await portal.dropDeployment(id);
          else await portal.dropRepository(withUser(key!, token.username));
        } catch (error) {
          return renderPortalFailure(ctx, error, 'drop', ids);
        } finally {
          await http.close();
        }
        if (ctx.out.json) ctx.out.resultJson({ ok: true, dropped: true, ...ids });
        else {
          ctx.out.result(`Dropped ${what}.`);
          // Only a FAILED deployment blocked anything, and only the staging API's uploads (DESIGN §5a).
          if (state === 'FAILED') ctx.out.info(`The staging API's uploads of the namespace are unblocked: fix the cause, then release the next version (deployments: ${deploymentsUrl(ctx.config.portalUrl)}).`);
        }
        return ExitCode.ok;
      }),
    );
};
