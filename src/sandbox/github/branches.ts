/** A commit as compare and a pull's commits list show it. */
export interface CommitInfo {
  sha: string;
  parents: string[];
  tree: string;
  message: string;
  author: { name: string; email: string; date: string };
  committer: { name: string; email: string; date: string };
}

/** A file as compare and a pull's files list show it (`patch`: the hunks, absent for a binary file). */
export interface ChangedFile {
  filename: string;
  previous_filename?: string;
  status: 'added' | 'removed' | 'modified' | 'renamed' | 'copied' | 'changed';
  /** The blob at head (at base for a removed file). */
  sha: string;
  additions: number;
  deletions: number;
  patch?: string;
}

/** `base...head` as GitHub compares: from their merge base to head. */
export interface Comparison {
  base: CommitInfo;
  mergeBase: CommitInfo;
  aheadBy: number;
  behindBy: number;
  /** The merge base (exclusive) to head, oldest first. */
  commits: CommitInfo[];
  files: ChangedFile[];
}

export interface MergeRequest {
  method: 'merge' | 'squash';
  /** The merging user: the commit's author. */
  login: string;
  message: string;
}

/** merged: the base branch now names `sha`; conflict: 405; moved: the base changed meanwhile. */
export type MergeOutcome = { kind: 'merged'; sha: string } | { kind: 'conflict' } | { kind: 'moved' };

/**
 * The branches behind a repository's pulls and compare: a `--git-root` bare repository read with
 * git (git-branches.ts), or the stand-in's own small store (store-branches.ts, what `relctl
 * distribute` uses). Names come from requests: each side resolves them only against its own
 * branches, tags and full commit ids, never hands one to git as an argument it could read as an
 * option.
 */
export interface Branches {
  /** Writes to this repository (a merge, a pull's creation) and pushes to it take turns on this key. */
  readonly lockKey: string;
  /** Every branch and the commit it names (`main` → sha). */
  tips(): Promise<ReadonlyMap<string, string>>;
  /** A branch, tag or full commit id → its commit; undefined when there is none. */
  resolve(name: string): Promise<string | undefined>;
  /** How many commits `head` has that `base` has not (0: nothing to pull). */
  ahead(base: string, head: string): Promise<number>;
  /** undefined: the two have no common ancestor. */
  compare(base: string, head: string): Promise<Comparison | undefined>;
  /** Moves `base` (a branch) to include `head` (a commit), only if the branch still names `baseSha`. */
  merge(base: string, baseSha: string, head: string, request: MergeRequest): Promise<MergeOutcome>;
}
