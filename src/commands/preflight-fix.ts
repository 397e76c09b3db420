/** The `--fix` half of `relctl preflight` (DESIGN §4, Fixes): flags checked, orchestrator called, result rendered. */
import { ExitCode, UsageError, failureJson } from '../core/errors.js';
import { unreachableFailure } from '../checks/online-unanswered.js';
import type { FindingGroup } from '../core/finding-groups.js';
import { runPreflightFix } from '../release/fix/preflight-fix.js';
import type { CommandContext } from '../io/command-context.js';
import { findingsGithub, findingsJson } from '../ui/render/findings.js';
import { fixJsonExtra, fixText, writtenGithub } from './render/preflight-fix.js';
import { githubPaths, isReportFormat } from './render/report-formats.js';
import { routeJson } from './render/route.js';
import { controlledReport, reportErrorJson, sayTooManyWarnings } from './finding-controls.js';

/** Default names of the variables a new `<server>` reads the portal token from (DESIGN §12's secrets). */
export const defaultUsernameVariable = 'CENTRAL_TOKEN_USERNAME';
export const defaultPasswordVariable = 'CENTRAL_TOKEN_PASSWORD';

const envName = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Flags that only mean something with --fix are a usage error without it (exit 2, naming --fix). */
export function checkFixFlags(opts: Record<string, unknown>): void {
  if (opts.fix === true) {
    // A SARIF / JUnit / GitLab report is one document a code-scanning or CI view parses: the files
    // --fix wrote, its diff and what it declined have no place in it, and a report of the audit
    // before or after the edits would each mislead. `--format github` stays: annotations are lines.
    if (isReportFormat(opts.format)) {
      throw new UsageError(`--fix and --format ${opts.format} cannot be used together: --format ${opts.format} is the report of an audit, --fix changes files.`, {
        kind: 'bad-format',
        fix: `Run relctl preflight --fix (review and commit the change), then relctl preflight --format ${opts.format} for the report.`,
      });
    }
    for (const [flag, key] of [['--token-username-env', 'tokenUsernameEnv'], ['--token-password-env', 'tokenPasswordEnv']] as const) {
      const v = opts[key];
      if (typeof v === 'string' && !envName.test(v)) throw new UsageError(`${flag} "${v}" is not an environment variable name.`, { fix: `Pass a name such as ${defaultUsernameVariable}.` });
    }
    return;
  }
  const only = [['dryRun', '--dry-run'], ['allowDirty', '--allow-dirty'], ['fixMetadata', '--fix-metadata'], ['bumpReleased', '--bump-released'], ['tokenUsernameEnv', '--token-username-env'], ['tokenPasswordEnv', '--token-password-env']] as const;
  const used = only.filter(([key]) => opts[key] !== undefined && opts[key] !== false).map(([, flag]) => flag);
  if (used.length > 0) throw new UsageError(`${used.join(', ')} only applies to relctl preflight --fix.`, { fix: `Add --fix: relctl preflight --fix ${used.join(' ')}` });
}

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
    ctx.out.result([...writtenGithub(result.written), findingsGithub(report, fileOf)].filter((l) => l !== '').join('\n'));
  } else ctx.out.result(fixText({ ...result, ...(result.after === undefined ? { before: report } : { after: report }) }, ctx.out.c, dryRun));
  sayTooManyWarnings(ctx, controlled);
  if (failure !== undefined) throw failure;
  return report.ok ? ExitCode.ok : ExitCode.failed;
}
