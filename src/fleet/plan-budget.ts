/**
 * The fleet plan's releases against the organization's publishing budget, the same for an audit run
 * here and for the documents of a CI matrix merged by `fleet report --from`.
 */
import { fleetBudget, freeTier, monthOf, noUsage, type FleetBudget } from '../core/publishing-budget.js';
import type { CommandContext } from '../io/command-context.js';
import { clockNow } from '../io/clock.js';
import { monthUsage } from '../release/publishing-budget.js';
import type { FleetReport } from './report-types.js';

/**
 * The releases the fleet's plan needs (`summary.releasesNeeded`: the parents' releases, the
 * repositories with fixes of their own, each waiting child after its parent) against the
 * organization's month (DESIGN §5a: relctl's own record of publications and, with `--usage FILE`,
 * the Usage Center's export): a fleet easily needs more than the free tier's 3.
 */
export async function planBudget(ctx: CommandContext, report: FleetReport, usageFile?: string): Promise<FleetBudget> {
  const limits = ctx.config.publishingLimits ?? freeTier;
  const needed = report.summary.releasesNeeded;
  try {
    const { month, used, usedFrom } = await monthUsage(ctx, usageFile);
    return fleetBudget(limits, used, needed, month, usedFrom);
  } catch (error) {
    // A file the user named must be right; relctl's own record, when unreadable, only weakens the line.
    if (usageFile !== undefined) throw error;
    ctx.out.warn(`publishing budget: relctl's record of publications could not be read (${(error as Error).message}); counted as nothing used.`);
    return fleetBudget(limits, noUsage, needed, monthOf(clockNow(ctx.env).toISOString()));
  }
}
