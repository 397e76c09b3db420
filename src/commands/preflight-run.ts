/**
 * Plain `relctl preflight` once its flags are checked (preflight.ts): the audit, then the report in
 * the format asked for. A chunk of its own, loaded after git was started.
 */
import { ExitCode, failureJson } from '../core/errors.js';
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
  const report = failure !== undefined ? { ...controlled.report, ok: false } : controlled.report;
  if (ctx.out.json) {
    const error = reportErrorJson(controlled, failure, () => checksFailed(report.findings));
    ctx.out.resultJson(findingsJson(report, { route: routeJson(route), ...(error === undefined ? {} : { error }) }));
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
    ctx.out.result(`${routeLine(route, ctx.out.c)}\n\n${findingsText(report, ctx.out.c, title)}`);
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
