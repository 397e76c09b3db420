import { ExitCode, UsageError } from '../core/errors.js';
import { expandRepositoryKey, renderPortalFailure } from '../portal/report.js';
import { confirm, portalSession, tokenOf } from '../portal/session.js';
import type { Define } from './registry.js';

export const define: Define = (program, action) => {
  program
    .command('drop')
    .description('drop an open staging repository (--repository-key) or a failed/validated deployment (--deployment)')
    .option('--repository-key <key>', 'the open staging repository to drop (relctl search --ip any lists them)')
    .option('--deployment <id>', 'the FAILED or VALIDATED deployment to drop (unblocks the namespace)')
    .option('--dry-run', 'print the call that would be made, change nothing')
    .option('--yes', 'drop without asking')
    .action(
      action(async (ctx, opts) => {
        const rawKey = typeof opts.repositoryKey === 'string' ? opts.repositoryKey : undefined;
        const id = typeof opts.deployment === 'string' ? opts.deployment : undefined;
        if ((rawKey === undefined) === (id === undefined)) {
          throw new UsageError('Say what to drop: exactly one of --repository-key and --deployment.', {
            fix: 'relctl drop --deployment <id> for a failed deployment, relctl drop --repository-key <key> for an open staging repository.',
          });
        }
        const request =
          id !== undefined
            ? `DELETE ${ctx.config.portalUrl}/api/v1/publisher/deployment/${id}`
            : `DELETE ${ctx.config.stagingApiUrl}/manual/drop/repository/${rawKey!}`;
        const ids = id !== undefined ? { deploymentId: id } : { repositoryKey: rawKey! };
        if (opts.dryRun === true) {
          // Registers the token (if any) with the redactor so a key holding its username is masked.
          await tokenOf(ctx).catch(() => undefined);
          ctx.out.dryRunResult(request, { ...ids, request });
          return ExitCode.ok;
        }
        const { portal, token } = await portalSession(ctx);
        const what = id !== undefined ? `deployment ${id}` : `staging repository ${rawKey!}`;
        if (!(await confirm(ctx, opts.yes === true, `Drop ${what}? Its files are discarded.`))) {
          throw new UsageError('Drop cancelled; nothing changed.', { fix: 'Run again and confirm, or pass --yes.', data: ids });
        }
        try {
          if (id !== undefined) await portal.dropDeployment(id);
          else await portal.dropRepository(expandRepositoryKey(rawKey!, token));
        } catch (error) {
          return renderPortalFailure(ctx, error, 'drop', ids);
        }
        if (ctx.out.json) ctx.out.resultJson({ ok: true, dropped: true, ...ids });
        else {
          ctx.out.result(`Dropped ${what}.`);
          if (id !== undefined) ctx.out.info('The namespace is unblocked: fix the cause, then release the next version.');
        }
        return ExitCode.ok;
      }),
    );
};
