/**
 * The files `relctl init` writes and what becomes of each (DESIGN §12), decided purely from the
 * answers and the files already there: `written` (new, or replaced with --force), `unchanged`
 * (identical already: init is idempotent), `refused` (differs and no --force), `not-written`
 * (would be written, but another file was refused: then nothing is written).
 */
import { configSchemaUrl, type InitAnswers } from './answers.js';
import { gitlabIncludeFile, gitlabJobs } from './gitlab-ci.js';
import { preflightWorkflow, releaseWorkflow, type WorkflowPlace } from './github-workflows.js';

export interface PlannedFile {
  /** Relative to the repository root, '/'-separated. */
  path: string;
  text: string;
}

export type FileStatus = 'written' | 'unchanged' | 'refused' | 'not-written';

export interface FileOutcome extends PlannedFile {
  status: FileStatus;
  /** Replacing a different file (with --force). */
  replaced: boolean;
}

export const configFileName = 'relctl.config.json';

/**
 * relctl.config.json: an existing one keeps its keys, gains `$schema` when it has none, and takes
 * the namespace as `namespace` (or, when none was named, the project's groupId as `groupId`); a new
 * one holds only those two. Key order: `$schema` first.
 */
export function configText(a: InitAnswers, existing: Record<string, unknown> | undefined): string {
  const named = a.namespace !== undefined ? { namespace: a.namespace } : a.groupId !== undefined ? { groupId: a.groupId } : {};
  return withSchema(a.relctlVersion, existing, named);
}

/**
 * relctl.config.json for `init --fleet --org`: the fleet section's `org` set, its other keys (and
 * the file's) kept, `$schema` added when there is none.
 */
export function fleetConfigText(relctlVersion: string, existing: Record<string, unknown> | undefined, org: readonly string[]): string {
  const fleet = existing?.fleet !== null && typeof existing?.fleet === 'object' && !Array.isArray(existing.fleet) ? existing.fleet : {};
  return withSchema(relctlVersion, existing, { fleet: { ...fleet, org: [...org] } });
}

function withSchema(relctlVersion: string, existing: Record<string, unknown> | undefined, changes: Record<string, unknown>): string {
  const merged: Record<string, unknown> = { $schema: existing?.$schema ?? configSchemaUrl(relctlVersion) };
  for (const [k, v] of Object.entries(existing ?? {})) if (k !== '$schema') merged[k] = v;
  return `${JSON.stringify({ ...merged, ...changes }, null, 2)}\n`;
}

/** Every file relctl init writes starts with this line; init treats such a file as its own. */
export const writtenByInit = '# Written by relctl init';

/**
 * The CI files, by host. A .gitlab-ci.yml that init did not write is the project's own and is
 * never replaced, --force or not: the jobs go to relctl.gitlab-ci.yml, to be included.
 */
export function ciFiles(a: InitAnswers, place: WorkflowPlace, existingGitlabCi: string | undefined): PlannedFile[] {
  const hasOwnGitlabCi = existingGitlabCi !== undefined && !existingGitlabCi.startsWith(writtenByInit);
  if (a.ci === 'github') {
    return [
      { path: '.github/workflows/relctl-preflight.yml', text: preflightWorkflow(a, place) },
      { path: '.github/workflows/relctl-release.yml', text: releaseWorkflow(a, place) },
    ];
  }
  return [{ path: hasOwnGitlabCi ? gitlabIncludeFile : '.gitlab-ci.yml', text: gitlabJobs(a, place) }];
}

/** Each planned file against what is on disk (undefined: absent). */
export function fileOutcomes(planned: readonly PlannedFile[], onDisk: ReadonlyMap<string, string | undefined>, force: boolean): FileOutcome[] {
  const outcomes = planned.map((file): FileOutcome => {
    const current = onDisk.get(file.path);
    if (current === undefined) return { ...file, status: 'written', replaced: false };
    if (current === file.text) return { ...file, status: 'unchanged', replaced: false };
    return { ...file, status: force ? 'written' : 'refused', replaced: true };
  });
  // All or nothing: files that disagree with each other would make a broken setup.
  if (!outcomes.some((o) => o.status === 'refused')) return outcomes;
  return outcomes.map((o) => (o.status === 'written' ? { ...o, status: 'not-written' } : o));
}
