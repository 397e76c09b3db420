/**
 * relctl init's answers (DESIGN §1, §12): a flag wins; else what the project shows (the origin
 * remote's host, the route preflight reads from the build, the groupId); else a question on a
 * terminal; else a usage error naming the flag. Each answer taken from the project is said on
 * stderr, with the flag that overrides it.
 */
import { UsageError } from '../core/errors.js';
import type { BuildTool } from '../core/build-tool.js';
import { ciHostOf, ciHosts, releaseRoutes, type CiHost, type InitAnswers, type ReleaseRoute } from '../core/ci/answers.js';
import { groupIdProblem } from '../core/identifiers.js';
import type { RouteKind } from '../checks/route-types.js';
import type { CommandContext } from '../io/command-context.js';
import type { RepositoryPlace } from '../io/ci-place.js';
import { askChoice, askText } from '../ui/ask.js';

export interface InitFacts {
  buildTool: BuildTool;
  ci?: { host: CiHost; why: string };
  route: { kind: RouteKind; why?: string };
  groupId?: string;
}

/** What the project shows: read as preflight reads it, offline. */
export async function detectInitFacts(ctx: CommandContext, place: RepositoryPlace): Promise<InitFacts> {
  const { gatherFacts } = await import('../checks/gather-facts.js');
  const facts = await gatherFacts(ctx, { offline: true, skipOnlineChecks: true });
  const { readIdentity } = await import('../io/project.js');
  const groupId = await readIdentity(ctx.cwd).then((p) => p.groupId).catch(() => undefined);
  const evidence = facts.route?.evidence[0];
  const ci = ciHostOf(place);
  return {
    buildTool: facts.buildTool,
    ...(ci === undefined ? {} : { ci }),
    route: { kind: facts.route?.kind ?? 'unknown', ...(evidence === undefined ? {} : { why: `${evidence.file}:${evidence.line}` }) },
    ...(groupId === undefined || groupIdProblem(groupId) !== undefined ? {} : { groupId }),
  };
}

interface Given {
  ci?: CiHost;
  route?: ReleaseRoute;
  namespace?: string;
  yes: boolean;
}

export async function resolveAnswers(ctx: CommandContext, facts: InitFacts, given: Given): Promise<Omit<InitAnswers, 'relctlVersion'>> {
  const canAsk = ctx.canPrompt && !given.yes;
  const said = (what: string, why: string, flag: string): void => ctx.out.info(`${what} (${why}; ${flag} to choose otherwise)`);
  const missing = (what: string, flag: string, example: string): UsageError =>
    new UsageError(`relctl init needs ${what}, the project does not show it, and no one can be asked here (CI, no terminal, --yes or --json).`, {
      kind: 'init-answer-needed',
      fix: `Pass ${flag}, e.g. ${example}.`,
    });

  let ci = given.ci;
  if (ci === undefined && facts.ci !== undefined) {
    ci = facts.ci.host;
    said(`CI host: ${ci}`, facts.ci.why, '--ci');
  }
  if (ci === undefined) {
    if (!canAsk) throw missing('the CI host', '--ci github|gitlab', 'relctl init --ci github');
    ci = await askChoice('Which CI runs relctl?', ciHosts, 'github');
  }

  let route = given.route;
  const detected = facts.route.kind;
  if (route === undefined && (releaseRoutes as readonly string[]).includes(detected)) {
    route = detected as ReleaseRoute;
    said(`route: ${route}`, `read from the build${facts.route.why === undefined ? '' : ` at ${facts.route.why}`}`, '--route');
  }
  // Said whether or not --route was given: the workflows init writes cannot release such a build.
  if (detected === 'legacy-ossrh') ctx.out.warn('The build still publishes to a retired OSSRH host: relctl preflight shows where (legacy-staging-host); fix that before the first CI release.');
  if (route === undefined) {
    if (!canAsk) throw missing(`the publishing route (the build shows "${detected}")`, `--route ${releaseRoutes.join('|')}`, 'relctl init --route staging-api');
    route = await askChoice('Which way does the release reach Maven Central?', releaseRoutes, 'staging-api');
  }

  // A namespace named (flag, config or answer) is written as `namespace`; a groupId only as
  // `groupId`, whose namespace the portal commands find (it may be shorter: org.example for org.example.app).
  let namespace = given.namespace ?? ctx.config.namespace;
  let groupId = namespace === undefined ? ctx.config.groupId : undefined;
  if (namespace === undefined && groupId === undefined && facts.groupId !== undefined) {
    groupId = facts.groupId;
    said(`groupId: ${groupId}`, "the project's; the portal commands find the namespace holding it", '--namespace');
  }
  // The staging API's upload call names the namespace; the Publisher API bundle does not need it.
  if (namespace === undefined && groupId === undefined && route === 'staging-api') {
    if (!canAsk) throw missing('the namespace (the staging API upload names it)', '--namespace G', 'relctl init --namespace io.github.jane');
    namespace = await askText('Namespace (verified in the portal, e.g. io.github.jane):', undefined, groupIdProblem);
  }
  return { ci, buildTool: facts.buildTool, route, ...(namespace === undefined ? {} : { namespace }), ...(groupId === undefined ? {} : { groupId }) };
}
