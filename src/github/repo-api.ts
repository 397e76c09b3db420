import type { Octokit } from '@octokit/rest';
import { EnvironmentError } from '../core/errors.js';
import type { RepoName } from '../core/notes/tracker.js';
import { redirectOf } from './client.js';

/**
 * The GitHub REST calls a distribution pull request needs (git refs, contents, pulls), each a
 * small function over an Octokit (house style: one function per question). relctl follows no
 * redirects and octokit hands a 3xx back as if it were the answer, so every answer is checked
 * for a redirect and for its shape before it is read: a moved repository reads as a move, a proxy's
 * page as "not GitHub's answer", never as a TypeError from deep inside.
 */
/** octokit's `{owner, repo}` of a RepoName. */
function idOf(r: RepoName): { owner: string; repo: string } {
  return { owner: r.owner, repo: r.name };
}

export interface Answer {
  status: number;
  headers: unknown;
  data: unknown;
}

/**
 * The answer's data once it is known not to be a redirect and to have the expected shape;
 * `whereToName` says where the user names the repository, for a moved one.
 */
export function dataOf<T>(res: Answer, r: RepoName, what: string, shape: (data: unknown) => data is T, whereToName = "set distribution.repo to its current owner/name (or point the clone's origin at it)"): T {
  const moved = redirectOf({ status: res.status, headers: (res.headers ?? {}) as Record<string, unknown> });
  if (moved !== undefined) {
    throw new EnvironmentError(`GitHub redirected ${what} on ${r.owner}/${r.name} (${moved}); relctl follows no redirects on API calls.`, {
      kind: 'unexpected-response',
      fix: `The repository may have been renamed or transferred: ${whereToName}.`,
    });
  }
  if (!shape(res.data)) {
    throw new EnvironmentError(`GitHub's answer to ${what} on ${r.owner}/${r.name} (HTTP ${res.status}) is not what the REST API answers.`, {
      kind: 'unexpected-response',
      fix: 'Check RELCTL_GITHUB_API_URL: it must be the REST API (https://api.github.com, or https://HOST/api/v3 for GitHub Enterprise), not a web page or a proxy.',
    });
  }
  return res.data;
}

/** A JSON object (not null, not an array): the shape checks of GitHub's answers start here. */
export const isObject = (d: unknown): d is Record<string, unknown> => typeof d === 'object' && d !== null && !Array.isArray(d);
const isPull = (d: unknown): d is { number: number; html_url: string; head?: { ref?: unknown } } => isObject(d) && typeof d.number === 'number' && typeof d.html_url === 'string';
const isPullList = (d: unknown): d is { number: number; html_url: string; head?: { ref?: unknown } }[] => Array.isArray(d) && d.every(isPull);
const isRepo = (d: unknown): d is { default_branch: string } => isObject(d) && typeof d.default_branch === 'string';
const isRef = (d: unknown): d is { object: { sha: string } } => isObject(d) && isObject(d.object) && typeof d.object.sha === 'string';
const isAny = (_d: unknown): _d is unknown => true;

export interface OpenPull {
  number: number;
  url: string;
}

/** The open pull request whose head is `branch` (in the same repository), if any. */
export async function findOpenPull(gh: Octokit, r: RepoName, branch: string): Promise<OpenPull | undefined> {
  const res = await gh.rest.pulls.list({ ...idOf(r), state: 'open', head: `${r.owner}:${branch}`, per_page: 100 });
  const hit = dataOf(res, r, 'the list of open pull requests', isPullList).find((p) => p.head?.ref === branch);
  return hit === undefined ? undefined : { number: hit.number, url: hit.html_url };
}

export async function defaultBranch(gh: Octokit, r: RepoName): Promise<string> {
  return dataOf(await gh.rest.repos.get(idOf(r)), r, 'the repository', isRepo).default_branch;
}

export async function branchSha(gh: Octokit, r: RepoName, branch: string): Promise<string | undefined> {
  try {
    return dataOf(await gh.rest.git.getRef({ ...idOf(r), ref: `heads/${branch}` }), r, `the branch ${branch}`, isRef).object.sha;
  } catch (error) {
    if ((error as { status?: number }).status === 404) return undefined;
    throw error;
  }
}

export async function createBranch(gh: Octokit, r: RepoName, branch: string, sha: string): Promise<void> {
  dataOf(await gh.rest.git.createRef({ ...idOf(r), ref: `refs/heads/${branch}`, sha }), r, `creating the branch ${branch}`, isAny);
}

export interface RepoFile {
  text: string;
  sha: string;
}

export async function readRepoFile(gh: Octokit, r: RepoName, path: string, ref: string): Promise<RepoFile | undefined> {
  try {
    const data = dataOf(await gh.rest.repos.getContent({ ...idOf(r), path, ref }), r, `${path} on ${ref}`, isAny);
    if (!isObject(data) || data.type !== 'file' || typeof data.content !== 'string' || typeof data.sha !== 'string') return undefined;
    return { text: Buffer.from(data.content.replace(/\s+/g, ''), 'base64').toString('utf8'), sha: data.sha };
  } catch (error) {
    if ((error as { status?: number }).status === 404) return undefined;
    throw error;
  }
}

/** One commit on `branch` that sets `path` to `text`. */
export async function writeRepoFile(gh: Octokit, r: RepoName, input: { path: string; text: string; sha: string; branch: string; message: string }): Promise<void> {
  const res = await gh.rest.repos.createOrUpdateFileContents({
    ...idOf(r),
    path: input.path,
    message: input.message,
    content: Buffer.from(input.text, 'utf8').toString('base64'),
    sha: input.sha,
    branch: input.branch,
  });
  dataOf(res, r, `committing ${input.path} on ${input.branch}`, isAny);
}

export async function createPull(gh: Octokit, r: RepoName, input: { title: string; body: string; head: string; base: string }): Promise<OpenPull> {
  const data = dataOf(await gh.rest.pulls.create({ ...idOf(r), ...input }), r, 'opening the pull request', isPull);
  return { number: data.number, url: data.html_url };
}
