import type { Octokit } from '@octokit/rest';
import type { RepoName } from '../../core/notes/tracker.js';

/** What `relctl distribute` works on and answers, shared by its two ways (API, local clone). */
export interface DistributeResult {
  version: string;
  repository: string;
  branch: string;
  property: string;
  /** The change to gradle.properties ('' when the distribution already pins the version). */
  diff: string;
  /** The distribution's default branch, when it was read (the pull request's base). */
  base?: string;
  pullRequest?: { number: number; url: string; existing: boolean };
  state: 'opened' | 'already-open' | 'already-pinned' | 'dry-run';
}

export const propertiesFile = 'gradle.properties';

/** The pin change of one gradle.properties text; `mismatch` when the old value is not the previous release. */
export interface PinChange {
  property: string;
  next: string;
  diff: string;
  mismatch?: string;
}

/** What both ways (API, local clone) share: the pull request's words and the pin change. */
export interface DistributeWork {
  version: string;
  repository: string;
  repoId: RepoName;
  branch: string;
  message: string;
  body: string;
  dryRun: boolean;
  pin: (text: string) => PinChange;
  /** The base text's pin change, with its warning printed once (the branch's text is pinned again quietly). */
  pinBase: (text: string) => PinChange;
  call: <T>(what: string, fn: () => Promise<T>) => Promise<T>;
  gh: Octokit;
}

