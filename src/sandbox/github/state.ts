import { createHash, randomBytes } from 'node:crypto';

/**
 * What the GitHub stand-in remembers, per repository: releases, issues and pull requests (one
 * number sequence, as on GitHub), and a tiny git object store (branches → commits → trees of
 * file contents) behind the refs and contents endpoints.
 */
export interface UserRef {
  login: string;
}

export interface ReleaseRecord {
  id: number;
  tag_name: string;
  target_commitish: string;
  name: string | null;
  body: string | null;
  draft: boolean;
  prerelease: boolean;
  author: string;
  created_at: string;
  published_at: string | null;
}

export interface IssueRecord {
  number: number;
  id: number;
  title: string;
  body: string | null;
  state: 'open' | 'closed';
  state_reason: string | null;
  labels: string[];
  user: string;
  created_at: string;
  updated_at: string;
  closed_at: string | null;
  /** Set for pull requests (GitHub lists them among the issues too). */
  pull?: PullFields;
}

/**
 * What a pull request adds to its issue. An open pull shows its branches' current tips; the
 * `*Sha` fields keep what they were when it was created, closed or merged (a branch may be gone
 * since). Fields after `headOwner` are absent in a github.json written before merges existed.
 */
export interface PullFields {
  head: string;
  base: string;
  headOwner: string;
  headSha?: string | null;
  baseSha?: string | null;
  merged_at?: string | null;
  merge_commit_sha?: string | null;
  merged_by?: string | null;
}

/** A comment on an issue or a pull request (its conversation, not a review comment). */
export interface CommentRecord {
  id: number;
  issue_number: number;
  user: string;
  body: string;
  created_at: string;
  updated_at: string;
}

export interface CommitRecord {
  sha: string;
  parent: string | null;
  /** A merge commit's second parent (the merged pull's head). */
  merged?: string;
  message: string;
  /** path → base64 content */
  files: Record<string, string>;
  at: string;
}

export interface RepoRecord {
  id: number;
  owner: string;
  name: string;
  private: boolean;
  description: string | null;
  default_branch: string;
  created_at: string;
  releases: ReleaseRecord[];
  issues: IssueRecord[];
  /** Absent in a github.json written before comments were kept. */
  comments?: CommentRecord[];
  /** `heads/main` → commit sha (the part of the ref name after `refs/`). */
  refs: Record<string, string>;
  commits: Record<string, CommitRecord>;
}

/** One ref a push changed; a created ref's `before` and a deleted one's `after` are git's zero id. */
export interface RefUpdate {
  ref: string;
  before: string;
  after: string;
}

/** A `git push` over smart HTTP to a `--git-root` repository that changed at least one ref. */
export interface PushRecord {
  /** `OWNER/NAME` as the git root's folders spell it. */
  repository: string;
  login: string;
  refs: RefUpdate[];
  at: string;
}

export interface GithubStateData {
  version: 1;
  nextId: number;
  repos: RepoRecord[];
  /** Absent in a github.json written before pushes were recorded. */
  pushes?: PushRecord[];
}

export function emptyGithubState(): GithubStateData {
  return { version: 1, nextId: 1, repos: [], pushes: [] };
}

export function nowIso(): string {
  return new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** git's blob id of a file's content, as GitHub reports `sha` for contents. */
export function blobSha(contentBase64: string): string {
  const bytes = Buffer.from(contentBase64, 'base64');
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}

export function newCommit(parent: CommitRecord | undefined, message: string, files: Record<string, string>): CommitRecord {
  const sha = createHash('sha1').update(`${parent?.sha ?? ''}\n${message}\n${JSON.stringify(files)}\n${randomBytes(8).toString('hex')}`).digest('hex');
  return { sha, parent: parent?.sha ?? null, message, files, at: nowIso() };
}

export function newRepo(id: number, owner: string, name: string, options: { private?: boolean; description?: string | null } = {}): RepoRecord {
  const initial = newCommit(undefined, 'Initial commit', {});
  return {
    id,
    owner,
    name,
    private: options.private === true,
    description: options.description ?? null,
    default_branch: 'main',
    created_at: nowIso(),
    releases: [],
    issues: [],
    refs: { 'heads/main': initial.sha },
    commits: { [initial.sha]: initial },
  };
}

/** `rec[key]` for the record's own keys only: a ref or sha named `__proto__` or `constructor` is just unknown. */
export function own<T>(rec: Record<string, T>, key: string): T | undefined {
  return Object.hasOwn(rec, key) ? rec[key] : undefined;
}
