/**
 * `relctl fleet fix` (DESIGN §13, Fix): options, the fleet's fix, the report.
 */
import type { Command } from 'commander';
import { ExitCode, UsageError } from '../core/errors.js';
import type { Action } from './define.js';
import { auditInputs, auditOptions, checkFormat, emitReport, guardFleetRun, reportOptions } from './fleet-audit-options.js';
import { selectionOptions, withHost } from './fleet-options.js';

function parseCount(flag: string, max: number): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 0 || n > max) throw new UsageError(`${flag} ${value} is not a whole number from 0 to ${max}.`, { kind: 'bad-option', fix: `Pass ${flag} N, e.g. ${flag} 5.` });
    return n;
  };
}

export function defineFleetFix(fleet: Command, action: (fn: Action) => (...args: unknown[]) => Promise<void>): void {
  reportOptions(auditOptions(selectionOptions(fleet.command('fix').description('the mechanical fixes, parents first, as one commit per repository on relctl/central-portal; --open-prs opens one pull request each'))))
    .option('--dry-run', 'print each repository\'s diff; change nothing')
    .option('--open-prs', 'push relctl/central-portal (with lease) and open or update one pull request per repository')
    .option('--max-prs <n>', 'at most this many attempts to open a pull request in one run, refused ones included (default 20)', parseCount('--max-prs', 1000), 20)
    .option('--pr-interval <seconds>', 'at least this many seconds between two attempts to open a pull request (default 30)', parseCount('--pr-interval', 86_400), 30)
    .action(
      action(async (ctx, opts) => guardFleetRun(ctx, opts, async () => {
        ctx = withHost(ctx, opts);
        checkFormat(ctx, opts);
        if (opts.openPrs === true && opts.offline === true) throw new UsageError('--open-prs needs the network; it cannot be combined with --offline.', { kind: 'bad-option', fix: 'Leave out --offline, or --open-prs to commit on the clones only.' });
        const inputs = await auditInputs(ctx, opts);
        const { fixFleet } = await import('../fleet/fix/run-fix.js');
        const { openGithub } = await import('../github/session.js');
        const sessions: { close(): Promise<void> }[] = [];
        try {
          const report = await fixFleet(ctx, {
            ...inputs,
            dryRun: opts.dryRun === true,
            openPrs: opts.openPrs === true,
            maxPrs: opts.maxPrs as number,
            prIntervalMs: (opts.prInterval as number) * 1000,
            github: async () => {
              const session = await openGithub(ctx);
              sessions.push(session);
              return { gh: session.gh, log: (l) => ctx.out.info(l), signal: ctx.signal };
            },
          });
          // The diffs of a dry run are the result; otherwise the fleet's report with what was done.
          if (opts.dryRun !== true || ctx.out.json) await emitReport(ctx, opts, report);
          else ctx.out.result((await import('../fleet/render/fleet-sections.js')).fixDryRunText(report));
          const failed = report.repositories.some((r) => r.verdict === 'error' || r.change?.action === 'failed');
          return failed ? ExitCode.failed : ExitCode.ok;
        } finally {
          for (const s of sessions) await s.close();
        }
      })),
    );
}
