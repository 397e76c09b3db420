/**
 * The fleet's plan (DESIGN §13 "The report leads with the plan"): what to do first, what each step
 * unblocks, whether a step is mechanical (what `--fix` edits) or needs a person, and how many
 * releases the whole plan takes. Every human format opens with it and `--json` carries it as
 * `summary.nextSteps`. Pure: derived from the repositories alone, so a report read back from CI
 * documents gives the same plan.
 */
import type { FleetBudget } from '../core/publishing-budget.js';
import type { FleetFinding, FleetNextStep, FleetRepositoryReport } from './report-types.js';

/** A fleet parent that other repositories wait on, and who waits. */
export interface ParentGroup {
  parent: string;
  /** The parent's own report; undefined when it is not in this report (an `--only` document). */
  report: FleetRepositoryReport | undefined;
  /** Each waiting child and the `<parent><version>` it names today ('' when it names no version of it). */
  children: { name: string; from: string }[];
  /** The attributed findings the children inherit, one per code (the first child's). */
  inherited: FleetFinding[];
}

/** A repository's own error findings (not the ones a parent fixes). */
export const ownErrors = (r: FleetRepositoryReport): FleetFinding[] => r.findings.filter((f) => f.severity === 'error' && f.fixIn === undefined);

/** The version a child names for a parent that `parent` builds ('' when none). */
function namedVersion(child: FleetRepositoryReport, parent: string): string {
  const link = child.parents.find((p) => p.repository === parent);
  return link === undefined ? '' : (link.coordinates.split(':')[2] ?? '');
}

/** Every fleet parent some repository waits on, parents first (the report's order; absent ones first). */
export function parentGroups(repositories: readonly FleetRepositoryReport[]): ParentGroup[] {
  const groups = new Map<string, ParentGroup>();
  for (const r of repositories) {
    for (const parent of r.fixIn) {
      const group = groups.get(parent) ?? { parent, report: repositories.find((x) => x.name === parent), children: [], inherited: [] };
      group.children.push({ name: r.name, from: namedVersion(r, parent) });
      for (const f of r.findings) if (f.fixIn === parent && f.severity === 'error' && !group.inherited.some((i) => i.code === f.code)) group.inherited.push(f);
      groups.set(parent, group);
    }
  }
  const position = (g: ParentGroup): number => (g.report === undefined ? -1 : repositories.indexOf(g.report));
  return [...groups.values()].sort((a, b) => position(a) - position(b));
}

function counts(findings: readonly FleetFinding[], fixed: ReadonlySet<string>): Pick<FleetNextStep, 'findings' | 'mechanical' | 'needsPerson'> {
  const person = findings.filter((f) => !fixed.has(f.code)).map((f) => f.code);
  return { findings: findings.length, mechanical: findings.length - person.length, needsPerson: [...new Set(person)].sort() };
}

/**
 * The ordered steps: each fleet parent others wait on (fix and release it, or only release it
 * when its tip already holds the fixes), then the repositories with fixes of their own, then those
 * the audit could not read. A waiting child needs a release of its own after its parent's.
 */
export function nextSteps(repositories: readonly FleetRepositoryReport[]): FleetNextStep[] {
  const steps: Omit<FleetNextStep, 'order'>[] = [];
  const parents = parentGroups(repositories);
  for (const g of parents) {
    const mine = g.report === undefined ? [] : ownErrors(g.report);
    // What the children inherit counts too: the parent's release must fix it, shown on its tip or not.
    const own = [...mine, ...g.inherited.filter((f) => !mine.some((m) => m.code === f.code))];
    const fixed = new Set((g.report?.fixes ?? []).map((f) => f.code));
    const waiting = g.children.map((c) => c.name);
    steps.push({ action: mine.length === 0 && g.report !== undefined && g.report.verdict === 'ready' ? 'release' : 'fix-and-release', repositories: [g.parent], ...counts(own, fixed), unblocks: waiting, releases: 1 });
  }
  const parentNames = new Set(parents.map((g) => g.parent));
  const own = repositories.filter((r) => r.verdict === 'blocked' && !parentNames.has(r.name));
  if (own.length > 0) {
    const findings = own.flatMap(ownErrors);
    const counted = own.map((r) => counts(ownErrors(r), new Set(r.fixes.map((f) => f.code))));
    const person = counted.flatMap((c) => c.needsPerson);
    const mechanical = counted.reduce((n, c) => n + c.mechanical, 0);
    steps.push({ action: 'fix-own', repositories: own.map((r) => r.name), findings: findings.length, mechanical, needsPerson: [...new Set(person)].sort(), unblocks: [], releases: own.length });
  }
  const failed = repositories.filter((r) => r.verdict === 'error');
  if (failed.length > 0) steps.push({ action: 'investigate', repositories: failed.map((r) => r.name), findings: 0, mechanical: 0, needsPerson: [], unblocks: [], releases: 0 });
  return steps.map((s, i) => ({ order: i + 1, ...s }));
}

/**
 * The releases the plan needs: one per step's repository, and one per waiting child once it has
 * moved its `<parent><version>` (a child waiting on two parents releases once).
 */
export function releasesNeeded(repositories: readonly FleetRepositoryReport[], steps: readonly FleetNextStep[]): number {
  const waiting = repositories.filter((r) => r.verdict === 'waits-on-parent').length;
  return steps.reduce((n, s) => n + s.releases, 0) + waiting;
}

/**
 * `the plan needs 5 releases; 2 of 3 left this month`, or `...; over the month's budget by 3:
 * spread over months or Publisher Pro`: the plan against the month's publishing budget (§5a) when
 * the report carries it (an audit does; a document read back may not).
 */
export function releasesText(needed: number, budget?: FleetBudget): string {
  const plan = `the plan needs ${needed} ${needed === 1 ? 'release' : 'releases'}`;
  if (budget === undefined) return plan;
  if (budget.releasesLimit === null || budget.releasesLeft === null) return `${plan}; Publisher Pro, no monthly limit`;
  if (budget.fits) return `${plan}; ${budget.releasesLeft} of ${budget.releasesLimit} left this month`;
  return `${plan}; over the month's budget by ${needed - budget.releasesLeft}: spread over months or Publisher Pro`;
}

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** `1 mechanical, <developers> needs a person` (the person codes as their element where known). */
function needsText(s: FleetNextStep): string {
  const parts: string[] = [];
  if (s.mechanical > 0) parts.push(`${s.mechanical} mechanical`);
  if (s.needsPerson.length > 0) parts.push(`${s.needsPerson.join(', ')} ${s.needsPerson.length === 1 ? 'needs' : 'need'} a person`);
  return parts.join(', ');
}

const shownNames = 6;

/** `a, b, c and 3 more`. */
export function nameList(names: readonly string[]): string {
  return names.length <= shownNames ? names.join(', ') : `${names.slice(0, shownNames).join(', ')} and ${names.length - shownNames} more`;
}

/**
 * A step in words, as every format prints it: `Fix and release acme/parent (2 findings: 1
 * mechanical, missing-developers needs a person) → unblocks 10`. `name` shows a repository name in
 * the format's own way (escaped, linked).
 */
export function stepText(s: FleetNextStep, name: (repository: string) => string = (n) => n): string {
  const what = s.findings === 0 ? '' : ` (${plural(s.findings, 'finding')}${needsText(s) === '' ? '' : `: ${needsText(s)}`})`;
  const unblocks = s.unblocks.length === 0 ? '' : ` → unblocks ${s.unblocks.length}`;
  switch (s.action) {
    case 'fix-and-release':
      return `Fix and release ${name(s.repositories[0]!)}${what}${unblocks}`;
    case 'release':
      return `Release ${name(s.repositories[0]!)} (its default branch already has the fixes)${unblocks}`;
    case 'fix-own':
      return `${s.repositories.length === 1 ? 'Fix and release' : `${plural(s.repositories.length, 'repository', 'repositories')} with fixes of their own:`} ${nameList(s.repositories.map((n) => name(n)))}${what}`;
    default:
      return `Look at ${plural(s.repositories.length, 'repository', 'repositories')} the audit could not read: ${nameList(s.repositories.map((n) => name(n)))}`;
  }
}

/** The line each waiting child gets under its parent's paragraph. */
export function childMoveText(parent: string, from: string): string {
  return `after ${parent} releases: move <parent><version> ${from === '' ? '' : `${from} `}→ its fixed release`;
}
