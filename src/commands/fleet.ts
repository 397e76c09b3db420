/**
 * `relctl fleet list|audit|rehearse` (DESIGN §13): the options, the fleet's core, the rendering.
 */
import { ExitCode } from '../core/errors.js';
import type { Define } from './registry.js';
import { auditInput, parseJobs, select, selectionOptions, withHost, workspaceOptions, writeFleetReport } from './fleet-options.js';
import { defineFleetRehearse } from './fleet-rehearse.js';

export const define: Define = (program, action) => {
  const fleet = program.command('fleet').description('every repository of an ecosystem at once: list, audit, rehearse (DESIGN §13)');

  selectionOptions(fleet.command('list').description('the selected repositories (--json: [{name, url, branch}] for a CI matrix)')).action(
    action(async (ctx, opts) => {
      ctx = withHost(ctx, opts);
      const selection = await select(ctx, opts);
      const repos = selection.only === undefined ? selection.repos : [selection.only];
      const { hostUrlOf } = await import('../fleet/org-listing.js');
      const { cloneUrlOf } = await import('../fleet/workspace.js');
      const host = hostUrlOf(ctx.config.githubApiUrl);
      const list = repos.map((r) => ({ name: r.name, url: cloneUrlOf(r, host), branch: r.branch ?? null }));
      if (ctx.out.json) ctx.out.resultJson(list);
      else ctx.out.result(list.map((r) => `${r.name}  ${r.url}${r.branch === null ? '' : `  (${r.branch})`}`).join('\n'));
      return ExitCode.ok;
    }),
  );

  workspaceOptions(selectionOptions(fleet.command('audit').description('clone or fetch each repository into the workspace and audit the fleet as one graph')))
    .option('--jobs <n>', 'repositories cloned and audited at once (default: the CPU count)', parseJobs)
    .action(
      action(async (ctx, opts) => {
        ctx = withHost(ctx, opts);
        const input = await auditInput(ctx, opts);
        const { auditFleet } = await import('../fleet/run-audit.js');
        const report = await auditFleet(ctx, {
          ...input,
          jobs: (opts.jobs as number | undefined) ?? input.jobs,
          onRepository: (r) => ctx.out.info(`${r.name}: ${r.verdict}${r.blocking.length === 0 ? '' : ` (${r.blocking.join(', ')})`}`),
        });
        const notReady = report.summary.total - report.summary.verdicts.ready - report.summary.verdicts['not-published'];
        await writeFleetReport(ctx, opts, report, {
          code: 'fleet-not-ready',
          message: `${notReady} of ${report.summary.total} repositories are not ready.`,
          fix: 'Fix each blocked repository (or its fixIn parent first), then audit again.',
        });
        return report.ok ? ExitCode.ok : ExitCode.failed;
      }),
    );

  defineFleetRehearse(fleet, action);
};
