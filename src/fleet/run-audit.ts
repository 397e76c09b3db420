/**
 * `relctl fleet audit` (DESIGN §13): every selected repository cloned or fetched into the
 * workspace, indexed (who builds which POM), then audited in one process, parents first, each
 * with the fleet's own parents. A repository that fails (clone, fetch, audit) is the verdict
 * `error`, never the end of the run.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { RelctlError } from '../core/errors.js';
import { quotedCoordinate } from '../core/maven-coordinates.js';
import { oneLine } from '../core/plain-text.js';
import type { SettingKey } from '../core/config/settings.js';
import type { CommandContext } from '../io/command-context.js';
import { runGit } from '../io/git.js';
import { auditRepository, type RepoAudit } from './audit-repo.js';
import { EnvironmentFindings } from './attribution.js';
import { FleetParents, type ClonedRepo } from './fleet-parents.js';
import { builtPoms, fleetEdges, FleetPomIndex, parentsFirst, type BuiltPom, type RefusedPom } from './pom-index.js';
import { planBudget } from './plan-budget.js';
import { inOrderPool } from './pool.js';
import { fleetReport } from './report-document.js';
import { blankReport, type FleetReport, type FleetRepositoryReport } from './report-types.js';
import type { FleetRepo } from './selection.js';
import { removeHalfClones, syncClone, type CloneAccess, type CloneResult } from './workspace.js';
import { withWorkspaceLock } from './workspace-lock.js';

export interface FleetAuditOptions {
  repos: readonly FleetRepo[];
  /**
   * `--only`: audit this repository alone. Every repository is still cloned or fetched and
   * indexed, so that its fleet parents are read from the fleet and its findings attributed as
   * in a whole audit (a CI matrix's jobs then agree with one local run).
   */
  only?: string;
  workdir: string;
  jobs: number;
  offline: boolean;
  access: CloneAccess;
  /** The fleet command's setting flags, passed on to every repository's configuration. */
  flags: Partial<Record<SettingKey, unknown>>;
  /** `--usage FILE`: the Usage Center's export, for the plan's budget line. */
  usage?: string;
  /** Each repository's report as soon as it and every one before it (parents first) are done. */
  onRepository?: (report: FleetRepositoryReport) => void;
  /**
   * Runs right after a repository's audit, while its facts are at hand (fleet fix); what it
   * returns joins the repository's report. A failure there is the repository's `error`.
   */
  afterAudit?: (audited: RepoAudit, context: FleetContext) => Promise<Partial<FleetRepositoryReport>>;
}

/** What the fleet knows beyond one repository, for afterAudit. */
export interface FleetContext {
  index: FleetPomIndex;
  parents: FleetParents;
  clones: ReadonlyMap<string, Cloned>;
}

export type Cloned = Extract<CloneResult, { ok: true }>;

export async function auditFleet(ctx: CommandContext, options: FleetAuditOptions): Promise<FleetReport> {
  return (await auditFleetIndexed(ctx, options)).report;
}

/** The audit with what a later step over the same clones needs (fleet rehearse): who builds which POM, and where each clone is. */
export interface IndexedAudit {
  report: FleetReport;
  index: FleetPomIndex;
  /** Every POM the cloned repositories build, as declared at their tips. */
  poms: BuiltPom[];
  /** The clone of each repository that was cloned or fetched. */
  dirs: Map<string, string>;
}

/** The audit, holding the workspace's lock (one run per workspace; fix and rehearse hold it across their later steps too). */
export function auditFleetIndexed(ctx: CommandContext, options: FleetAuditOptions): Promise<IndexedAudit> {
  return withWorkspaceLock(options.workdir, async () => {
    await removeHalfClones(options.workdir);
    return auditLocked(ctx, options);
  });
}

async function auditLocked(ctx: CommandContext, options: FleetAuditOptions): Promise<IndexedAudit> {
  const clones = new Map<string, CloneResult>();
  await inOrderPool(options.repos, options.jobs, (repo) => syncClone(repo, options.workdir, options.access), (result, repo) => {
    clones.set(repo.name, result);
    ctx.out.verbose(result.ok ? `${repo.name}: ${result.action} ${result.url} (${result.branch} at ${result.head.slice(0, 12)})` : `${repo.name}: ${result.message}`);
  }, ctx.signal);
  const ok = new Map([...clones].filter((e): e is [string, Cloned] => e[1].ok));
  // --jobs at a time, as the clones: 500 repositories are not 500 git processes and file reads at once.
  const read: Awaited<ReturnType<typeof repoPoms>>[] = [];
  await inOrderPool([...ok], options.jobs, ([name, c]) => repoPoms(name, c.dir, ctx.env), (r) => void read.push(r), ctx.signal);
  const poms = read.flatMap((r) => r.poms);
  const refused = new Map(read.flatMap((r) => r.refused).map((r) => [r.repo, r] as const));
  const index = new FleetPomIndex(poms);
  for (const line of index.conflicts) ctx.out.verbose(line);
  const edges = fleetEdges(poms, index).filter((e) => ok.has(e.from) && ok.has(e.to));
  const parents = new FleetParents(index, clonedRepos(ok, ctx.env), path.join(options.workdir, '.relctl', 'parents'), ctx.env);
  const order = parentsFirst(options.repos.map((r) => r.name), edges).filter((name) => options.only === undefined || name === options.only);
  const environment = new EnvironmentFindings();
  const repositories: FleetRepositoryReport[] = [];
  await inOrderPool(
    order,
    options.jobs,
    async (name) => {
      const clone = clones.get(name);
      if (clone === undefined) return errorReport(name, '', { code: 'interrupted', message: 'The run was interrupted before this repository was cloned.' });
      if (!clone.ok) return errorReport(name, clone.url, { code: clone.code, message: clone.message, fix: clone.fix });
      const hostile = refused.get(name);
      if (hostile !== undefined) return errorReport(name, clone.url, refusedError(hostile), clone);
      try {
        const audited = await auditRepository(ctx, { name, dir: clone.dir, url: clone.url, branch: clone.branch, head: clone.head, offline: options.offline, index, parents, flags: options.flags });
        environment.add(name, audited.environment);
        if (options.afterAudit === undefined) return audited.report;
        return { ...audited.report, ...(await options.afterAudit(audited, { index, parents, clones: ok })) };
      } catch (error) {
        return errorReport(name, clone.url, auditError(error), clone);
      }
    },
    (report) => {
      repositories.push(report);
      options.onRepository?.(report);
    },
    ctx.signal,
  );
  for (const [key, origin] of parents.origins) ctx.out.verbose(`parent ${key}: ${origin.at === undefined ? `not in the fleet (${origin.why}); the local or public repository is asked` : `read from ${origin.repo} at ${origin.at}`}`);
  const shownEdges = options.only === undefined ? edges : edges.filter((e) => e.from === options.only || e.to === options.only);
  const report = fleetReport(repositories, shownEdges, environment.list());
  report.summary.publishingBudget = await planBudget(ctx, report, options.usage);
  return { report, index, poms, dirs: new Map([...ok].map(([name, c]) => [name, c.dir])) };
}

/** Every POM the repository tracks, outside test and integration-test resources (projects of their own). */
async function repoPoms(name: string, dir: string, env: NodeJS.ProcessEnv): Promise<ReturnType<typeof builtPoms>> {
  const listed = await runGit(dir, ['ls-files', '-z'], { env });
  const files = listed.stdout.split('\u0000').filter((f) => (f === 'pom.xml' || f.endsWith('/pom.xml')) && !/(^|\/)src\/(test|it)\//.test(f));
  const texts = await Promise.all(files.map(async (file) => ({ file, text: await readFile(path.join(dir, file), 'utf8').catch(() => '') })));
  return builtPoms(name, texts);
}

function clonedRepos(ok: ReadonlyMap<string, Cloned>, env: NodeJS.ProcessEnv): Map<string, ClonedRepo> {
  const out = new Map<string, ClonedRepo>();
  for (const [name, c] of ok) {
    let tags: Promise<string[]> | undefined;
    out.set(name, {
      dir: c.dir,
      tags: () => (tags ??= runGit(c.dir, ['tag', '--list'], { env }).then((r) => (r.ok ? r.stdout.split('\n').filter((t) => t !== '') : []))),
    });
  }
  return out;
}

/**
 * A POM whose coordinates Maven refuses: the repository is not audited (its coordinates would
 * become paths: a parent's POM is written under the workspace by them), and says which value.
 */
function refusedError({ file, refusal }: RefusedPom): { code: string; message: string; fix: string } {
  const shown = oneLine(file);
  return {
    code: 'invalid-coordinates',
    message: `${shown} declares the ${refusal.field} ${quotedCoordinate(refusal.value)}, which Maven refuses: ${refusal.problem}. relctl makes no path of it, and audits the repository once it is corrected.`,
    fix: `Correct the ${refusal.field} in ${shown} (Maven's model validator refuses it too), or leave the repository out of the fleet.`,
  };
}

function auditError(error: unknown): { code: string; message: string; fix?: string } {
  if (error instanceof RelctlError) return { code: error.code, message: error.message, ...(error.fix === undefined ? {} : { fix: error.fix }) };
  // A bug of relctl's in one repository's audit: said as such, and the other repositories go on.
  const message = error instanceof Error ? error.message : String(error);
  return { code: 'internal-error', message: `internal error (this is a bug in relctl): ${message}`, fix: 'Report it with the output of relctl fleet audit --only NAME --verbose.' };
}

function errorReport(name: string, url: string, error: { code: string; message: string; fix?: string }, clone?: Cloned): FleetRepositoryReport {
  return { ...blankReport(name, url), branch: clone?.branch ?? null, head: clone?.head ?? null, error };
}
