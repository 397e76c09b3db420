import { Option } from './commander.js';
import { ExitCode, UsageError } from '../core/errors.js';
import { readJournal } from '../io/journal.js';
import { planText, uploadPlan, type UploadPlan } from '../keys/upload-plan.js';
import { searchCommand, type PublishingType } from '../portal/client.js';
import { deploymentsUrl } from '../portal/decode.js';
import { idLines, renderPortalFailure } from '../portal/report.js';
import { perCommandOption } from '../core/config/settings.js';
import { namespaceFrom, reportNamespace, resolveNamespace, type NamespaceResolution } from '../portal/namespace.js';
import { confirm, portalSession, requireAnswerable, tokenOf } from '../portal/session.js';
import { journaledUpload, otherMachineCaution, snapshotBeforeUpload, unsettledAttemptCaution, type UploadRequest } from '../portal/upload.js';
import { apiUrl, keyText, repositoryKeyOf, withUser } from '../portal/urls.js';
import type { Define } from './define.js';

export const define: Define = (program, action) => {
  program
    .command('upload')
    .description('move the staged artifacts into the portal (the manual upload call), after verify and a confirmation')
    .addOption(
      new Option('--publishing-type <type>', 'what the portal does after validation')
        .choices(['user_managed', 'automatic', 'portal_api'])
        .default('user_managed'),
    )
    .option(...perCommandOption('namespace'))
    .option('--repository-key <key>', 'upload this staging repository by key (works from any machine; see relctl search --ip any)')
    .option('--no-verify', 'do not run relctl verify on the build output first')
    .option('--dry-run', 'print the call that would be made, change nothing')
    .option('--yes', 'no confirmation prompt (needed without a terminal)')
    .action(
      action(async (ctx, opts) => {
        const publishingType = opts.publishingType as PublishingType;
        const givenKey = typeof opts.repositoryKey === 'string' ? repositoryKeyOf(opts.repositoryKey) : undefined;
        // A key names its namespace; a dry run does not look it up (no token needed).
        const keyNamespace: NamespaceResolution | undefined =
          givenKey !== undefined && ctx.config.namespace === undefined && ctx.config.groupId === undefined
            ? { namespace: givenKey.namespace, source: { kind: 'given', setting: '--repository-key' } }
            : undefined;
        const journal = await readJournal(ctx.cwd);
        const caution = (ns: string): void => {
          const elsewhere = givenKey === undefined ? otherMachineCaution(journal, ns) : undefined;
          if (elsewhere === undefined) return;
          ctx.out.warn(elsewhere.warning);
          ctx.out.info(elsewhere.hint);
        };
        if (opts.dryRun === true) {
          // Unchecked (no portal asked): what a dry run names.
          const unchecked = keyNamespace ?? (await resolveNamespace(ctx, undefined));
          const ns = unchecked.namespace;
          caution(ns);
          // Registers the token (if any) with the redactor so a key holding its username is masked.
          await tokenOf(ctx).catch(() => undefined);
          const url = apiUrl(ctx.config.stagingApiUrl, { publishing_type: publishingType });
          const call = `POST ${givenKey === undefined ? url`/manual/upload/defaultRepository/${ns}` : url`/manual/upload/repository/${{ repositoryKey: givenKey }}`}`;
          if (!ctx.out.json) reportNamespace(ctx, unchecked);
          ctx.out.dryRunResult(call, { groupId: unchecked.groupId ?? ns, namespace: ns, namespaceFrom: namespaceFrom(unchecked.source), publishingType, request: call });
          return ExitCode.ok;
        }
        requireAnswerable(ctx, opts.yes === true, 'The upload');
        let plan: UploadPlan | undefined;
        try {
          const checked = await uploadPlan(ctx, opts.verify !== false);
          plan = checked.plan;
          if (checked.warning !== undefined) ctx.out.warn(checked.warning);
        } catch (error) {
          return renderPortalFailure(ctx, error, 'verify before upload', {});
        }
        const unsettled = unsettledAttemptCaution(journal);
        if (unsettled !== undefined) ctx.out.warn(unsettled);
        const session = await portalSession(ctx);
        let resolved: NamespaceResolution;
        try {
          resolved = keyNamespace ?? (await resolveNamespace(ctx, session.portal));
        } catch (error) {
          await session.http.close();
          throw error;
        }
        const namespace = resolved.namespace;
        const groupId = resolved.groupId ?? namespace;
        if (!ctx.out.json) reportNamespace(ctx, resolved);
        caution(namespace);
        const req: UploadRequest = {
          namespace,
          publishingType,
          ...(givenKey === undefined ? {} : { repositoryKey: withUser(givenKey, session.token.username) }),
          log: (l) => ctx.out.verbose(l),
        };
        try {
          const snap = await snapshotBeforeUpload(session.portal, req);
          ctx.out.info(`will send: ${planText(plan)}`);
          ctx.out.info(`staging repository: ${snap.key ?? '(none open from this address; the portal will say so)'}`);
          const question =
            publishingType === 'automatic'
              ? `Upload ${namespace} and publish it automatically once valid? Publishing cannot be undone.`
              : `Upload ${namespace} to the portal at ${new URL(ctx.config.portalUrl).host} (${publishingType})?`;
          if (!(await confirm(ctx, opts.yes === true, question))) {
            throw new UsageError('Upload cancelled; nothing was sent.', { kind: 'declined', fix: 'Run again and confirm (or pass --yes).' });
          }
          const outcome = await journaledUpload(ctx, session.portal, req, snap);
          const next =
            outcome.deploymentId === undefined ? searchCommand(namespace) : `relctl status --deployment ${outcome.deploymentId} --wait`;
          if (ctx.out.json) {
            ctx.out.resultJson({
              ok: true,
              groupId,
              namespace,
              namespaceFrom: namespaceFrom(resolved.source),
              publishingType,
              deploymentId: outcome.deploymentId ?? null,
              repositoryKey: outcome.repositoryKey ?? null,
              files: plan?.files ?? null,
              bytes: plan?.bytes ?? null,
              deploymentsUrl: deploymentsUrl(ctx.config.portalUrl),
              recovered: outcome.recovered,
              next,
            });
          } else {
            ctx.out.result(
              [
                `Uploaded ${namespace} to the portal (${publishingType}): ${planText(plan)}.`,
                ...idLines({ deploymentId: outcome.deploymentId, repositoryKey: outcome.repositoryKey }),
                `deployments: ${deploymentsUrl(ctx.config.portalUrl)}`,
                `next: ${next}`,
              ].join('\n'),
            );
          }
          return ExitCode.ok;
        } catch (error) {
          return renderPortalFailure(ctx, error, 'upload', { groupId, namespace, ...(req.repositoryKey === undefined ? {} : { repositoryKey: ctx.out.redactor.redact(keyText(req.repositoryKey)) }) });
        } finally {
          await session.http.close();
        }
      }),
    );
};
