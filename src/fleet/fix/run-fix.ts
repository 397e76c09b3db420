/**
 * `relctl fleet fix` (DESIGN §13, Fix): the fleet audited, then for each repository the edits
 * `preflight --fix` makes for its own findings and, once its fleet parent's fix is released, the
 * move of its `<parent><version>`: as one commit on `relctl/central-portal` of its clone. With
 * `--open-prs`, relctl's branch is pushed and one pull request per repository opened or updated,
 * parents first, paced and counted. A run with nothing new changes nothing anywhere.
 */
import { applyEdits } from '../../core/fix/apply.js';
import { unifiedDiff } from '../../core/fix/unified-diff.js';
import { maskSecrets } from '../../core/secret-mask.js';
import type { CommandContext } from '../../io/command-context.js';
import type { RepoAudit } from '../audit-repo.js';
import { auditFleet, type FleetAuditOptions, type FleetContext } from '../run-audit.js';
import type { FleetChange, FleetFinding, FleetReport, FleetRepositoryReport } from '../report-types.js';
import { hostGitEnv } from '../workspace.js';
import { fixBranch, pushBranch, stageChange } from './branch.js';
import { foreignBranch, recordPushed } from './branch-owner.js';
import type { FileChange } from './own-edits.js';
import { parentBump } from './parent-bump.js';
import { closedUnmerged, createPull, equivalentPull, holdsChanges, onFixBranch, openedBy, openPulls, pullRef, sessionLogin, updatePull, PullPacer, type PullSession } from './pulls.js';
import { describeChange } from './pull-text.js';
import { placeChanges } from './tree-paths.js';
import { withWorkspaceLock } from '../workspace-lock.js';

export interface FleetFixOptions extends Omit<FleetAuditOptions, 'afterAudit'> {
  dryRun: boolean;
  openPrs: boolean;
  maxPrs: number;
  prIntervalMs: number;
  /** Opens the host's API once, when the first pull request call is needed. */
  github: () => Promise<PullSession>;
}

/** A change staged in a clone, waiting for the push and pull request phase. */
interface Staged {
  dir: string;
  url: string;
  base: string;
  commit?: string;
  remote?: string;
  changes: FileChange[];
  title: string;
  body: string;
}

/** Holds the workspace's lock from the audit to the last step (one run per workspace). */
export function fixFleet(ctx: CommandContext, options: FleetFixOptions): Promise<FleetReport> {
  return withWorkspaceLock(options.workdir, () => fixFleetLocked(ctx, options));
}

async function fixFleetLocked(ctx: CommandContext, options: FleetFixOptions): Promise<FleetReport> {
  const staged = new Map<string, Staged>();
  const report = await auditFleet(ctx, {
    ...options,
    afterAudit: async (audited, fleet) => {
      const skipped: FleetFinding[] = [];
      const change = await changeFor(ctx, audited, fleet, options, staged, skipped);
      return { change, ...(skipped.length === 0 ? {} : { findings: [...audited.report.findings, ...skipped] }) };
    },
  });
  if (!options.openPrs || options.dryRun) {
    for (const repo of report.repositories) if (repo.change?.action === 'left-alone') say(ctx, repo);
    return report;
  }
  const pacer = new PullPacer(options.maxPrs, options.prIntervalMs, ctx.signal);
  let session: PullSession | undefined;
  for (const repo of report.repositories) {
    const stage = staged.get(repo.name);
    if (repo.change?.action === 'left-alone') say(ctx, repo);
    if (stage === undefined || repo.change === undefined) continue;
    session ??= await options.github();
    try {
      Object.assign(repo, await publish(repo, stage, session, pacer, options, ctx));
    } catch (error) {
      repo.change = { ...repo.change, action: 'failed', why: error instanceof Error ? error.message : String(error) };
    }
    say(ctx, repo);
  }
  return report;
}

function say(ctx: CommandContext, repo: FleetRepositoryReport): void {
  const change = repo.change!;
  ctx.out.info(`${repo.name}: ${change.action}${repo.pullRequest === null ? '' : ` ${repo.pullRequest.url}`}${change.why === undefined ? '' : ` (${change.why})`}`);
}

/** The change of one repository, decided right after its audit (its facts at hand), staged in its clone. */
async function changeFor(ctx: CommandContext, audited: RepoAudit, fleet: FleetContext, options: FleetFixOptions, staged: Map<string, Staged>, skipped: FleetFinding[]): Promise<FleetChange> {
  const { report } = audited;
  if (report.verdict === 'error' || report.verdict === 'not-published') return { action: 'none', why: `the verdict is ${report.verdict}` };
  const decision = report.fixIn.length > 0 ? await parentBump(audited, fleet, options.offline) : undefined;
  const bump = decision !== undefined && 'bump' in decision ? decision.bump : undefined;
  const clone = fleet.clones.get(report.name)!;
  // Each edit goes to the file git keeps (a symlink's target inside the repository), never over the link.
  const placed = await placeChanges(clone.dir, clone.head, combine(audited.changes ?? [], bump?.change), ctx.env);
  skipped.push(...(audited.declined ?? []), ...placed.skipped);
  const changes = placed.changes;
  const parent = bump === undefined ? {} : { parent: { coordinates: bump.coordinates, from: bump.from, to: bump.to, repository: bump.parentRepo } };
  if (changes.length === 0) {
    const why = decision !== undefined && 'wait' in decision ? decision.wait : report.verdict === 'ready' ? 'nothing to fix' : 'no mechanical fix: the findings need a person';
    return { action: decision !== undefined && 'wait' in decision ? 'waiting' : 'none', why };
  }
  const files = changes.map((c) => c.file);
  const { title, body } = describeChange(report, changes, bump);
  if (options.dryRun) {
    // Context lines may hold a secret (a mirror URL's credentials): the same masking as preflight --fix.
    const diff = changes.map((c) => maskSecrets(unifiedDiff(c.file, c.before, c.after))).join('');
    if (!ctx.out.json) ctx.out.result(`# ${report.name}: ${title}\n${diff}`);
    return { action: 'dry-run', files, diff, ...parent };
  }
  // Someone's commit on relctl's branch is never pushed over, nor its pull request edited.
  const foreign = await foreignBranch(clone.dir, clone.head, ctx.env);
  if (foreign !== undefined) return { action: 'left-alone', why: foreign, files, ...parent };
  const stagedChange = await stageChange(clone.dir, clone.head, changes, `${title}\n\n${body}\n`, ctx.env);
  if ('failed' in stagedChange) return { action: 'failed', why: stagedChange.failed, files, ...parent };
  const commit = stagedChange.commit ?? stagedChange.remote;
  staged.set(report.name, { dir: clone.dir, url: clone.url, base: clone.head, changes, title, body, ...(stagedChange.commit === undefined ? {} : { commit: stagedChange.commit }), ...(stagedChange.remote === undefined ? {} : { remote: stagedChange.remote }) });
  const action = stagedChange.made ? 'committed' : 'unchanged';
  return { action, files, ...(commit === undefined ? {} : { commit }), ...parent };
}

/** Own edits and the parent move together; both planned on the same text, so one file's edits are applied at once. */
function combine(own: readonly FileChange[], bump: FileChange | undefined): FileChange[] {
  if (bump === undefined) return [...own];
  const same = own.find((c) => c.file === bump.file);
  if (same === undefined) return [...own, bump];
  const edits = [...same.edits, ...bump.edits];
  const after = applyEdits(same.before, edits);
  return own.map((c) => (c === same ? { ...same, after, bytes: same.encode(after), edits } : c));
}

async function publish(repo: FleetRepositoryReport, stage: Staged, session: PullSession, pacer: PullPacer, options: FleetFixOptions, ctx: CommandContext): Promise<Partial<FleetRepositoryReport>> {
  const change = repo.change!;
  const login = await sessionLogin(session);
  const pulls = await openPulls(session, repo.name);
  const onBranch = pulls.filter((p) => onFixBranch(p, repo.name));
  // A pull request is relctl's only when the token's user opened it; anyone else's on the branch is left alone.
  const theirs = onBranch.find((p) => !openedBy(p, login));
  if (theirs !== undefined) {
    const why = `pull request #${theirs.number} by ${theirs.user?.login ?? 'someone'} has ${fixBranch} as its head: it is not relctl's (the token's user is ${login}), so relctl neither pushes to the branch nor edits it`;
    return { pullRequest: pullRef(theirs), change: { ...change, action: 'left-alone', why } };
  }
  const ours = onBranch.find((p) => openedBy(p, login));
  const env = hostGitEnv(options.access, stage.url);
  if (ours === undefined) {
    // A maintainer who closed relctl's pull request said no to that change: it is not opened again
    // while the change is the same files (rebased on a moved default branch or not).
    const closed = await closedUnmerged(session, repo.name, login);
    if (closed !== undefined && (await holdsChanges(stage.dir, closed, stage.changes, env))) {
      return { pullRequest: pullRef(closed), change: { ...change, action: 'none', why: `pull request #${closed.number} with this change was closed without merging; relctl does not open it again` } };
    }
    const equivalent = await equivalentPull(stage.dir, pulls, repo.name, stage.changes, env);
    if (equivalent !== undefined) return { pullRequest: pullRef(equivalent), change: { ...change, action: 'linked', why: `pull request #${equivalent.number} by ${equivalent.user?.login ?? 'someone'} already makes these changes` } };
    // The turn is taken before the push: a pull request that may not be opened gets no branch either.
    const held = await pacer.turn();
    if (held !== undefined) return { change: { ...change, action: 'held', why: held } };
  }
  const pushed = stage.commit !== undefined && stage.commit !== stage.remote;
  if (pushed) {
    const push = await pushBranch(stage.dir, stage.commit!, stage.remote, env);
    if (!push.ok) return { change: { ...change, action: 'failed', why: `git push of ${fixBranch} was refused: ${push.why}` } };
    await recordPushed(stage.dir, stage.commit!);
  }
  if (ours !== undefined) {
    const edited = await updatePull(session, repo.name, ours, { title: stage.title, body: stage.body });
    return { pullRequest: pullRef(ours), change: { ...change, action: pushed || edited ? 'updated' : 'unchanged' } };
  }
  pacer.attempted();
  const created = await createPull(session, repo.name, { title: stage.title, body: stage.body, base: repo.branch ?? 'main' });
  if ('refused' in created) {
    if (created.repeats) pacer.stop(`GitHub refused to open a pull request on ${repo.name} with this token; relctl opens no more in this run (and pushes no branch for them)`);
    // The branch was pushed for this pull request only: back to what the remote held.
    const undone = pushed ? await pushBranch(stage.dir, stage.remote, stage.commit, env) : { ok: true as const };
    const left = undone.ok ? '' : `; ${fixBranch} stays pushed (${undone.why})`;
    return { change: { ...change, action: 'failed', why: `${created.refused}${left}` } };
  }
  ctx.out.verbose(`${repo.name}: opened pull request #${created.opened.number}`);
  return { pullRequest: created.opened, change: { ...change, action: 'opened' } };
}
