/**
 * `relctl fleet list|audit` (DESIGN §13): the options, the fleet's core, the rendering.
 */
import { ExitCode } from '../core/errors.js';
import type { Define } from './define.js';
import { auditInputs, auditOptions, checkFormat, printFleet, select, selectionOptions, withHost } from './fleet-options.js';
import { defineFleetFix } from './fleet-fix.js';

export const define: Define = (program, action) => {
  const fleet = program.command('fleet').description('every repository of an ecosystem at once: list, audit (DESIGN §13)');

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

  auditOptions(selectionOptions(fleet.command('audit').description('clone or fetch each repository into the workspace and audit the fleet as one graph'))).action(
    action(async (ctx, opts) => {
      ctx = withHost(ctx, opts);
      checkFormat(ctx, opts);
      const { auditFleet } = await import('../fleet/run-audit.js');
      const report = await auditFleet(ctx, await auditInputs(ctx, opts));
      await printFleet(ctx, opts, report);
      return report.ok ? ExitCode.ok : ExitCode.failed;
    }),
  );

  defineFleetFix(fleet, action);
};
