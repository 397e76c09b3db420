import { mkdir, readFile, rename, writeFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { UsageError } from '../core/errors.js';
import type { NoticeRecord } from '../core/post-release/notice-rule.js';

/**
 * The release journal: what a release has done so far, so `--resume` continues after the last
 * finished step and `upload` can warn when the machine changed. Lives in `<project>/.relctl/`,
 * whose own `.gitignore` (`*`) keeps it out of git without touching the user's .gitignore.
 * Never holds a secret: callers store ids, versions and facts only.
 */
export interface UploadRecord {
  /** One id per attempt: the record is written before the call and completed after it. */
  attempt?: string;
  machine: string;
  sourceAddress?: string;
  groupId: string;
  publishingType?: string;
  repositoryKey?: string;
  deploymentId?: string;
  /**
   * pending: sent, no outcome yet (the process ended during the call); uploaded; recovered (the
   * answer was lost, the search found the deployment this call made); failed; ambiguous (nobody
   * knows yet: search before uploading again). Absent in journals written before attempts were.
   */
  outcome?: 'pending' | 'uploaded' | 'recovered' | 'failed' | 'ambiguous';
  /** The error code of a failed or ambiguous attempt. */
  error?: string;
  at: string;
}
export interface StepRecord {
  id: string;
  status: 'done' | 'failed';
  at: string;
  data?: Record<string, unknown>;
}
/** A distribution pull request (relctl distribute): relctl smoke deploys its branch. */
export interface DistributionRecord {
  version: string;
  /** The distribution repository, owner/name. */
  repository: string;
  /** The branch that pins the version: the pull request's, or the default branch when it already did. */
  branch: string;
  pullRequest?: { number: number; url: string };
  at: string;
}
export interface Journal {
  version: 1;
  release?: {
    version: string;
    tag: string;
    nextVersion: string;
    skippedVersions?: string[];
    buildTool: 'maven' | 'gradle';
  };
  /** `--release-version` / `--next-version` of the release in progress: `--resume` builds the same versions. */
  chosenVersions?: { release?: string; next?: string };
  steps: StepRecord[];
  uploads: UploadRecord[];
  repositoryKey?: string;
  deploymentId?: string;
  /** Mail notices sent (relctl notify); kept across releases, like uploads. */
  notices?: NoticeRecord[];
  /** Distribution pull requests, one per version (the latest run's). */
  distributions?: DistributionRecord[];
}

export const journalDirName = '.relctl';
export const journalFileName = 'journal.json';

export function journalPath(root: string): string {
  return path.join(root, journalDirName, journalFileName);
}

function emptyJournal(): Journal {
  return { version: 1, steps: [], uploads: [] };
}

function corrupt(file: string, reason: string): UsageError {
  return new UsageError(`The release journal ${file} is unreadable: ${reason}.`, {
    kind: 'corrupt-journal',
    fix: `Delete ${file} to start the release over (check the portal with \`relctl status\` first), or restore it.`,
    data: { journal: file },
  });
}

/** The journal of the project at `root`; an empty journal when there is none yet. */
export async function readJournal(root: string): Promise<Journal> {
  const file = journalPath(root);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return emptyJournal();
    throw corrupt(file, (error as NodeJS.ErrnoException).code ?? String(error));
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw corrupt(file, `not valid JSON (${(error as Error).message})`);
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw corrupt(file, 'not a JSON object');
  const j = json as Partial<Journal>;
  if (j.version !== 1) throw corrupt(file, `unknown version ${JSON.stringify(j.version)}`);
  if (j.steps !== undefined && !Array.isArray(j.steps)) throw corrupt(file, '"steps" is not an array');
  if (j.uploads !== undefined && !Array.isArray(j.uploads)) throw corrupt(file, '"uploads" is not an array');
  return { ...j, version: 1, steps: j.steps ?? [], uploads: j.uploads ?? [] };
}

/** Writes a small state file whole: a temp file beside it, then a rename (mode 600). */
export async function writeAtomic(file: string, text: string): Promise<void> {
  // Temp file in the same folder + rename: a crash leaves either the old or the new journal, never half of one.
  // node:crypto only here: preflight reads the journal on every run and never writes it.
  const { randomBytes } = await import('node:crypto');
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(temp, text, { mode: 0o600 });
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

// Serialises updates inside one process so two concurrent mutations never lose each other's change.
let queue: Promise<unknown> = Promise.resolve();

/** Reads the journal, applies `mutate`, writes it back atomically and returns the new journal. */
export function updateJournal(root: string, mutate: (j: Journal) => void): Promise<Journal> {
  const next = queue.then(async () => {
    const journal = await readJournal(root);
    mutate(journal);
    const dir = path.join(root, journalDirName);
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, '.gitignore'), '*\n');
    await writeAtomic(journalPath(root), `${JSON.stringify(journal, null, 2)}\n`);
    return journal;
  });
  queue = next.catch(() => undefined);
  return next;
}
