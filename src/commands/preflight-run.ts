/**
 * Plain `relctl preflight` once its flags are checked (preflight.ts): the audit, then the report in
 * the format asked for. A chunk of its own, loaded after git was started.
 */
import { ExitCode, errorJson, failureJson } from '../core/errors.js';
import type { FindingGroup } from '../core/finding-groups.js';
import { unreachableFailure } from '../checks/online-unanswered.js';
import { auditProject } from '../checks/audit.js';
import type { CommandContext } from '../io/command-context.js';
import type { GitFacts } from '../io/git.js';
import { factsRead } from './render/facts-read.js';
import { findingsGithub, findingsJson, findingsText } from '../ui/render/findings.js';
import { routeGithub, routeJson, routeLine } from './render/route.js';
import { githubPaths, isReportFormat, printReport } from './render/report-formats.js';
import { controlledReport, reportErrorJson, sayTooManyWarnings } from './finding-controls.js';
import { budgetOptions } from '../release/options.js';
import { budgetDocument, budgetText, overBudgetError, projectBudget } from '../release/publishing-budget.js';

export async function runPreflight(
  ctx: CommandContext,
  opts: Record<string, unknown>,
  { offline, groups, git }: { offline: boolean; groups: ReadonlySet<FindingGroup>; git: Promise<GitFacts> },
): Promise<number> {
  const { facts, report: checked, gatherMs, checkMs } = await auditProject(ctx, { offline, groups, git });
  // Only with --verbose: on a 1000-module reactor the lines cost more than printing nothing.
  if (ctx.out.verboseEnabled) for (const line of factsRead(facts)) ctx.out.verbose(line);
  const route = facts.route ?? { kind: 'unknown' as const, evidence: [] };
  ctx.out.verbose(`route: ${route.kind}; read everything in ${gatherMs} ms${offline ? ' (offline)' : ' (online lookups included)'}; ran the checks in ${checkMs} ms`);
  // An online lookup that got no answer (network, timeout, 5xx) is not a pass: exit 3.
  const failure = unreachableFailure(facts, offline, groups.has('online'));
  const controlled = controlledReport(ctx, checked, opts);
  // The month's publishing budget (DESIGN §5a): over it, preflight fails before anything is tagged.
  const budgetFlags = budgetOptions(opts);
  const budget = await projectBudget(ctx, budgetFlags);
  const overBudget = overBudgetError(budget, budgetFlags);
  const report = failure !== undefined || overBudget !== undefined ? { ...controlled.report, ok: false } : controlled.report;
  if (ctx.out.json) {
    const budgetFailure = overBudget === undefined ? undefined : errorJson(overBudget);
    const error = reportErrorJson(controlled, failure, () => checksFailed(report.findings)) ?? budgetFailure;
    ctx.out.resultJson(findingsJson(report, { route: routeJson(route), publishingBudget: budgetDocument(budget), ...(error === undefined ? {} : { error }) }));
  } else if (isReportFormat(opts.format)) {
    const { preflightSuites } = await import('./render/preflight-suites.js');
    const suites = preflightSuites(facts, groups, offline);
    await printReport(ctx, opts.format, report, { command: 'preflight', suites, rules: ctx.config.rules, ...(failure === undefined ? {} : { failure: failure.message }) });
  } else if (opts.format === 'github') {
    const fileOf = await githubPaths(ctx);
    ctx.out.resultCommands([routeGithub(route, fileOf), findingsGithub(report, fileOf)].filter((l) => l !== '').join('\n'));
  }
  else {
    const title = failure === undefined ? 'preflight' : 'preflight (incomplete: a service could not be asked)';
    // The budget before the findings: their summary line stays the last line, as CI logs are read.
    ctx.out.result(`${routeLine(route, ctx.out.c)}\n\n${budgetText(budget).join('\n')}\n\n${findingsText(controlled.report, ctx.out.c, title)}`);
    if (overBudget !== undefined) ctx.out.info(`${overBudget.message}\nfix: ${overBudget.fix ?? ''}`);
    else if (budget.verdict.over.length > 0) ctx.out.warn('--over-budget: the release would exceed the publishing limits; the portal may cap the publication.');
  }
  sayTooManyWarnings(ctx, controlled);
  if (failure !== undefined) throw failure;
  return report.ok ? ExitCode.ok : ExitCode.failed;
}

/** The `error` of a failed check document (DESIGN §3: every --json failure carries one). */
function checksFailed(findings: readonly { code: string; severity: string }[]): Record<string, unknown> {
  const codes = [...new Set(findings.filter((f) => f.severity === 'error').map((f) => f.code))];
  return failureJson('preflight-failed', `Preflight found errors: ${codes.join(', ')}.`, 'Fix the findings (each has its own fix), then run preflight again.');
}
