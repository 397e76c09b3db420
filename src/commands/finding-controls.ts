/**
 * The ESLint-style controls of the check commands (`preflight`, `verify`, DESIGN §3): the
 * `--max-warnings` and `--quiet` options, and the report they and the configuration's `rules`
 * make of a checked report. The rules themselves are pure (core/finding-rules.ts).
 */
import type { Command } from 'commander';
import { InvalidArgumentError } from './commander.js';
import { errorJson, failureJson, type RelctlError } from '../core/errors.js';
import { controlReport, parseMaxWarnings, rulesLine, type ControlledReport } from '../core/finding-rules.js';
import { hasErrors, type CheckReport } from '../core/findings.js';
import type { CommandContext } from '../io/command-context.js';
import { configFileName } from '../io/config-file.js';

export function addFindingControlOptions(command: Command): Command {
  return command
    .option('--max-warnings <n>', 'fail (exit 1) when more than n warnings are found', (value: string) => {
      const n = parseMaxWarnings(value);
      if (n === undefined) throw new InvalidArgumentError(`${JSON.stringify(value)} is not a whole number of 0 or more; e.g. --max-warnings 0.`);
      return n;
    })
    .option('--quiet', 'print errors only (warnings still count for --max-warnings)');
}

/**
 * Says which rules of relctl.config.json apply (with --verbose), then applies --max-warnings and
 * --quiet. The one report every format renders, its secrets masked before any format escapes them.
 */
export function controlledReport(ctx: CommandContext, report: CheckReport, opts: Record<string, unknown>): ControlledReport {
  ctx.out.verbose(rulesLine(ctx.config.rules, configFileName));
  return controlReport(ctx.out.redactor.redactValues(report), {
    ...(typeof opts.maxWarnings === 'number' ? { maxWarnings: opts.maxWarnings } : {}),
    quiet: opts.quiet === true,
  });
}

/** In text output, the sentence saying the warnings exceed --max-warnings (--json carries it as its error). */
export function sayTooManyWarnings(ctx: CommandContext, report: ControlledReport): void {
  if (report.tooManyWarnings !== undefined && !ctx.out.json) ctx.out.info(report.tooManyWarnings);
}

/** The `error` of a --json document whose only failure is the warning count. */
function tooManyWarningsJson(message: string): Record<string, unknown> {
  return failureJson('too-many-warnings', message, 'Fix the warnings, raise --max-warnings, or set their codes to "off" in relctl.config.json "rules".');
}

/**
 * The `error` of a check command's --json document: a service that could not be asked first, then
 * nothing when the report passed, the warning count when only that failed, else the command's own.
 */
export function reportErrorJson(report: ControlledReport, failure: RelctlError | undefined, otherwise: () => Record<string, unknown>): Record<string, unknown> | undefined {
  if (failure !== undefined) return errorJson(failure);
  if (report.report.ok) return undefined;
  return report.tooManyWarnings !== undefined && !hasErrors(report.report.findings) ? tooManyWarningsJson(report.tooManyWarnings) : otherwise();
}
