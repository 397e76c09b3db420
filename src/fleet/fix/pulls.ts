/**
 * The pull requests of `relctl fleet fix --open-prs` (DESIGN §13, Fix): relctl's own one per
 * repository, opened once and updated in place; an open pull request by anyone whose head already
 * holds the same files counts as the fix and is linked, never duplicated. Every call waits out a
 * rate limit; creations are paced (`--pr-interval`) and counted (`--max-prs`).
 */
import type { Octokit } from '@octokit/rest';
import { EnvironmentError, RelctlError } from '../../core/errors.js';
import { githubMessage, relctlCause, statusOf } from '../../github/client.js';
import { githubFailure, rateLimitReset, validationDetails } from '../../github/errors.js';
import { pause, withRateLimitRetry } from '../../github/rate-limited.js';
import { tokenLogin } from '../../github/token-login.js';
import { runGit } from '../../io/git.js';
import { fixBranch, storedBlobId } from './branch.js';
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

/**
 * Paces and counts pull request creations across one run: every attempt, refused or not, takes
 * its turn and counts toward `--max-prs`; after a refusal that would repeat, none is tried again.
 */
export class PullPacer {
  private last: number | undefined;
  private stopped: string | undefined;
  attempts = 0;
  constructor(
    private readonly maxPrs: number,
    private readonly intervalMs: number,
    private readonly signal?: AbortSignal,
  ) {}

  /** Undefined when another may be attempted now (after waiting its turn); else why not. */
  async turn(): Promise<string | undefined> {
    if (this.stopped !== undefined) return this.stopped;
    if (this.attempts >= this.maxPrs) return `--max-prs ${this.maxPrs} pull requests were attempted in this run; the next run opens it`;
    if (this.last !== undefined) {
      const wait = this.last + this.intervalMs - Date.now();
      if (wait > 0) await pause(wait, this.signal);
    }
    return undefined;
  }

  attempted(): void {
    this.attempts++;
    this.last = Date.now();
  }

  /** No more attempts in this run, for `why`. */
  stop(why: string): void {
    this.stopped ??= why;
  }
}

export interface PullSession {
  gh: Octokit;
  log: (line: string) => void;
  signal?: AbortSignal;
  /** The token's login, once asked. */
  login?: string;
}

/** The token's user (asked once per session): the only author whose pull requests are relctl's. */
export async function sessionLogin(session: PullSession): Promise<string> {
  if (session.login !== undefined) return session.login;
  const login = await call(session, 'asking GitHub whose token this is (GET /user)', () => tokenLogin(session.gh));
  if (typeof login !== 'string' || login === '') {
    throw new EnvironmentError("GitHub's answer to GET /user names no login, so relctl cannot tell its own pull requests from others'.", { kind: 'unexpected-response', fix: 'Check --github-url: it must be the REST API root (https://api.github.com, or https://HOST/api/v3).' });
  }
  session.login = login;
  return login;
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
export async function closedUnmerged(session: PullSession, repo: string, login: string): Promise<ListedPull | undefined> {
  const id = ownerName(repo);
  const closed = (await call(session, `listing the closed pull requests of ${repo}`, () => session.gh.paginate(session.gh.rest.pulls.list, { ...id, state: 'closed', head: `${id.owner}:${fixBranch}`, per_page: 100 }))) as (ListedPull & { merged_at?: string | null })[];
  return closed.filter((p) => onFixBranch(p, repo) && openedBy(p, login) && (p.merged_at ?? null) === null).sort((a, b) => b.number - a.number)[0];
}

/** Whether a pull request's head is `relctl/central-portal` of the repository itself (whoever opened it). */
export function onFixBranch(pull: ListedPull, repo: string): boolean {
  return pull.head.ref === fixBranch && (pull.head.repo?.full_name ?? '').toLowerCase() === repo.toLowerCase();
}

export function openedBy(pull: ListedPull, login: string): boolean {
  return (pull.user?.login ?? '').toLowerCase() === login.toLowerCase();
}

/**
 * An open pull request (not on relctl's branch) whose head holds every changed file exactly as the fix
 * would leave it. Its head is read from the clone: a branch of the same repository was fetched
 * with the rest; a fork's head is fetched through `refs/pull/N/head`.
 */
export async function equivalentPull(dir: string, pulls: readonly ListedPull[], repo: string, changes: readonly FileChange[], env: NodeJS.ProcessEnv): Promise<ListedPull | undefined> {
  for (const pull of pulls) {
    if (onFixBranch(pull, repo)) continue;
    if (await holdsChanges(dir, pull, changes, env)) return pull;
  }
  return undefined;
}

/** Each change's blob id, hashed once however many pull requests it is compared with. */
const blobIds = new WeakMap<FileChange, Promise<string | undefined>>();

function blobIdOf(dir: string, c: FileChange, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  let id = blobIds.get(c);
  if (id === undefined) blobIds.set(c, (id = storedBlobId(dir, c.file, c.bytes, env)));
  return id;
}

/** Whether a pull request's head holds every changed file exactly as the change leaves it. */
export async function holdsChanges(dir: string, pull: ListedPull, changes: readonly FileChange[], env: NodeJS.ProcessEnv): Promise<boolean> {
  let present = (await runGit(dir, ['cat-file', '-e', `${pull.head.sha}^{commit}`], { env })).ok;
  if (!present) present = (await runGit(dir, ['fetch', '--quiet', 'origin', `refs/pull/${pull.number}/head`], { env })).ok && (await runGit(dir, ['cat-file', '-e', `${pull.head.sha}^{commit}`], { env })).ok;
  if (!present) return false;
  for (const c of changes) {
    const theirs = await runGit(dir, ['rev-parse', '--verify', '--quiet', `${pull.head.sha}:${c.file}`], { env });
    // Compared with what git would store (its filters applied), not the raw bytes: with
    // `* text eol=crlf` the committed blob differs from the working-tree text.
    if (!theirs.ok || theirs.stdout !== (await blobIdOf(dir, c, env))) return false;
  }
  return true;
}

export type CreateOutcome = { opened: PullRef } | { refused: string; repeats: boolean };

/**
 * Opens relctl's pull request. A refusal says whether it would repeat for every repository of the
 * run: the token may not open pull requests (401, 404, a 403 that is no rate limit, a 422 about
 * permission), as opposed to a rate limit or this repository's own state.
 */
export async function createPull(session: PullSession, repo: string, input: { title: string; body: string; base: string }): Promise<CreateOutcome> {
  const what = `opening the pull request on ${repo}`;
  try {
    const res = await withRateLimitRetry(() => session.gh.rest.pulls.create({ ...ownerName(repo), title: input.title, body: input.body, head: fixBranch, base: input.base }), { what, log: session.log, ...(session.signal === undefined ? {} : { signal: session.signal }) });
    return { opened: { number: res.data.number, url: res.data.html_url, state: res.data.state } };
  } catch (error) {
    // An interruption or a failure of relctl's own (no answer at all) is the run's, not a refusal.
    if (error instanceof RelctlError || relctlCause(error) !== undefined) throw githubFailure(error, what, words);
    return { refused: githubFailure(error, what, words).message, repeats: refusalRepeats(error) };
  }
}

function refusalRepeats(error: unknown): boolean {
  const status = statusOf(error);
  if (status === 401 || status === 404) return true;
  if (status === 403) return !rateLimitReset(error).limited;
  return status === 422 && /permission|not permitted|not accessible|forbidden/i.test([githubMessage(error), ...validationDetails(error)].join(' '));
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
