import { Option } from './commander.js';
import { EnvironmentError, ExitCode, errorJson, failureJson } from '../core/errors.js';
import { toReport } from '../core/findings.js';
import { checks } from '../checks/index.js';
import type { OnlineSections } from '../checks/online-types.js';
import { unansweredFix, unansweredLookups } from '../checks/online-unanswered.js';
import { runChecks } from '../checks/run-checks.js';
import { gatherFacts } from '../io/gather-facts.js';
import { factsRead } from '../ui/render/facts-read.js';
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
        const began = Date.now();
        const facts = await gatherFacts(ctx, { offline });
        const gathered = Date.now();
        for (const line of factsRead(facts)) ctx.out.verbose(line);
        const checked = toReport(runChecks(checks, facts, { offline }));
        ctx.out.verbose(`read everything in ${gathered - began} ms${offline ? ' (offline)' : ' (online lookups included)'}; ran the checks in ${Date.now() - gathered} ms`);
        // An online check that got no answer (network, timeout, 5xx) is not a pass: exit 3.
        const unreachable = offline ? [] : unansweredLookups(facts.online as OnlineSections | undefined);
        const failure =
          unreachable.length === 0
            ? undefined
            : new EnvironmentError(unreachable.join('\n'), {
                kind: 'service-unreachable',
                fix: unansweredFix,
              });
        const report = failure !== undefined ? { ...checked, ok: false } : checked;
        if (ctx.out.json) {
          const error = failure !== undefined ? errorJson(failure) : report.ok ? undefined : checksFailed(report.findings);
          ctx.out.resultJson(findingsJson(report, error === undefined ? {} : { error }));
        } else if (opts.format === 'github') ctx.out.result(findingsGithub(report));
        else ctx.out.result(findingsText(report, ctx.out.c, failure === undefined ? 'preflight' : 'preflight (incomplete: a service could not be asked)'));
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
