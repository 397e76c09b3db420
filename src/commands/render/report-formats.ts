import { UsageError } from '../../core/errors.js';
import type { CheckReport } from '../../core/findings.js';
import type { FindingRules } from '../../core/finding-rules.js';
import type { CommandContext } from '../../io/command-context.js';
import { packageVersion } from '../../io/package-info.js';
import { repositoryRoot, topDescriptor } from '../../io/repository-root.js';
import type { JunitSuite } from '../../ui/render/findings-junit.js';
import type { ReportContext } from '../../ui/render/report-context.js';
import { repoRelative } from '../../ui/render/repo-relative.js';

/** The CI report formats of the check commands (DESIGN §3), besides `text` and `github`. */
export const reportFormats = ['sarif', 'junit', 'gitlab'] as const;
export type ReportFormat = (typeof reportFormats)[number];

export function isReportFormat(format: unknown): format is ReportFormat {
  return (reportFormats as readonly unknown[]).includes(format);
}

/** `--json` is one document and so is a report: both at once is a usage error (exit 2). */
export function refuseJsonWithReport(ctx: CommandContext, format: unknown): void {
  if (ctx.out.json && isReportFormat(format)) {
    throw new UsageError(`--json and --format ${format} cannot be used together: each prints one document on stdout.`, {
      kind: 'bad-format',
      fix: `Use --format ${format} for the report, or --json for relctl's own document.`,
    });
  }
}

export interface ReportRun {
  /** `preflight` or `verify`. */
  command: string;
  /** JUnit's suites: the checks that ran. */
  suites: readonly JunitSuite[];
  /** Why the run could not finish (exit 3), for SARIF's invocation. */
  failure?: string;
  /** The project's finding rules (relctl.config.json), for SARIF's rule configuration. */
  rules?: FindingRules | undefined;
}

/** Renders the report on stdout (nothing else goes there); the exit code stays the findings'. */
export async function printReport(ctx: CommandContext, format: ReportFormat, report: CheckReport, run: ReportRun): Promise<void> {
  // Each renderer is loaded by the run that asks for its format: a plain preflight loads none.
  if (format === 'junit') {
    const { findingsJunit } = await import('../../ui/render/findings-junit.js');
    return ctx.out.result(findingsJunit(report, `relctl ${run.command}`, run.suites, run.failure));
  }
  const where = await reportContext(ctx);
  const doc =
    format === 'gitlab'
      ? (await import('../../ui/render/findings-gitlab.js')).findingsGitlab(report, where)
      : (await import('../../ui/render/findings-sarif.js')).findingsSarif(report, where, {
          ...(run.failure === undefined ? {} : { executionSuccessful: false, failure: run.failure }),
          ...(run.rules === undefined ? {} : { rules: run.rules }),
        });
  // Its strings under the output rule (plain text, URL credentials masked), not only its bytes.
  ctx.out.resultDocument(doc);
}

/**
 * `--format github`: annotations name files relative to the repository root, as the runner
 * resolves them; with the project in a subfolder, project-relative paths would point elsewhere.
 */
export async function githubPaths(ctx: CommandContext): Promise<(file: string) => string> {
  // Only the repository root matters here (no descriptor lookup).
  const where = { projectRoot: ctx.cwd, repoRoot: await repositoryRoot(ctx.cwd, { env: ctx.env }) };
  return (file) => repoRelative(where, file) ?? file;
}

async function reportContext(ctx: CommandContext): Promise<ReportContext> {
  const [repoRoot, descriptor] = await Promise.all([repositoryRoot(ctx.cwd, { env: ctx.env }), topDescriptor(ctx.cwd)]);
  return { version: packageVersion(), projectRoot: ctx.cwd, repoRoot, ...(descriptor === undefined ? {} : { descriptor }) };
}
