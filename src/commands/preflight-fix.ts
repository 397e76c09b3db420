/**
 * The `--fix` half of `relctl preflight` (DESIGN §4, Fixes): orchestrator called, result rendered.
 * Loaded by preflight only when --fix is given (its flags are checked in preflight-fix-flags.ts).
 */
import { ExitCode, failureJson } from '../core/errors.js';
import { unreachableFailure } from '../checks/online-unanswered.js';
import type { FindingGroup } from '../core/finding-groups.js';
import { runPreflightFix } from '../release/fix/preflight-fix.js';
import type { CommandContext } from '../io/command-context.js';
import { findingsGithub, findingsJson } from '../ui/render/findings.js';
import { fixJsonExtra, fixText, writtenGithub } from './render/preflight-fix.js';
import { githubPaths } from './render/report-formats.js';
import { defaultPasswordVariable, defaultUsernameVariable } from './preflight-fix-flags.js';
import { routeJson } from './render/route.js';
import { controlledReport, reportErrorJson, sayTooManyWarnings } from './finding-controls.js';

export async function preflightFix(ctx: CommandContext, opts: Record<string, unknown>, audit: { offline: boolean; groups: ReadonlySet<FindingGroup> }): Promise<number> {
  const dryRun = opts.dryRun === true;
  const result = await runPreflightFix(ctx, {
    ...audit,
    dryRun,
    allowDirty: opts.allowDirty === true,
    fixMetadata: opts.fixMetadata === true,
    bumpReleased: opts.bumpReleased === true,
    usernameVariable: (opts.tokenUsernameEnv as string | undefined) ?? defaultUsernameVariable,
    passwordVariable: (opts.tokenPasswordEnv as string | undefined) ?? defaultPasswordVariable,
    variablesChosen: opts.tokenUsernameEnv !== undefined || opts.tokenPasswordEnv !== undefined,
  });
  // As plain preflight: a lookup that got no answer is not a pass (exit 3, after the report).
  const failure = unreachableFailure(result.facts, audit.offline, audit.groups.has('online'));
  // --max-warnings and --quiet apply to the final audit, the one the exit code comes from.
  const controlled = controlledReport(ctx, result.after ?? result.before, opts);
  const report = failure === undefined ? controlled.report : { ...controlled.report, ok: false };
  const route = result.facts.route ?? { kind: 'unknown' as const, evidence: [] };
  if (ctx.out.json) {
    const error = reportErrorJson(controlled, failure, () =>
      failureJson('preflight-failed', 'Preflight found errors that --fix left.', 'Fix what is left by hand (each finding has its own fix), then run preflight again.'),
    );
    ctx.out.resultJson(findingsJson(report, { route: routeJson(route), ...fixJsonExtra(result, dryRun), ...(error === undefined ? {} : { error }) }));
  } else if (opts.format === 'github') {
    // As plain preflight does: annotations name files from the repository root, where the runner
    // looks for them (a project in a subfolder would otherwise annotate files that do not exist).
    const fileOf = await githubPaths(ctx);
    ctx.out.resultCommands([...writtenGithub(result.written), findingsGithub(report, fileOf)].filter((l) => l !== '').join('\n'));
  } else ctx.out.result(fixText({ ...result, ...(result.after === undefined ? { before: report } : { after: report }) }, ctx.out.c, dryRun));
  sayTooManyWarnings(ctx, controlled);
  if (failure !== undefined) throw failure;
  return report.ok ? ExitCode.ok : ExitCode.failed;
}
