/**
 * The fleet report's shapes (DESIGN §13): what `relctl fleet audit --json` prints and every other
 * format (text, Markdown, JUnit, HTML) renders. A public contract, described by
 * schema/fleet.schema.json: add fields, never rename one.
 */

import type { FleetBudget } from '../core/publishing-budget.js';

export type FleetVerdict = 'ready' | 'blocked' | 'waits-on-parent' | 'not-published' | 'error';

/** Verdicts in the order the summary lists them. */
export const fleetVerdicts: readonly FleetVerdict[] = ['ready', 'blocked', 'waits-on-parent', 'not-published', 'error'];

/** One link of a repository's parent chain, nearest first. */
export interface FleetParent {
  /** `groupId:artifactId:version` as the child names it. */
  coordinates: string;
  /** The fleet repository (`OWNER/NAME`) that builds this parent, or null when none does. */
  repository: string | null;
}

/** A preflight finding as the fleet reports it: `fixIn` when a fleet ancestor fixes it for every child. */
export interface FleetFinding {
  code: string;
  severity: 'error' | 'warning';
  message: string;
  file?: string;
  line?: number;
  module?: string;
  fix: string;
  /** The fleet repository (`OWNER/NAME`) whose change fixes this finding, when it is not this one. */
  fixIn?: string;
}

/** An edit `relctl preflight --fix` would make. */
export interface FleetFixPlan {
  file: string;
  line?: number;
  code: string;
}

export interface FleetLastRelease {
  /** The newest release tag. */
  tag: string;
  version: string;
  /** Whether that version is published; null when it could not be asked. */
  published: boolean | null;
  /** Which service answered: the portal (a token at hand) or the public repository. */
  source?: 'portal' | 'public repository';
  /** The public repository's page for that version (its folder), when the coordinates are known. */
  page?: string;
  /** The day the question was asked (`YYYY-MM-DD`): "on Maven Central: no" holds as of then. */
  checked?: string;
}

export interface FleetRepositoryReport {
  /** `OWNER/NAME`. */
  name: string;
  /** Where it was cloned from; credentials never appear. */
  url: string;
  branch: string | null;
  /** The commit audited (the default branch's HEAD). */
  head: string | null;
  build: 'maven' | 'gradle' | 'none';
  /** Preflight's route kind (`staging-api`, `portal-plugin`, ...), `none` when nothing is published. */
  route: string;
  parents: FleetParent[];
  verdict: FleetVerdict;
  /** The error-level codes, sorted, no repeats. */
  blocking: string[];
  /** The fleet repositories whose fixes this one waits on (sorted; empty when none). */
  fixIn: string[];
  findings: FleetFinding[];
  fixes: FleetFixPlan[];
  /** null offline, or when no release tag exists. */
  lastRelease: FleetLastRelease | null;
  pullRequest: { url: string; number: number; state: string } | null;
  /** Once `fleet rehearse` ran: its verdict for this repository. */
  rehearsal: FleetRehearsal | null;
  /** What `fleet fix` did or would do for this repository (absent in an audit). */
  change?: FleetChange;
  /** Why the verdict is `error` (clone, fetch or audit failed). */
  error?: { code: string; message: string; fix?: string };
}

export type FleetChangeAction = 'none' | 'waiting' | 'dry-run' | 'committed' | 'unchanged' | 'opened' | 'updated' | 'linked' | 'held' | 'left-alone' | 'failed';

export interface FleetChange {
  action: FleetChangeAction;
  /** Why nothing (more) was done: what it waits on, why it was held or failed. */
  why?: string;
  /** Files the change edits (repository-relative). */
  files?: string[];
  /** The commit on `relctl/central-portal`, when one was made or is there. */
  commit?: string;
  /** With --dry-run: the unified diff of every file the change edits (secrets masked). */
  diff?: string;
  /** A move of `<parent><version>` to a fleet parent's released fix. */
  parent?: { coordinates: string; from: string; to: string; repository: string };
}

/** A repository's rehearsal in `relctl fleet rehearse`. */
export interface FleetRehearsal {
  /** `relctl rehearse`'s verdict (`VALIDATED`, `PUBLISHED`, `FAILED`, `verify-failed`, `build-failed`, `deploy-failed`, `pending`, `error`), or `skipped`. */
  verdict: string;
  /** The version the rehearsal released. */
  version?: string;
  /** Why it was skipped, or what failed. */
  reason?: string;
  /** The fleet parents' rehearsed releases it was built on (`groupId:artifactId:version`); its copy moved onto them where it named their snapshots. */
  parents?: string[];
  /** After a success: what was installed into the fleet's local repository for its children (paths relative to it). */
  installed?: string[];
}

/** A finding about the machine the audit ran on, listed once per run (decides no verdict). */
export interface FleetEnvironmentFinding {
  code: string;
  severity: 'error' | 'warning';
  message: string;
  fix: string;
  /** The repositories it was seen in. */
  repositories: string[];
}

export type FleetStepAction = 'fix-and-release' | 'release' | 'fix-own' | 'investigate';

/** One step of the fleet's plan (`summary.nextSteps`, src/fleet/plan.ts). */
export interface FleetNextStep {
  /** 1, 2, 3…: the order to act in. */
  order: number;
  action: FleetStepAction;
  /** The repositories the step acts on (one for a parent's step). */
  repositories: string[];
  /** Error findings the step fixes, of which `mechanical` are edits `relctl fleet fix` makes. */
  findings: number;
  mechanical: number;
  /** Codes of the findings only a person can fix (a name, a decision), sorted, no repeats. */
  needsPerson: string[];
  /** The repositories that wait on this step (their errors are attributed to it). */
  unblocks: string[];
  /** The releases the step needs. */
  releases: number;
}

export interface FleetSummary {
  total: number;
  verdicts: Record<FleetVerdict, number>;
  /** Child → parent edges between fleet repositories: `{from: child, to: parent}`. */
  edges: { from: string; to: string }[];
  /** fleet audit / fix: the releases the plan needs against the month's publishing budget. */
  publishingBudget?: FleetBudget;
  /** The plan: ordered steps, each with what it unblocks (DESIGN §13 "The report leads with the plan"). */
  nextSteps: FleetNextStep[];
  /** The releases the plan needs (every step's, and each waiting child's after its parent's). */
  releasesNeeded: number;
}

export interface FleetReport {
  /** audit: every repository ready or not-published; rehearse: every ready repository's rehearsal VALIDATED or PUBLISHED. */
  ok: boolean;
  repositories: FleetRepositoryReport[];
  summary: FleetSummary;
  environment: FleetEnvironmentFinding[];
}

/** A repository's report before anything is known of it: the fields every report has, empty. */
export function blankReport(name: string, url: string): FleetRepositoryReport {
  return { name, url, branch: null, head: null, build: 'none', route: 'none', parents: [], verdict: 'error', blocking: [], fixIn: [], findings: [], fixes: [], lastRelease: null, pullRequest: null, rehearsal: null };
}
