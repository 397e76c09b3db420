/**
 * `relctl fleet report [--issue OWNER/NAME] [--from DIR]` (DESIGN §13 Report): the fleet's report,
 * from an audit run here or from the documents a CI matrix wrote, printed (any format, `--out`) or
 * kept as the body of one dashboard issue.
 */
import path from 'node:path';
import { Command } from './commander.js';
import { UsageError } from '../core/errors.js';
import { parseRepoName } from '../core/notes/tracker.js';
import type { CommandContext } from '../io/command-context.js';
import type { Action } from './define.js';
import type { DashboardOutcome } from '../fleet/dashboard-issue.js';
import { reportTitle, summaryText } from '../fleet/render/fleet-rows.js';
import { fleetJsonDocument } from '../fleet/report-document.js';
import type { FleetReport } from '../fleet/report-types.js';
import { auditOptions, auditSelected, checkFormat, emitReport, guardFleetRun, reportExitCode, reportMeta, reportOptions } from './fleet-audit-options.js';
import { selectionOptions, withHost } from './fleet-options.js';

/**
 * Flags that choose or run the audit, meaningless when the documents are read instead: those the
 * selection and audit options declare (read from them, so a new one is covered), but the host's
 * API root, which --issue uses too, and --usage, which the merged plan's budget counts.
 */
function auditFlags(): [string, string][] {
  return auditOptions(selectionOptions(new Command()))
    .options.filter((o) => o.long !== undefined && o.long !== '--github-url' && o.long !== '--usage')
    .map((o) => [o.attributeName(), o.long!]);
}

const usageOf = (opts: Record<string, unknown>): string | undefined => (typeof opts.usage === 'string' ? opts.usage : undefined);

function checkFlags(ctx: CommandContext, opts: Record<string, unknown>): void {
  checkFormat(ctx, opts);
  if (opts.from !== undefined) {
    const given = auditFlags().filter(([key]) => opts[key] !== undefined).map(([, flag]) => flag);
    if (given.length > 0) throw new UsageError(`--from reads the audit documents instead of auditing: ${given.join(', ')} ${given.length === 1 ? 'has' : 'have'} no meaning with it.`, { kind: 'bad-option', fix: 'Drop those flags, or drop --from to audit here.' });
  }
  if (opts.issue === undefined) {
    if (opts.dryRun === true) throw new UsageError('--dry-run shows what --issue would write: pass --issue OWNER/NAME.', { kind: 'bad-option', fix: 'Without --issue, fleet report only prints the report; it changes nothing anyway.' });
  } else if (opts.format !== 'text' && opts.out === undefined) {
    throw new UsageError(`--format ${String(opts.format)} with --issue: stdout says what became of the issue, so the report in another format needs --out FILE.`, { kind: 'bad-format', fix: `Add --out FILE, or drop --format ${String(opts.format)}.` });
  }
}

function issueRepo(value: unknown): ReturnType<typeof parseRepoName> {
  if (value === undefined) return undefined;
  const repo = typeof value === 'string' ? parseRepoName(value) : undefined;
  if (repo === undefined) throw new UsageError(`--issue ${JSON.stringify(value)} is not OWNER/NAME of a GitHub repository.`, { kind: 'bad-option', fix: 'Pass the repository that holds the dashboard issue, e.g. --issue apereo/fleet-admin.' });
  return repo;
}

async function reportFrom(ctx: CommandContext, dir: string, usage: string | undefined): Promise<FleetReport> {
  const { readFleetReports } = await import('../fleet/read-reports.js');
  const { mergeFleetReports } = await import('../fleet/merge-reports.js');
  const read = await readFleetReports(path.resolve(ctx.cwd, dir));
  for (const r of read) ctx.out.verbose(`${r.file}: ${r.report.repositories.map((x) => `${x.name} ${x.verdict}`).join(', ') || 'no repository'}`);
  const merged = mergeFleetReports(read.map((r) => r.report));
  if (merged.duplicates.length > 0) ctx.out.warn(`${merged.duplicates.join(', ')} ${merged.duplicates.length === 1 ? 'is' : 'are'} in more than one document under ${dir}: the first one (in path order) is kept.`);
  ctx.out.info(`read ${read.length} ${read.length === 1 ? 'document' : 'documents'}: ${merged.report.summary.total} ${merged.report.summary.total === 1 ? 'repository' : 'repositories'}`);
  // Each document's budget counted one repository's plan: the merged plan is compared once, here.
  const { planBudget } = await import('../fleet/plan-budget.js');
  merged.report.summary.publishingBudget = await planBudget(ctx, merged.report, usage);
  return merged.report;
}

const words: Record<DashboardOutcome['action'], { done: string; would: string }> = {
  create: { done: 'created', would: 'would create' },
  edit: { done: 'edited', would: 'would edit' },
  reopen: { done: 'reopened', would: 'would reopen' },
  unchanged: { done: 'unchanged', would: 'unchanged' },
};

/** stdout: the report's counts and the issue's fate (on --dry-run: the body, then its fate); --json: one document. */
function renderOutcome(ctx: CommandContext, report: FleetReport, outcome: DashboardOutcome, body: string): void {
  const issue = `${outcome.repository}${outcome.number === undefined ? '' : `#${outcome.number}`}`;
  if (outcome.dryRun && outcome.action !== 'unchanged') ctx.out.wouldDo(`${outcome.action} the issue "${reportTitle}" in ${issue}`);
  if (ctx.out.json) {
    const { error } = fleetJsonDocument(report);
    const { dryRun, ...where } = outcome;
    ctx.out.resultJson({ ok: report.ok, dryRun, issue: where, summary: report.summary, ...(dryRun ? { body } : {}), ...(error === undefined ? {} : { error }) });
    return;
  }
  const line = `${outcome.dryRun ? words[outcome.action].would : words[outcome.action].done} ${issue}${outcome.url === undefined ? '' : ` ${outcome.url}`}`;
  ctx.out.result(outcome.dryRun ? `${body}\n${line}` : `${summaryText(report)}\n${line}`);
}

export function defineReport(fleet: Command, action: (fn: Action) => (...args: unknown[]) => Promise<void>): void {
  reportOptions(auditOptions(selectionOptions(fleet.command('report').description('the fleet report (audited here, or --from the documents of a CI matrix), printed or kept in one dashboard issue (--issue)'))))
    .option('--issue <owner/name>', 'keep the issue "relctl fleet readiness" of this repository (opened by the token\'s user) up to date with the Markdown report')
    .option('--from <dir>', 'read the relctl fleet audit --json documents under this folder (one per repository, as a CI matrix writes them) instead of auditing')
    .option('--dry-run', 'with --issue: print the body and whether the issue would be created or edited; change nothing')
    .action(
      action(async (ctx, opts) => guardFleetRun(ctx, opts, async () => {
        ctx = withHost(ctx, opts);
        checkFlags(ctx, opts);
        const repo = issueRepo(opts.issue);
        if (repo === undefined) {
          const report = typeof opts.from === 'string' ? await reportFrom(ctx, opts.from, usageOf(opts)) : await auditSelected(ctx, opts);
          await emitReport(ctx, opts, report);
          return reportExitCode(report);
        }
        const { openGithub } = await import('../github/session.js');
        const { DashboardIssue, dashboardBody } = await import('../fleet/dashboard-issue.js');
        const session = await openGithub(ctx);
        try {
          // The token is asked for its user first: a missing or refused one fails before a long audit.
          const dashboard = await DashboardIssue.open(session.gh, repo, session.hasToken, { log: (l) => ctx.out.info(l), signal: ctx.signal });
          ctx.out.verbose(`the dashboard issue is the one ${dashboard.login} opened`);
          const report = typeof opts.from === 'string' ? await reportFrom(ctx, opts.from, usageOf(opts)) : await auditSelected(ctx, opts);
          if (opts.out !== undefined) await emitReport(ctx, opts, report);
          // Under the output rule, as every report relctl writes: no secret reaches the issue.
          const body = dashboardBody(report, (text) => ctx.out.shown(text), reportMeta(ctx));
          const outcome = await dashboard.sync(body, opts.dryRun === true);
          renderOutcome(ctx, report, outcome, body);
          return reportExitCode(report);
        } finally {
          await session.close();
        }
      })),
    );
}
