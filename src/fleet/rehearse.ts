/**
 * `relctl fleet rehearse` (DESIGN §13 Rehearse): the fleet audited as `fleet audit` audits it, then
 * each `ready` repository rehearsed with `relctl rehearse`'s own machinery, parents first: a
 * throwaway copy of its clone, a throwaway bare remote, the release build deploying to one sandbox
 * started for the whole run, and the portal's verdict. Every build's local repository is the
 * fleet's own (fleet-m2.ts), where each rehearsed release is installed for the children.
 *
 * A child whose `<parent>` is a fleet parent's current snapshot needs the release that parent's
 * rehearsal made: it is rehearsed on it, its copy's `<parent><version>` moved there, as `fleet fix`
 * moves it before the real release (the release plugin refuses a snapshot parent). When that
 * rehearsal did not succeed, or did not run, the child is `skipped` and says why. A child naming
 * another version of a fleet parent (a published one) does not wait on the parent's rehearsal.
 */
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { CommandContext } from '../io/command-context.js';
import { onInterrupt } from '../io/interrupt.js';
import { makeOwnedTempDir } from '../io/owned-temp.js';
import { parseXml } from '../core/pom/xml.js';
import { elementAt, isEmptyTag } from '../checks/fixes/xml-fix-support.js';
import { trimmedRange } from '../checks/fixes/edits.js';
import { reactorPomFiles } from '../build-tools/maven-release.js';
import { rehearse, type RehearsalResult, type RehearseOptions } from '../release/rehearse/run.js';
import { startRehearsalSandbox } from '../release/rehearse/sandbox.js';
import { repositoryContext } from './audit-repo.js';
import { FleetM2 } from './fleet-m2.js';
import { inOrderPool } from './pool.js';
import type { FleetRehearsal, FleetReport, FleetRepositoryReport } from './report-types.js';
import { auditFleetIndexed, type FleetAuditOptions, type IndexedAudit } from './run-audit.js';
import { fleetReport, type FleetFailure } from './report-document.js';
import { succeeded } from '../release/rehearse/result.js';
import { encodeLike, readFixFile } from '../io/fix-files.js';
import { withWorkspaceLock } from './workspace-lock.js';

export interface FleetRehearseOptions {
  audit: FleetAuditOptions;
  /** Rehearsals at once: 1 (one Maven build at a time) unless --jobs. */
  jobs: number;
  rehearse: Pick<RehearseOptions, 'sign' | 'publish' | 'skipTests' | 'waitTimeout' | 'mavenMirror'>;
  /** Each repository's report, its rehearsal included, in parents-first order. */
  onRehearsal?: (report: FleetRepositoryReport) => void;
}

/** What a child needs to know of its parent's rehearsal. */
export type Outcome = { ok: true; released: string } | { ok: false; why: string };

/** A child's fleet parents: the snapshots its copy moves to their rehearsed releases, and the releases it builds on. */
interface ParentPlan {
  moves: Map<string, string>;
  builtOn: string[];
}

/** The success verdicts of the portal: a rehearsal that reached one counts. */
export function rehearsalSucceeded(r: FleetRehearsal | null): boolean {
  return succeeded(r?.verdict);
}

/** Why a rehearsed fleet is not ok: ready repositories whose rehearsal did not succeed. */
export function rehearsalFailure(report: FleetReport): FleetFailure {
  const failed = report.repositories.filter((r) => r.verdict === 'ready' && !rehearsalSucceeded(r.rehearsal)).length;
  return {
    code: 'fleet-rehearsal-failed',
    message: `${failed} of ${report.summary.verdicts.ready} ready repositories did not reach the portal's success verdict in their rehearsal.`,
    fix: "Read each repository's rehearsal (verdict and reason); rehearse one alone with relctl rehearse --cwd <its clone in the workspace> --verbose.",
  };
}

/** Holds the workspace's lock from the audit to the last step (one run per workspace). */
export function rehearseFleet(ctx: CommandContext, o: FleetRehearseOptions): Promise<FleetReport> {
  return withWorkspaceLock(o.audit.workdir, () => rehearseFleetLocked(ctx, o));
}

async function rehearseFleetLocked(ctx: CommandContext, o: FleetRehearseOptions): Promise<FleetReport> {
  const audited = await auditFleetIndexed(ctx, o.audit);
  const { report } = audited;
  const order = report.repositories.map((r) => r.name);
  const ready = report.repositories.filter((r) => r.verdict === 'ready').map((r) => r.name);
  const m2 = new FleetM2(o.audit.workdir);
  await m2.forget(ready);
  const settled = new Map(order.map((name) => [name, deferred<Outcome>()]));
  const work = await makeOwnedTempDir('relctl-fleet-rehearse-');
  const unregister = onInterrupt(() => rm(work, { recursive: true, force: true }));
  // One sandbox for the run, one account per repository (sandbox.ts says why).
  const accounts = new Map(ready.map((name, i) => [name, `rehearsal-${i + 1}`]));
  const sandbox = await startRehearsalSandbox(ctx, work, [...accounts.values()]);
  const repositories: FleetRepositoryReport[] = [];
  try {
    await inOrderPool(
      report.repositories,
      o.jobs,
      async (r, i) => {
        const done = settled.get(r.name)!;
        try {
          const { rehearsal, outcome } = await rehearseOne(r, i);
          done.resolve(outcome);
          return { ...r, rehearsal };
        } catch (error) {
          done.resolve({ ok: false, why: `the rehearsal of ${r.name} was interrupted` });
          throw error;
        }
      },
      (r) => {
        repositories.push(r);
        o.onRehearsal?.(r);
      },
      ctx.signal,
    );
  } finally {
    await sandbox.running.close();
    await rm(work, { recursive: true, force: true });
    unregister();
  }
  const ok = repositories.every((r) => r.verdict !== 'ready' || rehearsalSucceeded(r.rehearsal));
  return { ...fleetReport(repositories, report.summary.edges, report.environment), ok };

  async function rehearseOne(r: FleetRepositoryReport, i: number): Promise<{ rehearsal: FleetRehearsal; outcome: Outcome }> {
    if (r.verdict !== 'ready') {
      const why = r.verdict === 'not-published' ? 'it publishes nothing to Maven Central' : `its audit verdict is ${r.verdict}`;
      return { rehearsal: { verdict: 'skipped', reason: `not rehearsed: ${why}` }, outcome: { ok: false, why: `${r.name} was not rehearsed (${why})` } };
    }
    const parents = await parentsOf(audited, r.name, order, (name) => settled.get(name)!.promise);
    if ('blocker' in parents) return { rehearsal: { verdict: 'skipped', reason: parents.blocker }, outcome: { ok: false, why: `${r.name} was skipped` } };
    const dir = audited.dirs.get(r.name)!;
    const base = await repositoryContext(ctx, dir, o.audit.flags);
    const held = path.join(work, 'released', String(i));
    let result: RehearsalResult;
    try {
      result = await rehearse(
        { ...base, config: { ...base.config, localRepo: m2.dir } },
        { ...o.rehearse, keep: false, postRelease: false, sandbox: sandbox.accounts.get(accounts.get(r.name)!)!, prepareCopy: (copy) => moveParents(copy, parents.moves), keepReleased: held },
      );
    } catch (error) {
      if (ctx.signal.aborted) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      return { rehearsal: { verdict: 'error', reason }, outcome: { ok: false, why: `the rehearsal of ${r.name} could not finish` } };
    }
    const version = result.project.version;
    if (!result.ok) {
      const reason = result.error?.message ?? `the portal's verdict is ${result.verdict}`;
      return { rehearsal: { verdict: result.verdict, version, ...builtOn(parents), reason }, outcome: { ok: false, why: `the rehearsal of ${r.name} ended ${result.verdict}` } };
    }
    const poms = audited.poms.filter((p) => p.repo === r.name).map((pom) => ({ pom, file: path.join(dir, ...pom.file.split('/')) }));
    const installed = await m2.install(r.name, version, held, poms);
    return { rehearsal: { verdict: result.verdict, version, ...builtOn(parents), installed }, outcome: { ok: true, released: version } };
  }
}

/**
 * The versions a repository's POMs must move to (`groupId:artifactId:snapshot` → the rehearsed
 * release), waiting for each fleet parent that appears before it; or why it cannot be rehearsed.
 */
export async function parentsOf(
  audited: Pick<IndexedAudit, 'poms' | 'index'>,
  name: string,
  order: readonly string[],
  outcomeOf: (name: string) => Promise<Outcome>,
): Promise<ParentPlan | { blocker: string }> {
  const moves = new Map<string, string>();
  const builtOn = new Set<string>();
  for (const pom of audited.poms) {
    const ref = pom.parent;
    if (pom.repo !== name || ref?.version === undefined) continue;
    const built = audited.index.builder(ref.groupId, ref.artifactId);
    if (built === undefined || built.repo === name) continue;
    // Only a parent placed before it is waited on: in a parent cycle, the later one is not rehearsed first.
    const before = order.indexOf(built.repo) >= 0 && order.indexOf(built.repo) < order.indexOf(name);
    const outcome = before ? await outcomeOf(built.repo) : undefined;
    const coords = `${ref.groupId}:${ref.artifactId}:${ref.version}`;
    const current = built.version?.endsWith('-SNAPSHOT') === true && ref.version === built.version;
    if (!current && !(outcome?.ok === true && outcome.released === ref.version)) continue;
    if (outcome === undefined) return { blocker: `its parent ${coords} is the current version of ${built.repo}, which only its rehearsal releases, and ${built.repo} is not rehearsed before it in this run` };
    if (!outcome.ok) return { blocker: `its parent ${coords} is the current version of ${built.repo}, and ${outcome.why}` };
    if (outcome.released !== ref.version) moves.set(coords, outcome.released);
    builtOn.add(`${ref.groupId}:${ref.artifactId}:${outcome.released}`);
  }
  return { moves, builtOn: [...builtOn].sort() };
}

/** Moves each reactor POM's `<parent><version>` named in `moves` (a text edit of the throwaway copy); a note per edit. */
async function moveParents(copy: string, moves: ReadonlyMap<string, string>): Promise<string[]> {
  if (moves.size === 0) return [];
  const notes: string[] = [];
  for (const { file } of await reactorPomFiles(copy)) {
    // Read and written back as --fix does: the file's own encoding and BOM are kept.
    const read = readFixFile(file, file);
    if (!read.ok || read.file.bytes === undefined) continue;
    const text = read.file.source.text;
    const parsed = parseXml(text);
    if (!parsed.ok) continue;
    const value = (name: string): string | undefined => {
      const el = elementAt(parsed.root, ['project', 'parent', name]);
      return el === undefined || isEmptyTag(el) ? undefined : text.slice(el.contentStart, el.contentEnd).trim();
    };
    const coords = `${value('groupId')}:${value('artifactId')}:${value('version')}`;
    const to = moves.get(coords);
    const el = elementAt(parsed.root, ['project', 'parent', 'version']);
    if (to === undefined || el === undefined) continue;
    const range = trimmedRange(text, el.contentStart, el.contentEnd);
    await writeFile(file, encodeLike(read.file, text.slice(0, range.start) + to + text.slice(range.end)));
    notes.push(`${path.relative(copy, file)}: <parent> ${coords} moved to ${to}, the release its fleet repository's rehearsal made (as fleet fix moves it before the real release)`);
  }
  return notes;
}

function builtOn(plan: ParentPlan): Pick<FleetRehearsal, 'parents'> {
  return plan.builtOn.length === 0 ? {} : { parents: plan.builtOn };
}

function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}
