import { Option } from './commander.js';
import { ExitCode } from '../core/errors.js';
import { toReport } from '../core/findings.js';
import { checks } from '../checks/index.js';
import { keyLookupErrors } from '../checks/online-keys.js';
import type { OnlineSections } from '../checks/online-types.js';
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
        const checked = toReport(runChecks(checks, facts, { offline }));
        // An online check that got no answer (network, timeout, 5xx) is not a pass: exit 3.
        const unreachable = offline ? [] : onlineErrors(facts.online as OnlineSections | undefined);
        const report = unreachable.length > 0 ? { ...checked, ok: false } : checked;
        if (ctx.out.json) ctx.out.resultJson(findingsJson(report));
        else if (opts.format === 'github') ctx.out.result(findingsGithub(report));
        else ctx.out.result(findingsText(report, ctx.out.c, 'preflight'));
        if (unreachable.length > 0) {
          for (const e of unreachable) ctx.out.error(e);
          ctx.out.info(`${ctx.out.c.bold('fix:')} Check the network and the service URLs (--staging-api-url, --keyserver-url, ...), then run preflight again (--offline skips the online checks).`);
          return ExitCode.environment;
        }
        return report.ok ? ExitCode.ok : ExitCode.failed;
      }),
    );
};

/** The online lookups that got no answer: the portal search and the key-server lookups. */
function onlineErrors(online: OnlineSections | undefined): string[] {
  const out: string[] = [];
  const auth = online?.portal?.auth;
  if (typeof auth === 'object') out.push(`The staging API could not be asked: ${auth.error}`);
  if (online?.keys !== undefined) out.push(...keyLookupErrors(online.keys));
  return out;
}
