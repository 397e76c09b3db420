import path from 'node:path';
import { Option } from './commander.js';
import { ExitCode, errorJson, failureJson } from '../core/errors.js';
import { toReport } from '../core/findings.js';
import { detectBuildTool } from '../io/build-tool.js';
import { fromGradleBuild, fromMavenLayout, fromMavenTargets } from '../keys/artifacts.js';
import { verifyWithContext } from '../keys/verify.js';
import { findingsGithub, findingsJson, findingsText } from '../ui/render/findings.js';
import { githubPaths, isReportFormat, printReport, refuseJsonWithReport, reportFormats } from './render/report-formats.js';
import { verifySuites } from './render/verify-suites.js';
import type { Define } from './define.js';
import { addFindingControlOptions, controlledReport, reportErrorJson, sayTooManyWarnings } from './finding-controls.js';
import { applyFindingRules } from '../core/finding-rules.js';
import { hasErrors } from '../core/findings.js';
import { addBudgetOptions, budgetOptions } from '../release/options.js';
import { budgetDocument, budgetText, checkBudget, countedFiles, overBudgetError } from '../release/publishing-budget.js';

export const define: Define = (program, action) => {
  addFindingControlOptions(addBudgetOptions(program
    .command('verify')
    .description("replay the portal's validation rules on the built artifacts before the upload")
    .option('--dir <folder>', 'a Maven-layout staging folder to check instead of the build output')
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'github', ...reportFormats]).default('text'))))
    .action(
      action(async (ctx, opts) => {
        refuseJsonWithReport(ctx, opts.format);
        const set =
          typeof opts.dir === 'string'
            ? await fromMavenLayout(path.resolve(ctx.cwd, opts.dir), ctx.cwd)
            : (await detectBuildTool(ctx.cwd)) === 'maven'
              ? await fromMavenTargets(ctx.cwd)
              : await fromGradleBuild(ctx.cwd);
        ctx.out.verbose(`checking ${set.files.size} files from ${set.from}`);
        const { verdicts, findings } = await verifyWithContext(ctx, set);
        const controlled = controlledReport(ctx, applyFindingRules(toReport(findings), ctx.config.rules), opts);
        // What these files cost against the month's publishing budget (DESIGN §5a).
        const flags = budgetOptions(opts);
        const budget = await checkBudget(ctx, flags, { files: countedFiles(set), ...(verdicts[0] === undefined ? {} : { component: `${verdicts[0].groupId}:${verdicts[0].artifactId}` }) });
        const overBudget = overBudgetError(budget, flags);
        const report = overBudget === undefined ? controlled.report : { ...controlled.report, ok: false };
        // A component passes when no error is left for it once the project's rules applied.
        const passes = (v: { groupId: string; artifactId: string }): boolean => !report.findings.some((f) => f.severity === 'error' && f.module === `${v.groupId}:${v.artifactId}`);
        const components = verdicts.map((v) => ({ purl: v.purl, packaging: v.packaging, files: v.files, ok: passes(v) }));
        if (ctx.out.json) {
          const error =
            reportErrorJson(controlled, undefined, () =>
              failureJson('verify-failed', 'The portal would fail this deployment: see the findings.', 'Fix the findings, rebuild, then verify again; do not upload before.'),
            ) ?? (overBudget === undefined ? undefined : errorJson(overBudget));
          ctx.out.resultJson(findingsJson(report, { components, publishingBudget: budgetDocument(budget), ...(error === undefined ? {} : { error }) }));
        }
        else if (isReportFormat(opts.format)) await printReport(ctx, opts.format, report, { command: 'verify', suites: verifySuites(verdicts), rules: ctx.config.rules });
        else if (opts.format === 'github') ctx.out.resultCommands(findingsGithub(report, await githubPaths(ctx)));
        else {
          for (const v of verdicts) ctx.out.info(`${passes(v) ? 'ok    ' : 'FAILED'} ${v.purl} (${v.files.length} files)`);
          ctx.out.result(`${findingsText(controlled.report, ctx.out.c, `verify (${verdicts.length} component${verdicts.length === 1 ? '' : 's'})`)}\n\n${budgetText(budget).join('\n')}`);
          if (overBudget !== undefined) ctx.out.info(`${overBudget.message}\nfix: ${overBudget.fix ?? ''}`);
          if (hasErrors(report.findings)) ctx.out.info('Do not upload: the portal would fail this deployment and block the namespace until it is dropped.');
        }
        sayTooManyWarnings(ctx, controlled);
        return report.ok ? ExitCode.ok : ExitCode.failed;
      }),
    );
};
