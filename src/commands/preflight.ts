import { Option } from './commander.js';
import { ExitCode, failureJson } from '../core/errors.js';
import { findingGroups, selectedGroups } from '../core/finding-groups.js';
import { unreachableFailure } from '../checks/online-unanswered.js';
import { auditProject } from '../checks/audit.js';
import { factsRead } from './render/facts-read.js';
import { findingsGithub, findingsJson, findingsText } from '../ui/render/findings.js';
import { routeGithub, routeJson, routeLine } from './render/route.js';
import { githubPaths, isReportFormat, preflightSuites, printReport, refuseJsonWithReport, reportFormats } from './render/report-formats.js';
import type { Define } from './registry.js';
import { addFindingControlOptions, controlledReport, reportErrorJson, sayTooManyWarnings } from './finding-controls.js';
import { checkFixFlags, defaultPasswordVariable, defaultUsernameVariable } from './preflight-fix-flags.js';

export const define: Define = (program, action) => {
  addFindingControlOptions(program
    .command('preflight')
    .description('pre-release audit: descriptors, credentials, repository state, keys and namespace')
    .option('--offline', 'skip the checks that need the network (portal, key servers, public repository)')
    .option('--skip <groups...>', 'leave out these finding groups: descriptors, credentials, signing, repository, online')
    .option('--only <groups...>', 'check only these finding groups')
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'github', ...reportFormats]).default('text'))
    .option('--fix', 'apply the mechanical fixes of the findings as minimal text edits, then audit again')
    .option('--dry-run', 'with --fix: print the unified diff of every file it would change; write nothing')
    .option('--allow-dirty', 'with --fix: write even when the worktree has uncommitted changes')
    .option('--fix-metadata', 'with --fix: also fill <url> and <scm><url> from the git remote')
    .option('--bump-released', 'with --fix: move a released version to the next snapshot even while its release tag is at HEAD (the release not finished)')
    .option('--yes', 'no prompts (preflight --fix asks nothing; accepted for the contract of mutating commands)')
    .option('--token-username-env <name>', `with --fix: the variable a new <server> takes its username from (default ${defaultUsernameVariable})`)
    .option('--token-password-env <name>', `with --fix: the variable a new <server> takes its password from (default ${defaultPasswordVariable})`))
    .action(
      action(async (ctx, opts) => {
        const offline = opts.offline === true;
        refuseJsonWithReport(ctx, opts.format);
        // Validated before any work: a bad group is a usage error (exit 2) naming it.
        const groups = selectedGroups(opts.skip as string[] | undefined, opts.only as string[] | undefined);
        checkFixFlags(opts);
        // The fix code (planning, diffs, guarded writes) is loaded only by the runs that fix.
        if (opts.fix === true) return (await import('./preflight-fix.js')).preflightFix(ctx, opts, { offline, groups });
        const left = findingGroups.filter((g) => !groups.has(g));
        if (left.length > 0) ctx.out.info(`note: not checked: the ${left.join(', ')} group${left.length === 1 ? '' : 's'}.`);
        const { facts, report: checked, gatherMs, checkMs } = await auditProject(ctx, { offline, groups });
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
          const suites = preflightSuites(facts, groups, offline);
          await printReport(ctx, opts.format, report, { command: 'preflight', suites, rules: ctx.config.rules, ...(failure === undefined ? {} : { failure: failure.message }) });
        } else if (opts.format === 'github') {
          const fileOf = await githubPaths(ctx);
          ctx.out.result([routeGithub(route, fileOf), findingsGithub(report, fileOf)].filter((l) => l !== '').join('\n'));
        }
        else {
          const title = failure === undefined ? 'preflight' : 'preflight (incomplete: a service could not be asked)';
          ctx.out.result(`${routeLine(route, ctx.out.c)}\n\n${findingsText(report, ctx.out.c, title)}`);
        }
        sayTooManyWarnings(ctx, controlled);
        if (failure !== undefined) throw failure;
        return report.ok ? ExitCode.ok : ExitCode.failed;
      }),
    );
};

/** The `error` of a failed check document (DESIGN §3: every --json failure carries one). */
function checksFailed(findings: readonly { code: string; severity: string }[]): Record<string, unknown> {
  const codes = [...new Set(findings.filter((f) => f.severity === 'error').map((f) => f.code))];
  return failureJson('preflight-failed', `Preflight found errors: ${codes.join(', ')}.`, 'Fix the findings (each has its own fix), then run preflight again.');
}
