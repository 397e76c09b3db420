/**
 * `relctl fleet rehearse [--jobs N]` (DESIGN §13 Rehearse): the audit's options and report, plus
 * the rehearsal's own. The work is src/fleet/rehearse.ts.
 */
import type { Command } from 'commander';
import type { Action } from './define.js';
import { auditInputs, checkFormat, emitReport, guardFleetRun, reportExitCode, reportOptions, workspaceOptions } from './fleet-audit-options.js';
import { parseJobs, selectionOptions, withHost } from './fleet-options.js';
import { rehearsalFlags, rehearsalOptions } from './rehearse-options.js';

export function defineFleetRehearse(fleet: Command, action: (fn: Action) => (...args: unknown[]) => Promise<void>): void {
  const cmd = fleet.command('rehearse').description("audit the fleet, then rehearse each ready repository, parents first, against one sandbox; each parent's rehearsed release goes into the fleet's local repository for its children");
  rehearsalOptions(reportOptions(workspaceOptions(selectionOptions(cmd))))
    .option('--jobs <n>', 'repositories rehearsed at once (default 1: one Maven build at a time); the audit clones and audits at the CPU count', parseJobs)
    .action(
      action(async (ctx, opts) => guardFleetRun(ctx, opts, async () => {
        ctx = withHost(ctx, opts);
        checkFormat(ctx, opts);
        // --jobs belongs to the rehearsals here: the audit runs at the configured or CPU count.
        const audit = await auditInputs(ctx, { ...opts, jobs: undefined });
        const { rehearseFleet, rehearsalFailure } = await import('../fleet/rehearse.js');
        const report = await rehearseFleet(ctx, {
          audit,
          jobs: (opts.jobs as number | undefined) ?? 1,
          rehearse: rehearsalFlags(opts),
          onRehearsal: (r) => ctx.out.info(`${r.name}: rehearsal ${r.rehearsal?.verdict ?? 'none'}${r.rehearsal?.version === undefined ? '' : ` ${r.rehearsal.version}`}${r.rehearsal?.reason === undefined ? '' : ` (${r.rehearsal.reason})`}`),
        });
        await emitReport(ctx, opts, report, rehearsalFailure(report));
        return reportExitCode(report);
      })),
    );
}
