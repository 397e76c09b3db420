import { Option } from './commander.js';
import { ExitCode } from '../core/errors.js';
import { toReport } from '../core/findings.js';
import { checks } from '../checks/index.js';
import { runChecks } from '../checks/run-checks.js';
import { gatherFacts } from '../io/gather-facts.js';
import { findingsGithub, findingsJson, findingsText } from '../ui/render/findings.js';
import type { Define } from './registry.js';

export const define: Define = (program, action) => {
  program
    .command('preflight')
    .description('pre-release audit: descriptors, credentials, repository state, keys and namespace')
    .option('--offline', 'skip the checks that need the network (portal, key servers, public repository)')
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'github']).default('text'))
    .action(
      action(async (ctx, opts) => {
        const offline = opts.offline === true;
        const facts = await gatherFacts(ctx, { offline });
        const report = toReport(runChecks(checks, facts, { offline }));
        if (ctx.out.json) ctx.out.resultJson(findingsJson(report));
        else if (opts.format === 'github') ctx.out.result(findingsGithub(report));
        else ctx.out.result(findingsText(report, ctx.out.c, 'preflight'));
        return report.ok ? ExitCode.ok : ExitCode.failed;
      }),
    );
};
