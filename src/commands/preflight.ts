import { Option } from './commander.js';
import { ExitCode } from '../core/errors.js';
import { findingGroups, groupOf, selectedGroups } from '../core/finding-groups.js';
import { toReport } from '../core/findings.js';
import { checks } from '../checks/index.js';
import { keyLookupErrors } from '../checks/online-keys.js';
import type { OnlineSections } from '../checks/online-types.js';
import { runChecks } from '../checks/run-checks.js';
import { gatherFacts } from '../io/gather-facts.js';
import { findingsGithub, findingsJson, findingsText } from '../ui/render/findings.js';
import { routeGithub, routeJson, routeLine } from '../ui/render/route.js';
import type { Define } from './registry.js';

export const define: Define = (program, action) => {
  program
    .command('preflight')
    .description('pre-release audit: descriptors, credentials, repository state, keys and namespace')
    .option('--offline', 'skip the checks that need the network (portal, key servers, public repository)')
    .option('--skip <groups...>', 'leave out these finding groups: descriptors, credentials, signing, repository, online')
    .option('--only <groups...>', 'check only these finding groups')
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'github']).default('text'))
    .action(
      action(async (ctx, opts) => {
        const offline = opts.offline === true;
        // Validated before any work: a bad group is a usage error (exit 2) naming it.
        const groups = selectedGroups(opts.skip as string[] | undefined, opts.only as string[] | undefined);
        const left = findingGroups.filter((g) => !groups.has(g));
        if (left.length > 0) ctx.out.info(`note: not checked: the ${left.join(', ')} group${left.length === 1 ? '' : 's'}.`);
        const facts = await gatherFacts(ctx, { offline, skipOnlineChecks: !groups.has('online') });
        const all = runChecks(checks, facts, { offline });
        const checked = toReport(all.filter((f) => groups.has(groupOf(f.code) ?? 'descriptors')));
        // An online lookup that got no answer (network, timeout, 5xx) is not a pass: exit 3.
        const unreachable = [...(facts.unreachable ?? []), ...(offline || !groups.has('online') ? [] : onlineErrors(facts.online as OnlineSections | undefined))];
        const report = unreachable.length > 0 ? { ...checked, ok: false } : checked;
        const route = facts.route ?? { kind: 'unknown' as const, evidence: [] };
        if (ctx.out.json) ctx.out.resultJson(findingsJson(report, { route: routeJson(route) }));
        else if (opts.format === 'github') ctx.out.result([routeGithub(route), findingsGithub(report)].filter((l) => l !== '').join('\n'));
        else ctx.out.result(`${routeLine(route, ctx.out.c)}\n\n${findingsText(report, ctx.out.c, 'preflight')}`);
        if (unreachable.length > 0) {
          for (const e of unreachable) ctx.out.error(e);
          ctx.out.info(`${ctx.out.c.bold('fix:')} Check the network and the service URLs (--staging-api-url, --public-repo-url, --keyserver-url, ...), then run preflight again (--offline skips the online checks).`);
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
