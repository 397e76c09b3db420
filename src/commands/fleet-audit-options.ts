/**
 * What `relctl fleet audit` and `relctl fleet report` share (DESIGN §13): the audit's options and
 * the audit itself, and the report's formats and `--out`. `fleet report` without `--from` audits
 * exactly as `fleet audit` does, and prints or writes the same bytes.
 */
import { stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Command } from 'commander';
import { Option } from './commander.js';
import { InterruptedError, OutputClosedError, UsageError, type ExitCodeValue } from '../core/errors.js';
import type { CommandContext } from '../io/command-context.js';
import type { FleetReport } from '../fleet/report-types.js';
import type { FleetReportMeta } from '../fleet/render/fleet-sections.js';
import { clockNow } from '../io/clock.js';
import { keepYoungGenerationSmall } from '../io/long-run-heap.js';
import { packageVersion } from '../io/package-info.js';
import type { FleetFailure } from '../fleet/report-document.js';
import type { FleetAuditOptions } from '../fleet/run-audit.js';
import { fleetFormats, parseJobs, select, settingFlags } from './fleet-options.js';

/** The workspace: where the clones are, and whether the network may be used. */
export function workspaceOptions(cmd: Command): Command {
  return cmd
    .option('--workdir <dir>', 'the workspace of clones (default: $XDG_CACHE_HOME/relctl/fleet, else ~/.cache/relctl/fleet)')
    .option('--offline', 'no network: clones must exist; no public-repository lookups (lastRelease is null)');
}

/** The workspace and how many repositories are cloned and audited at once. */
export function auditOptions(cmd: Command): Command {
  return workspaceOptions(cmd)
    .option('--jobs <n>', 'repositories cloned and audited at once (default: the CPU count)', parseJobs)
    .option('--usage <file>', "the Usage Center's export (CSV, Current Month): the organization's usage the plan's budget line counts (default: relctl's own record)");
}

/** The report's format and where it goes. */
export function reportOptions(cmd: Command): Command {
  return cmd
    .addOption(new Option('--format <format>', 'report format').choices([...fleetFormats]).default('text'))
    .option('--out <file>', 'write the report (or the --json document) to this file instead of stdout');
}

/** `--json` and `--format` each make the one document of stdout. */
export function checkFormat(ctx: CommandContext, opts: Record<string, unknown>): void {
  if (ctx.out.json && opts.format !== 'text') {
    throw new UsageError(`--json and --format ${String(opts.format)} cannot be used together: each is one document.`, { kind: 'bad-format', fix: `Use --format ${String(opts.format)} for the report, or --json for relctl's own document.` });
  }
}

/** Selects, clones or fetches, and audits: `fleet audit`'s work. */
export async function auditSelected(ctx: CommandContext, opts: Record<string, unknown>): Promise<FleetReport> {
  const { auditFleet } = await import('../fleet/run-audit.js');
  return auditFleet(ctx, await auditInputs(ctx, opts));
}

/** What auditFleet needs from the command line: selection, workspace, jobs, the host's token (as a header only). */
export async function auditInputs(ctx: CommandContext, opts: Record<string, unknown>): Promise<FleetAuditOptions> {
  // Every fleet audit passes here, and its memory must not grow with the number of repositories.
  keepYoungGenerationSmall();
  const selection = await select(ctx, opts);
  const { defaultWorkdir } = await import('../fleet/workspace.js');
  const { hostUrlOf } = await import('../fleet/org-listing.js');
  const { findGithubToken } = await import('../github/token.js');
  const workdir = path.resolve(ctx.cwd, (opts.workdir as string | undefined) ?? ctx.config.fleet?.workdir ?? defaultWorkdir(ctx.env));
  if ((await stat(workdir).catch(() => undefined))?.isDirectory() === false) {
    throw new UsageError(`--workdir ${workdir} is a file, not a folder: the workspace holds one clone per repository.`, { kind: 'bad-option', fix: 'Pass a folder (relctl creates it), or leave out --workdir for the default.' });
  }
  const jobs = (opts.jobs as number | undefined) ?? ctx.config.fleet?.jobs ?? Math.max(1, os.availableParallelism());
  const offline = opts.offline === true;
  // The token only ever goes to the host's own URLs, as a header in git's environment.
  const token = offline ? undefined : await findGithubToken(ctx.env, ctx.config.githubApiUrl, ctx.out.redactor);
  return {
    repos: selection.repos,
    ...(selection.only === undefined ? {} : { only: selection.only.name }),
    workdir,
    jobs,
    offline,
    access: { hostUrl: hostUrlOf(ctx.config.githubApiUrl), ...(token === undefined ? {} : { token: token.value }), env: ctx.env, signal: ctx.signal, log: (l) => ctx.out.verbose(l) },
    flags: settingFlags(ctx),
    ...(typeof opts.usage === 'string' ? { usage: opts.usage } : {}),
    onRepository: (r) => ctx.out.info(`${r.name}: ${r.verdict}${r.blocking.length === 0 ? '' : ` (${r.blocking.join(', ')})`}`),
  };
}

/** The report on stdout or in `--out`: the `--json` document (with the command's own failure, if it names one), else `--format`. */
export async function emitReport(ctx: CommandContext, opts: Record<string, unknown>, report: FleetReport, failure?: FleetFailure): Promise<void> {
  const { renderFleet, writeFleetFile } = await import('../fleet/render/formats.js');
  const { fleetJsonDocument } = await import('../fleet/report-document.js');
  const { unreachableFailure } = await import('../fleet/run-failure.js');
  const outFile = opts.out as string | undefined;
  if (ctx.out.json) {
    const said = failure ?? unreachableFailure(report);
    const doc = fleetJsonDocument(report, ...(said === undefined ? [] : [said]));
    if (outFile === undefined) ctx.out.resultJson(doc);
    else await writeFleetFile(ctx, path.resolve(ctx.cwd, outFile), ctx.out.documentText(doc));
  } else {
    const text = renderFleet(opts.format as (typeof fleetFormats)[number], report, ctx.out.c, reportMeta(ctx));
    if (outFile === undefined) ctx.out.result(text);
    else await writeFleetFile(ctx, path.resolve(ctx.cwd, outFile), ctx.out.shown(text));
  }
}

/** The human formats' header: today (UTC, a day: the dashboard is not edited for the clock alone) and relctl's version. */
export function reportMeta(ctx: CommandContext): FleetReportMeta {
  return { date: clockNow(ctx.env).toISOString().slice(0, 10), version: packageVersion() };
}

/** 0 when every repository is ready or publishes nothing, 3 when the run reached no repository, else 1 (DESIGN §13). */
export async function reportExitCode(report: FleetReport): Promise<ExitCodeValue> {
  const { fleetExitCode } = await import('../fleet/run-failure.js');
  return fleetExitCode(report);
}

/**
 * Runs a fleet command so that its own failure is never exit 1 (the fleet's "not ready", DESIGN
 * §13) and `--out` still holds a document: the error, and each repository `--only` named as an
 * `error`, so that a CI matrix's report shows the repository instead of losing it.
 */
export async function guardFleetRun(ctx: CommandContext, opts: Record<string, unknown>, run: () => Promise<ExitCodeValue>): Promise<ExitCodeValue> {
  try {
    return await run();
  } catch (error) {
    const { failedRunOutput, fleetRunError } = await import('../fleet/run-failure.js');
    const failure = fleetRunError(error);
    if (typeof opts.out === 'string' && !(failure instanceof InterruptedError) && !(failure instanceof OutputClosedError)) {
      const written = failedRunOutput(failure, typeof opts.only === 'string' ? opts.only : undefined, ctx.out.json);
      await emitReport(ctx, opts, written.report, written.failure).catch((e: unknown) => ctx.out.warn(`could not write ${String(opts.out)}: ${e instanceof Error ? e.message : String(e)}`));
    }
    throw failure;
  }
}
