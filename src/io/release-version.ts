import { EnvironmentError, StepFailedError, UsageError } from '../core/errors.js';
import { releaseTags } from '../core/notes/range.js';
import { releaseVersionProblem } from '../core/version.js';
import type { CommandContext } from './command-context.js';
import { listTags } from './git.js';
import { pomUrl } from './public-repo.js';
import { describeVerdict, publishedVerdict } from './published.js';
import { readJournal } from './journal.js';
import { readIdentity, type ProjectIdentity } from './project.js';

export interface ReleaseTarget {
  identity: ProjectIdentity;
  version: string;
  /** Where the version came from, for --verbose. */
  source: 'flag' | 'journal' | 'tag';
}

/**
 * The version a post-release command works on (DESIGN §11): `--release-version`, else the
 * journal's last release, else the newest release tag.
 */
export async function resolveReleaseTarget(cwd: string, env: NodeJS.ProcessEnv, flag: unknown): Promise<ReleaseTarget> {
  const identity = await readIdentity(cwd);
  if (typeof flag === 'string') {
    const problem = releaseVersionProblem(flag);
    if (problem !== undefined) {
      throw new UsageError(`--release-version ${JSON.stringify(flag)}: not a release version X.Y.Z (${problem}).`, { fix: 'Pass the released version, e.g. --release-version 5.1.0.' });
    }
    return { identity, version: flag, source: 'flag' };
  }
  const journal = await readJournal(cwd);
  if (journal.release !== undefined) return { identity, version: journal.release.version, source: 'journal' };
  const newest = releaseTags(await listTags(cwd, { env }), identity.artifactId)[0];
  if (newest !== undefined) return { identity, version: newest.version, source: 'tag' };
  throw new UsageError('No release version is known: the journal records no release and no release tag exists.', {
    kind: 'no-release-version',
    fix: 'Pass --release-version X.Y.Z.',
  });
}

export interface PublishedGuard {
  /** `--force`: go on with a version the public repository does not have. */
  force: boolean;
  /** A dry run only warns: it shows what a real run would do, and needs no network answer. */
  dryRun: boolean;
  /** What would be built from the version, for the message: "a distribution pull request". */
  what: string;
}

/**
 * DESIGN §11: `distribute`, `image` and `notify announce|social` work on a released version only.
 * A version the public repository does not have (an orphan, a deployment still VALIDATING, a typo)
 * is refused (exit 1, naming relctl status) unless `--force`; an answer that cannot tell is exit 3.
 */
export async function requirePublished(ctx: CommandContext, target: ReleaseTarget, guard: PublishedGuard): Promise<void> {
  const { identity, version } = target;
  const query = { publicRepoUrl: ctx.config.publicRepoUrl, groupId: identity.groupId, artifactId: identity.artifactId, version };
  // A version once seen published stays published: the chain's announcement and social post
  // (and any later check in this process) do not ask again.
  if (knownPublished.has(pomUrl(query))) return;
  const answer = await publishedVerdict(ctx, { groupId: identity.groupId, artifactId: identity.artifactId, version });
  ctx.out.verbose(`${answer.url}: ${describeVerdict(answer)}`);
  const where = answer.source === 'portal' ? `the portal (${hostOf(ctx.config.portalUrl)})` : hostOf(ctx.config.publicRepoUrl);
  // The portal said PUBLISHED for this very release (the chain's status step): Central's public
  // repository lags the portal by up to half an hour, which is no reason to stop the chores.
  let known = answer.published === true;
  if (!known && (await portalSaidPublished(ctx.cwd, version))) {
    ctx.out.info(`${identity.artifactId} ${version} is not on ${where} yet, but the portal reported the deployment PUBLISHED (journal); going on.`);
    known = true;
  }
  if (known) {
    knownPublished.add(pomUrl(query));
    if (answer.published === true) ctx.out.info(`${identity.artifactId} ${version}: ${describeVerdict(answer)}.`);
    return;
  }
  if (guard.force) {
    ctx.out.warn(`${identity.artifactId} ${version} is ${answer.published === false ? 'not' : 'not known to be'} on ${where}; going on because of --force.`);
    return;
  }
  const message =
    answer.published === false
      ? `${identity.groupId}:${identity.artifactId}:${version} is not on ${where}: refusing to build ${guard.what} for a version nobody can download.`
      : `Cannot tell whether ${identity.groupId}:${identity.artifactId}:${version} is published (${answer.source}: ${'reason' in answer ? answer.reason : 'no answer'}): refusing to build ${guard.what} for a version that may not be downloadable.`;
  if (guard.dryRun) {
    ctx.out.warn(`${message} (dry run: going on to show the rest)`);
    return;
  }
  const fix =
    answer.published === false
      ? `Check the deployment with relctl status (publish it with relctl publish once VALIDATED; the public repository can take a while to show it), pass the released --release-version, or run the command itself with --force to go on anyway.`
      : `Check the network, RELCTL_PORTAL_URL and RELCTL_PUBLIC_REPO_URL, then run again; the command itself with --force goes on without the check.`;
  if (answer.published === false) throw new StepFailedError(message, { kind: 'version-not-published', fix, data: { url: answer.url } });
  throw new EnvironmentError(message, { kind: 'service-unreachable', fix, data: { url: answer.url } });
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** The public-repository POM URLs of versions this process found published (or the portal said so). */
const knownPublished = new Set<string>();

/** Does the journal record the portal's PUBLISHED for the release of `version`? */
async function portalSaidPublished(cwd: string, version: string): Promise<boolean> {
  const journal = await readJournal(cwd).catch(() => undefined);
  if (journal?.release?.version !== version) return false;
  return journal.steps.some((s) => s.status === 'done' && s.data?.deploymentState === 'PUBLISHED');
}
