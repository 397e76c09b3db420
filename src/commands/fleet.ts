/**
 * `relctl fleet list|audit|fix|report|rehearse` (DESIGN §13): the options, the fleet's core, the rendering.
 */
import path from 'node:path';
import { ExitCode } from '../core/errors.js';
import type { Define } from './define.js';
import { auditOptions, auditSelected, checkFormat, emitReport, guardFleetRun, reportExitCode, reportOptions } from './fleet-audit-options.js';
import { select, selectionOptions, withHost } from './fleet-options.js';
import { defineFleetFix } from './fleet-fix.js';
import { defineFleetRehearse } from './fleet-rehearse.js';
import { defineReport } from './fleet-report.js';

export const define: Define = (program, action) => {
  const fleet = program.command('fleet').description('every repository of an ecosystem at once: list, audit, fix, report, rehearse');

  selectionOptions(fleet.command('list').description('the selected repositories (--json: [{name, url, branch}] for a CI matrix)'))
    .option('--out <file>', 'write the list (or the --json document) to this file instead of stdout')
    .action(
      action(async (ctx, opts) => {
        ctx = withHost(ctx, opts);
        const selection = await select(ctx, opts);
        const repos = selection.only === undefined ? selection.repos : [selection.only];
        const { hostUrlOf } = await import('../fleet/org-listing.js');
        const { cloneUrlOf } = await import('../fleet/workspace.js');
        const host = hostUrlOf(ctx.config.githubApiUrl);
        const list = repos.map((r) => ({ name: r.name, url: cloneUrlOf(r, host), branch: r.branch ?? null }));
        const text = ctx.out.json ? JSON.stringify(list, null, 2) : list.map((r) => `${r.name}  ${r.url}${r.branch === null ? '' : `  (${r.branch})`}`).join('\n');
        if (typeof opts.out === 'string') {
          const { writeFleetFile } = await import('../fleet/render/formats.js');
          await writeFleetFile(ctx, path.resolve(ctx.cwd, opts.out), `${text}\n`);
        } else if (ctx.out.json) ctx.out.resultJson(list);
        else ctx.out.result(text);
        return ExitCode.ok;
      }),
    );

  reportOptions(auditOptions(selectionOptions(fleet.command('audit').description('clone or fetch each repository into the workspace and audit the fleet as one graph')))).action(
    action(async (ctx, opts) =>
      guardFleetRun(ctx, opts, async () => {
        ctx = withHost(ctx, opts);
        checkFormat(ctx, opts);
        const report = await auditSelected(ctx, opts);
        await emitReport(ctx, opts, report);
        return reportExitCode(report);
      }),
    ),
  );

  defineFleetFix(fleet, action);
  defineReport(fleet, action);
  defineFleetRehearse(fleet, action);
};
