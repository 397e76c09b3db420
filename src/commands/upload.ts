import os from 'node:os';
import { Option } from './commander.js';
import { ExitCode, UsageError } from '../core/errors.js';
import { readJournal, updateJournal } from '../io/journal.js';
import type { PublishingType } from '../portal/client.js';
import { deploymentsUrl } from '../portal/decode.js';
import { expandRepositoryKey, idLines, renderPortalFailure } from '../portal/report.js';
import { confirm, portalSession, requireGroupId } from '../portal/session.js';
import { manualUpload, uploadRecord } from '../portal/upload.js';
import type { Define } from './registry.js';

export const define: Define = (program, action) => {
  program
    .command('upload')
    .description('move the staged artifacts into the portal (the manual upload call)')
    .addOption(
      new Option('--publishing-type <type>', 'what the portal does after validation')
        .choices(['user_managed', 'automatic', 'portal_api'])
        .default('user_managed'),
    )
    .option('--repository-key <key>', 'upload this staging repository by key (works from any machine; see relctl search --ip any)')
    .option('--dry-run', 'print the call that would be made, change nothing')
    .option('--yes', 'no confirmation prompt (needed for --publishing-type automatic without a terminal)')
    .action(
      action(async (ctx, opts) => {
        const groupId = requireGroupId(ctx);
        const publishingType = opts.publishingType as PublishingType;
        const rawKey = typeof opts.repositoryKey === 'string' ? opts.repositoryKey : undefined;
        const journal = await readJournal(ctx.cwd);
        const last = journal.uploads[journal.uploads.length - 1];
        if (rawKey === undefined && last !== undefined && last.machine !== os.hostname()) {
          ctx.out.warn(
            `The last upload of this release was made on ${last.machine}, not on ${os.hostname()}; the portal only finds a staging repository from the address that deployed it.`,
          );
          ctx.out.info(`  By key instead: relctl search --group-id ${groupId} --ip any, then relctl upload --group-id ${groupId} --repository-key <key>`);
        }
        const where = rawKey === undefined ? `defaultRepository/${groupId}` : `repository/${rawKey}`;
        const call = `POST ${ctx.config.stagingApiUrl}/manual/upload/${where}?publishing_type=${publishingType}`;
        if (opts.dryRun === true) {
          ctx.out.dryRunResult(call, { groupId, publishingType, request: call });
          return ExitCode.ok;
        }
        // user_managed waits for a person to click Publish; automatic publishes irrevocably.
        if (publishingType === 'automatic' && !(await confirm(ctx, opts.yes === true, `Upload ${groupId} and publish it automatically once valid?`))) {
          throw new UsageError('Upload cancelled.', { fix: 'Run again and confirm, or use --publishing-type user_managed.' });
        }
        const session = await portalSession(ctx);
        const repositoryKey = rawKey === undefined ? undefined : expandRepositoryKey(rawKey, session.token);
        try {
          const outcome = await manualUpload(session.portal, {
            groupId,
            publishingType,
            ...(repositoryKey === undefined ? {} : { repositoryKey }),
            log: (l) => ctx.out.verbose(l),
          });
          await updateJournal(ctx.cwd, (j) => {
            const record = uploadRecord(ctx, groupId, outcome);
            j.uploads.push(record);
            if (record.repositoryKey !== undefined) j.repositoryKey = record.repositoryKey;
            if (record.deploymentId !== undefined) j.deploymentId = record.deploymentId;
          });
          const next =
            outcome.deploymentId === undefined
              ? `relctl search --group-id ${groupId} --ip any`
              : `relctl status --deployment ${outcome.deploymentId} --wait`;
          if (ctx.out.json) {
            ctx.out.resultJson({
              ok: true,
              groupId,
              publishingType,
              deploymentId: outcome.deploymentId ?? null,
              repositoryKey: outcome.repositoryKey ?? null,
              deploymentsUrl: deploymentsUrl(ctx.config.portalUrl),
              recovered: outcome.recovered,
              next,
            });
          } else {
            ctx.out.result(
              [
                `Uploaded ${groupId} to the portal (${publishingType}).`,
                ...idLines({ deploymentId: outcome.deploymentId, repositoryKey: outcome.repositoryKey }),
                `deployments: ${deploymentsUrl(ctx.config.portalUrl)}`,
                `next: ${next}`,
              ].join('\n'),
            );
          }
          return ExitCode.ok;
        } catch (error) {
          return renderPortalFailure(ctx, error, 'upload', { groupId, ...(repositoryKey === undefined ? {} : { repositoryKey }) });
        }
      }),
    );
};
