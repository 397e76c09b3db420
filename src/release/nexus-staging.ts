/**
 * The nexus-staging route of a Maven release (DESIGN §6): nexus-staging-maven-plugin staged the
 * release locally during release:perform (-DskipRemoteStaging=true); after relctl's verify, its
 * `deploy-staged` uploads and closes the staging repository (the close hands it to the portal),
 * and relctl follows that repository to its portal deployment, named
 * "<repository id> (via OSSRH API Proxy)". No manual upload call.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { StepFailedError } from '../core/errors.js';
import { deploymentNameMatches, nexusDeployStagedGoal, stagingRepositoryIdFromContext, stagingRepositoryIdsFromPluginLog } from '../core/publishing-route.js';
import { mavenDeployStaged, releaseCheckoutDir } from '../build-tools/maven-release.js';
import { deploymentsUrl } from '../portal/decode.js';
import { portalSession } from '../portal/session.js';
import type { PortalClient } from '../portal/client.js';
import type { CommandContext } from '../io/command-context.js';
import { withMavenSession } from './with-maven-session.js';
import type { ReleaseContext, StepDeps } from './types.js';

const skipDirs = new Set(['.git', 'src', 'node_modules', '.relctl']);

/** Every `target/nexus-staging/staging` folder of the release checkout (the plugin's first module that declares it owns one). */
export async function localStagingDirs(checkout: string, depth = 3): Promise<string[]> {
  const out: string[] = [];
  const staging = path.join(checkout, 'target', 'nexus-staging', 'staging');
  if ((await readdir(staging).catch(() => undefined)) !== undefined) out.push(staging);
  if (depth === 0) return out;
  for (const entry of await readdir(checkout, { withFileTypes: true }).catch(() => [])) {
    if (!entry.isDirectory() || skipDirs.has(entry.name) || entry.name === 'target') continue;
    out.push(...(await localStagingDirs(path.join(checkout, entry.name), depth - 1)));
  }
  return out;
}

/** The repositories remote staging already made: the context files (`<profile>.properties`) the plugin leaves beside its staging folders. */
export async function remoteStagedIds(stagingDirs: readonly string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const dir of stagingDirs) {
    for (const name of await readdir(dir).catch(() => [] as string[])) {
      if (!name.endsWith('.properties')) continue;
      const id = stagingRepositoryIdFromContext(await readFile(path.join(dir, name), 'utf8').catch(() => ''));
      if (id !== undefined && !ids.includes(id)) ids.push(id);
    }
  }
  return ids;
}

/** `org.example--<uuid>` → `org.example`: the profile (namespace) the repository was started in. */
function profileOf(repositoryId: string): string {
  const i = repositoryId.lastIndexOf('--');
  return i > 0 ? repositoryId.slice(0, i) : repositoryId;
}

/**
 * The portal deployment a closed staging repository became: the search lists the repository with
 * its `portal_deployment_id`; the deployment's name, "<repository id> (via OSSRH API Proxy)",
 * confirms it. Undefined when the repository has no deployment (it was never closed).
 */
export async function deploymentOfRepository(portal: PortalClient, repositoryId: string): Promise<{ deploymentId: string; state: string } | undefined> {
  const repos = await portal.search({ namespace: profileOf(repositoryId), ip: 'any' });
  const repo = repos.find((r) => r.key === repositoryId && r.portalDeploymentId !== null);
  if (repo?.portalDeploymentId == null) return undefined;
  const status = await portal.status(repo.portalDeploymentId);
  if (!deploymentNameMatches(status.deploymentName, repositoryId)) return undefined;
  return { deploymentId: repo.portalDeploymentId, state: status.deploymentState };
}

/**
 * The upload step on this route: deploy-staged (unless the plugin already staged remotely: its
 * context file names the repository, so a resumed run never uploads twice), then the deployment.
 */
export async function uploadNexusStaged(rc: Readonly<ReleaseContext>, deps: StepDeps): Promise<Partial<ReleaseContext>> {
  const { ctx, options, proc } = deps;
  const checkout = rc.releaseDir ?? releaseCheckoutDir(ctx.cwd);
  if (options.dryRun) {
    ctx.out.wouldDo(`mvn -B ${nexusDeployStagedGoal} (in ${path.relative(ctx.cwd, checkout) || '.'}): upload what nexus-staging-maven-plugin staged locally, close the staging repository, then follow it to its portal deployment`);
    return {};
  }
  let ids = rc.stagingRepositoryIds ?? (await remoteStagedIds(await localStagingDirs(checkout)));
  let failure: { output: string; command: string } | undefined;
  if (ids.length === 0) {
    const r = await withMavenSession(deps, rc.fingerprint, (session) => mavenDeployStaged(proc, session, checkout));
    ids = stagingRepositoryIdsFromPluginLog(r.output);
    if (r.exitCode !== 0) failure = r;
  } else ctx.out.info(`  nexus-staging-maven-plugin already staged ${ids.join(', ')} remotely: following it (no second upload)`);
  if (ids.length === 0) {
    const tail = (failure?.output ?? '').split('\n').filter((l) => l.includes('[ERROR]')).slice(0, 20).join('\n');
    throw new StepFailedError(`${nexusDeployStagedGoal} made no staging repository.${tail === '' ? '' : `\n${tail}`}`, {
      kind: 'command-failed',
      fix: 'Fix the cause shown above (the plugin\'s <nexusUrl>, <serverId> and its <server> in the settings), then run `relctl release --resume`.',
      ...(failure === undefined ? {} : { detail: `command: ${failure.command} (in ${checkout})` }),
    });
  }
  if (ids.length > 1) ctx.out.warn(`The plugin staged ${ids.length} repositories (${ids.join(', ')}): relctl follows the first; see relctl search for the others.`);
  const repositoryId = ids[0]!;
  const session = await portalSession(ctx);
  try {
    const found = await deploymentOfRepository(session.portal, repositoryId);
    const url = deploymentsUrl(ctx.config.portalUrl);
    if (found === undefined) {
      throw new StepFailedError(`The staging repository ${repositoryId} has no portal deployment: it was not closed${failure === undefined ? '' : ` (${nexusDeployStagedGoal} failed)`}.`, {
        kind: failure === undefined ? 'not-closed' : 'command-failed',
        fix: `Close it (mvn nexus-staging:rc-close -DstagingRepositoryId=${repositoryId}, in ${checkout}), then run \`relctl release --resume\`.`,
        data: { repositoryKey: repositoryId },
      });
    }
    if (failure !== undefined && found.state !== 'FAILED') {
      ctx.out.warn(`${nexusDeployStagedGoal} failed after closing ${repositoryId}; its deployment ${found.deploymentId} is ${found.state}: following it.`);
    }
    // A FAILED deployment is the status step's to report (its findings, how to unblock the namespace).
    return { repositoryKey: repositoryId, stagingRepositoryIds: ids, deploymentId: found.deploymentId, deploymentsUrl: url };
  } finally {
    await session.http.close();
  }
}

/** Said once in the build step: what relctl does on this route. */
export function nexusRouteNote(ctx: CommandContext, argument: string): void {
  ctx.out.info(`  nexus-staging-maven-plugin deploys: it stages locally during release:perform (${argument}), relctl verifies those files, then ${nexusDeployStagedGoal} uploads and closes them`);
}
