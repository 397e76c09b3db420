/**
 * The month's publishing budget before anything irreversible (DESIGN §5a): `preflight`, `verify`,
 * `release` and `rehearse` show what this release consumes against what the organization has left,
 * and stop (exit 1) over budget unless `--over-budget`. The limits come from `publishingLimits`
 * (default the free tier, false for Publisher Pro), the usage from relctl's own record and, when
 * given, the Usage Center's export (the larger of the two per metric: the export sees releases
 * made elsewhere, the record sees the ones the export has not caught up with yet).
 */
import os from 'node:os';
import path from 'node:path';
import { readFile } from 'node:fs/promises';
import { StepFailedError, UsageError } from '../core/errors.js';
import {
  budgetJson,
  budgetLines,
  budgetVerdict,
  costGroups,
  costLines,
  freeTier,
  metrics,
  monthOf,
  overBudgetFix,
  type BudgetVerdict,
  type CostGroup,
  type CountedFile,
  type Usage,
} from '../core/publishing-budget.js';
import { decodeUsageExport, UsageExportProblem } from '../core/usage-export.js';
import type { CommandContext } from '../io/command-context.js';
import { clockNow } from '../io/clock.js';
import { lastSizeOf, publicationRecordPath, readPublications, recordPublication, recordedUsage } from '../io/publication-record.js';
import type { ArtifactSet } from '../keys/artifacts.js';
import { localArtifacts, planOf } from '../keys/upload-plan.js';
import { readIdentity } from '../io/project.js';

export interface BudgetOptions {
  /** `--usage FILE`: the Usage Center's export. */
  usage?: string;
  /** `--over-budget`: go on anyway. */
  overBudget?: boolean;
}

export interface BudgetCheck {
  verdict: BudgetVerdict;
  groups: CostGroup[];
}

/** The files an artifact set would upload, by repository path and size. */
export function countedFiles(set: ArtifactSet): CountedFile[] {
  return [...set.files].map(([p, f]) => ({ path: p, bytes: f.size }));
}

async function exportedUsage(ctx: CommandContext, file: string): Promise<Usage & { restricted: string[] }> {
  const abs = path.resolve(ctx.cwd, file);
  const text = await readFile(abs, 'utf8').catch((error: unknown) => {
    throw new UsageError(`--usage ${file} cannot be read: ${(error as NodeJS.ErrnoException).code ?? String(error)}.`, {
      kind: 'bad-usage-export',
      fix: 'Pass the CSV the Usage Center exports (central.sonatype.com/publishing/usage, Current Month, Export CSV).',
    });
  });
  try {
    const decoded = decodeUsageExport(text);
    return { ...decoded.usage, restricted: decoded.restricted };
  } catch (error) {
    if (!(error instanceof UsageExportProblem)) throw error;
    throw new UsageError(`--usage ${file} is not the Usage Center's export: ${error.message}.`, {
      kind: 'bad-usage-export',
      fix: 'Export it again from central.sonatype.com/publishing/usage (Current Month, Export CSV) and pass that file unchanged.',
    });
  }
}

export interface MonthUsage {
  month: string;
  record: Awaited<ReturnType<typeof readPublications>>;
  used: Usage;
  /** Where the numbers come from, said with the budget. */
  usedFrom: string[];
}

/**
 * The organization's usage this month: relctl's own record and, with `--usage FILE`, the Usage
 * Center's export (the larger of the two per metric).
 */
export async function monthUsage(ctx: CommandContext, usageFile: string | undefined): Promise<MonthUsage> {
  const month = monthOf(clockNow(ctx.env).toISOString());
  const record = await readPublications(publicationRecordPath(ctx.env, ctx.env.HOME ?? os.homedir()));
  const recorded = recordedUsage(record, month);
  const usedFrom: string[] = [];
  let used: Usage = { files: recorded.files, bytes: recorded.bytes, releases: recorded.releases };
  if (recorded.releases > 0) usedFrom.push(`relctl's record (${recorded.namespaces.join(', ')})`);
  if (usageFile !== undefined) {
    const exported = await exportedUsage(ctx, usageFile);
    used = Object.fromEntries(metrics.map((m) => [m, Math.max(used[m], exported[m])])) as unknown as Usage;
    usedFrom.push(`the Usage Center export${exported.restricted.length > 0 ? ` (withheld: ${exported.restricted.join(', ')})` : ''}`);
  }
  return { month, record, used, usedFrom };
}

/**
 * The verdict for one release. `files` are what it uploads when known (a build output, a bundle);
 * otherwise the size of the component's last recorded release stands in, else only the release
 * itself is counted.
 */
export async function checkBudget(
  ctx: CommandContext,
  o: BudgetOptions,
  release: { files?: readonly CountedFile[]; component?: string },
): Promise<BudgetCheck> {
  const limits = ctx.config.publishingLimits ?? freeTier;
  const { month, record, used, usedFrom } = await monthUsage(ctx, o.usage);
  const files = release.files;
  const estimate = files === undefined && release.component !== undefined ? lastSizeOf(record, release.component) : undefined;
  const needs =
    files !== undefined
      ? { releases: 1, files: files.length, bytes: files.reduce((n, f) => n + f.bytes, 0) }
      : estimate !== undefined
        ? { releases: 1, ...estimate }
        : { releases: 1 };
  const verdict = budgetVerdict(limits, used, needs, month, usedFrom);
  return { verdict, groups: files === undefined ? [] : costGroups(files) };
}

/**
 * The budget of the project at ctx.cwd before its release is built: the build output already here
 * (if any) stands for what the release uploads, else the component's last recorded release.
 */
export async function projectBudget(ctx: CommandContext, o: BudgetOptions): Promise<BudgetCheck> {
  const identity = await readIdentity(ctx.cwd).catch(() => undefined);
  const set = await localArtifacts(ctx).catch(() => undefined);
  try {
    return await checkBudget(ctx, o, {
      ...(set === undefined ? {} : { files: countedFiles(set) }),
      ...(identity?.groupId === undefined ? {} : { component: `${identity.groupId}:${identity.artifactId}` }),
    });
  } finally {
    set?.close();
  }
}

/** Text lines: the budget, then (with files) what each kind of file costs. */
export function budgetText(check: BudgetCheck): string[] {
  const lines = budgetLines(check.verdict);
  if (check.groups.length > 0) lines.push('  what the files cost:', ...costLines(check.groups).map((l) => `  ${l}`));
  return lines;
}

export function budgetDocument(check: BudgetCheck): Record<string, unknown> {
  return { ...budgetJson(check.verdict), costs: check.groups };
}

/** The stop before anything irreversible: exit 1 with the numbers and what to drop, unless --over-budget. */
export function overBudgetError(check: BudgetCheck, o: BudgetOptions): StepFailedError | undefined {
  const v = check.verdict;
  if (v.over.length === 0 || o.overBudget === true || v.limits === undefined) return undefined;
  const numbers = v.over.map((m) => `${m}: ${v.used[m]} used + ${v.needs[m] ?? 0} > ${v.limits![m]}`).join('; ');
  return new StepFailedError(`This release would exceed the organization's publishing limits for ${v.month} (${numbers}); nothing was tagged, pushed or uploaded.`, {
    kind: 'over-budget',
    fix: overBudgetFix(v, check.groups),
    data: { publishingBudget: budgetJson(v) },
  });
}

/** Shows the budget (text mode) and throws when over it without --over-budget. */
export function gateBudget(ctx: CommandContext, check: BudgetCheck, o: BudgetOptions): void {
  if (!ctx.out.json) ctx.out.info(budgetText(check).join('\n'));
  const error = overBudgetError(check, o);
  if (error !== undefined) throw error;
  if (check.verdict.over.length > 0) ctx.out.warn(`--over-budget: going on over the publishing limits (${check.verdict.over.join(', ')}); the portal may cap the publication.`);
}

/** `pkg:maven/org.example/demo@1.0.0` → `org.example:demo:1.0.0`. */
function componentOf(purl: string): string | undefined {
  const m = /^pkg:maven\/([^/]+)\/([^@/]+)@([^?#]+)/.exec(purl);
  return m === null ? undefined : `${decodeURIComponent(m[1]!)}:${decodeURIComponent(m[2]!)}:${decodeURIComponent(m[3]!)}`;
}

/**
 * Adds a deployment the portal reported PUBLISHED to relctl's record (once per deployment): the
 * next release's budget counts it. Its files and bytes are the build output here when there is
 * one. A record that cannot be written is a warning, never the command's failure: the
 * publication happened.
 */
export async function notePublished(ctx: CommandContext, status: { deploymentId: string; deploymentState: string; purls: readonly string[] }): Promise<void> {
  if (status.deploymentState !== 'PUBLISHED') return;
  const component = status.purls.map(componentOf).find((c) => c !== undefined);
  // The namespace the user named, else the groupId's: the record counts every namespace of the month
  // together (one organization), so a groupId standing in for its namespace changes no total.
  const namespace = ctx.config.namespace ?? ctx.config.groupId ?? component?.split(':')[0] ?? (await readIdentity(ctx.cwd).catch(() => undefined))?.groupId ?? 'unknown';
  const file = publicationRecordPath(ctx.env, ctx.env.HOME ?? os.homedir());
  try {
    const set = await localArtifacts(ctx).catch(() => undefined);
    const plan = set === undefined ? undefined : planOf(set);
    set?.close();
    const now = clockNow(ctx.env).toISOString();
    const added = await recordPublication(file, {
      deploymentId: status.deploymentId,
      namespace,
      month: monthOf(now),
      publishedAt: now,
      ...(component === undefined ? {} : { component }),
      ...(plan === undefined ? {} : { files: plan.files, bytes: plan.bytes }),
    });
    if (added) ctx.out.verbose(`recorded the publication of ${status.deploymentId} in ${file} (the month's publishing budget counts it)`);
  } catch (error) {
    ctx.out.warn(`The publication of ${status.deploymentId} could not be recorded in ${file} (${(error as Error).message}); the next budget check will not count it unless --usage gives the Usage Center's export.`);
  }
}
