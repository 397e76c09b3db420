import { Option } from './commander.js';
import { ExitCode } from '../core/errors.js';
import { perCommandOption } from '../core/config/settings.js';
import { namespaceFrom, openUnderShorterNamespace, reportNamespace, requireNamespaceInput, resolveNamespace } from '../portal/namespace.js';
import { portalSession } from '../portal/session.js';
import type { Define } from './define.js';

export const define: Define = (program, action) => {
  program
    .command('search')
    .description('list staging repositories of a namespace (use when nothing shows up in the portal)')
    .option(...perCommandOption('namespace'))
    .addOption(new Option('--ip <which>', 'repositories staged from this address only, or from any').choices(['any', 'client']).default('any'))
    .addOption(new Option('--state <state>', 'only repositories in this state').choices(['open', 'closed', 'released']))
    .action(
      action(async (ctx, opts) => {
        await requireNamespaceInput(ctx);
        const { portal, http } = await portalSession(ctx);
        const found = await (async () => {
          const resolved = await resolveNamespace(ctx, portal);
          const repos = await portal.search({ namespace: resolved.namespace, ip: opts.ip as 'any' | 'client', ...(typeof opts.state === 'string' ? { state: opts.state } : {}) });
          // Never "nothing is staged" while a repository is open under a shorter namespace: a resolved
          // namespace was looked up already; one given outright may be a groupId.
          const shorter = repos.length === 0 && resolved.source.kind === 'given' ? await openUnderShorterNamespace(portal, resolved.namespace) : undefined;
          return { resolved, repos, shorter };
        })().finally(() => http.close());
        const { resolved, repos, shorter } = found;
        const namespace = resolved.namespace;
        if (ctx.out.json) {
          ctx.out.resultJson({
            ok: true,
            groupId: resolved.groupId ?? namespace,
            namespace,
            namespaceFrom: namespaceFrom(resolved.source),
            ...(shorter === undefined ? {} : { openUnder: { namespace: shorter.namespace, key: ctx.out.redactor.redact(shorter.key) } }),
            repositories: repos.map((r) => ({ key: r.key, state: r.state, description: r.description, deploymentId: r.portalDeploymentId })),
          });
          return ExitCode.ok;
        }
        reportNamespace(ctx, resolved);
        if (shorter !== undefined) {
          ctx.out.result(`No staging repositories for ${namespace} (ip=${String(opts.ip)}), but ${shorter.namespace} holds an open one: ${ctx.out.redactor.redact(shorter.key)}.`);
          ctx.out.info(`${namespace} lies below the namespace ${shorter.namespace}: relctl search --namespace ${shorter.namespace}, and upload with --namespace ${shorter.namespace}.`);
          return ExitCode.ok;
        }
        if (repos.length === 0) {
          ctx.out.result(`No staging repositories for ${namespace} (ip=${String(opts.ip)}).`);
          ctx.out.info(
            opts.ip === 'any'
              ? 'Nothing is staged from any address: deploy the artifacts first (the release build does it).'
              : 'Nothing is staged from this address: deploy the artifacts first, or try --ip any if they were deployed from another machine.',
          );
          return ExitCode.ok;
        }
        const rows = [['KEY', 'STATE', 'DEPLOYMENT'], ...repos.map((r) => [r.key, r.state, r.portalDeploymentId ?? '-'])];
        const widths = [0, 1].map((i) => Math.max(...rows.map((row) => ctx.out.redactor.redact(row[i]!).length)));
        ctx.out.result(
          rows
            .map((row) => row.map((cell, i) => (i < 2 ? cell + ' '.repeat(Math.max(0, widths[i]! - ctx.out.redactor.redact(cell).length)) : cell)).join('  '))
            .join('\n'),
        );
        const open = repos.find((r) => r.state === 'open');
        if (open !== undefined) {
          ctx.out.info(`To move an open repository into the portal: relctl upload --namespace ${namespace} --repository-key ${open.key}`);
        }
        return ExitCode.ok;
      }),
    );
};
