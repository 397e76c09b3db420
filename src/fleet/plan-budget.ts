/**
 * The fleet plan's releases against the organization's publishing budget, the same for an audit run
 * here and for the documents of a CI matrix merged by `fleet report --from`.
 */
import os from 'node:os';
import { fleetBudget, freeTier, monthOf, type FleetBudget } from '../core/publishing-budget.js';
import type { CommandContext } from '../io/command-context.js';
import { clockNow } from '../io/clock.js';
import { publicationRecordPath, readPublications, recordedUsage } from '../io/publication-record.js';
import type { FleetReport } from './report-types.js';

/**
 * The releases the fleet's plan needs (`summary.releasesNeeded`: the parents' releases, the
 * repositories with fixes of their own, each waiting child after its parent) against the
 * organization's month (DESIGN §5a; relctl's own record of publications): a fleet easily needs
 * more than the free tier's 3.
 */
export async function planBudget(ctx: CommandContext, report: FleetReport): Promise<FleetBudget> {
  const month = monthOf(clockNow(ctx.env).toISOString());
  const record = await readPublications(publicationRecordPath(ctx.env, ctx.env.HOME ?? os.homedir())).catch(() => []);
  return fleetBudget(ctx.config.publishingLimits ?? freeTier, recordedUsage(record, month), report.summary.releasesNeeded, month);
}
