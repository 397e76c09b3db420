/**
 * The pull requests of `relctl fleet fix --open-prs` (DESIGN §13, Fix): relctl's own one per
 * repository, opened once and updated in place; an open pull request by anyone whose head already
 * holds the same files counts as the fix and is linked, never duplicated. Every call waits out a
 * rate limit; creations are paced (`--pr-interval`) and counted (`--max-prs`).
 */
import { createHash } from 'node:crypto';
import type { Octokit } from '@octokit/rest';
import { githubFailure } from '../../github/errors.js';
import { pause, withRateLimitRetry } from '../../github/rate-limited.js';
import { runGit } from '../../io/git.js';
import { fixBranch } from './branch.js';
import type { FileChange } from './own-edits.js';

export interface PullRef {
  number: number;
  url: string;
  state: string;
}

interface ListedPull {
  number: number;
  html_url: string;
  state: string;
  title: string;
  body?: string | null;
  user?: { login?: string } | null;
  head: { ref: string; sha: string; repo?: { full_name?: string } | null };
}

const words = { rights: 'push branches and open pull requests on the fleet\'s repositories', retry: 'run relctl fleet fix again (it is idempotent)' };

/** Paces and counts pull request creations across one run. */
export class PullPacer {
  private last: number | undefined;
  created = 0;
  constructor(
    private readonly maxPrs: number,
    private readonly intervalMs: number,
    private readonly signal?: AbortSignal,
  ) {}

  /** Undefined when another may be created now (after waiting its turn); else why not. */
  async turn(): Promise<string | undefined> {
    if (this.created >= this.maxPrs) return `--max-prs ${this.maxPrs} new pull requests were opened in this run; the next run opens it`;
    if (this.last !== undefined) {
      const wait = this.last + this.intervalMs - Date.now();
      if (wait > 0) await pause(wait, this.signal);
    }
    return undefined;
  }

  opened(): void {
    this.created++;
    this.last = Date.now();
  }
}

export interface PullSession {
  gh: Octokit;
  log: (line: string) => void;
  signal?: AbortSignal;
}

function ownerName(full: string): { owner: string; repo: string } {
  const [owner, repo] = full.split('/') as [string, string];
  return { owner, repo };
}

async function call<T>(session: PullSession, what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await withRateLimitRetry(fn, { what, log: session.log, ...(session.signal === undefined ? {} : { signal: session.signal }) });
  } catch (error) {
    throw githubFailure(error, what, words);
  }
}

export async function openPulls(session: PullSession, repo: string): Promise<ListedPull[]> {
  const id = ownerName(repo);
  return call(session, `listing the open pull requests of ${repo}`, () => session.gh.paginate(session.gh.rest.pulls.list, { ...id, state: 'open', per_page: 100 })) as Promise<ListedPull[]>;
}

/** relctl's newest pull request that was closed without being merged, if any. */
export async function closedUnmerged(session: PullSession, repo: string): Promise<ListedPull | undefined> {
  const id = ownerName(repo);
  const closed = (await call(session, `listing the closed pull requests of ${repo}`, () => session.gh.paginate(session.gh.rest.pulls.list, { ...id, state: 'closed', head: `${id.owner}:${fixBranch}`, per_page: 100 }))) as (ListedPull & { merged_at?: string | null })[];
  return closed.filter((p) => isOurs(p, repo) && (p.merged_at ?? null) === null).sort((a, b) => b.number - a.number)[0];
}

export function isOurs(pull: ListedPull, repo: string): boolean {
  return pull.head.ref === fixBranch && (pull.head.repo?.full_name ?? '').toLowerCase() === repo.toLowerCase();
}

/**
 * An open pull request (not relctl's) whose head holds every changed file exactly as the fix
 * would leave it. Its head is read from the clone: a branch of the same repository was fetched
 * with the rest; a fork's head is fetched through `refs/pull/N/head`.
 */
export async function equivalentPull(dir: string, pulls: readonly ListedPull[], repo: string, changes: readonly FileChange[], env: NodeJS.ProcessEnv): Promise<ListedPull | undefined> {
  for (const pull of pulls) {
    if (isOurs(pull, repo)) continue;
    if (await holdsChanges(dir, pull, changes, env)) return pull;
  }
  return undefined;
}

/** Whether a pull request's head holds every changed file exactly as the change leaves it. */
export async function holdsChanges(dir: string, pull: ListedPull, changes: readonly FileChange[], env: NodeJS.ProcessEnv): Promise<boolean> {
  let present = (await runGit(dir, ['cat-file', '-e', `${pull.head.sha}^{commit}`], { env })).ok;
  if (!present) present = (await runGit(dir, ['fetch', '--quiet', 'origin', `refs/pull/${pull.number}/head`], { env })).ok && (await runGit(dir, ['cat-file', '-e', `${pull.head.sha}^{commit}`], { env })).ok;
  if (!present) return false;
  for (const c of changes) {
    const theirs = await runGit(dir, ['rev-parse', '--verify', '--quiet', `${pull.head.sha}:${c.file}`], { env });
    if (!theirs.ok || theirs.stdout !== blobId(c.bytes)) return false;
  }
  return true;
}

/** git's blob id of some bytes (what `git hash-object` prints), without writing anything. */
function blobId(bytes: Buffer): string {
  return createHash('sha1').update(`blob ${bytes.length}\u0000`).update(bytes).digest('hex');
}

export async function createPull(session: PullSession, repo: string, input: { title: string; body: string; base: string }): Promise<PullRef> {
  const res = await call(session, `opening the pull request on ${repo}`, () => session.gh.rest.pulls.create({ ...ownerName(repo), title: input.title, body: input.body, head: fixBranch, base: input.base }));
  return { number: res.data.number, url: res.data.html_url, state: res.data.state };
}

/** Updates relctl's pull request only when its title or body changed (a run with nothing new edits nothing). */
export async function updatePull(session: PullSession, repo: string, pull: ListedPull, input: { title: string; body: string }): Promise<boolean> {
  if (pull.title === input.title && (pull.body ?? '') === input.body) return false;
  await call(session, `updating pull request #${pull.number} on ${repo}`, () => session.gh.rest.pulls.update({ ...ownerName(repo), pull_number: pull.number, title: input.title, body: input.body }));
  return true;
}

export function pullRef(pull: ListedPull): PullRef {
  return { number: pull.number, url: pull.html_url, state: pull.state };
}
