import type { Octokit } from '@octokit/rest';
import type { RepoName } from '../core/notes/tracker.js';

/**
 * The GitHub REST calls a distribution pull request needs (git refs, contents, pulls), each a
 * small function over an Octokit (house style: one function per question).
 */
/** octokit's `{owner, repo}` of a RepoName. */
function idOf(r: RepoName): { owner: string; repo: string } {
  return { owner: r.owner, repo: r.name };
}

export interface OpenPull {
  number: number;
  url: string;
}

/** The open pull request whose head is `branch` (in the same repository), if any. */
export async function findOpenPull(gh: Octokit, r: RepoName, branch: string): Promise<OpenPull | undefined> {
  const { data } = await gh.rest.pulls.list({ ...idOf(r), state: 'open', head: `${r.owner}:${branch}`, per_page: 100 });
  const hit = data.find((p) => p.head.ref === branch);
  return hit === undefined ? undefined : { number: hit.number, url: hit.html_url };
}

export async function defaultBranch(gh: Octokit, r: RepoName): Promise<string> {
  return (await gh.rest.repos.get(idOf(r))).data.default_branch;
}

export async function branchSha(gh: Octokit, r: RepoName, branch: string): Promise<string | undefined> {
  try {
    return (await gh.rest.git.getRef({ ...idOf(r), ref: `heads/${branch}` })).data.object.sha;
  } catch (error) {
    if ((error as { status?: number }).status === 404) return undefined;
    throw error;
  }
}

export async function createBranch(gh: Octokit, r: RepoName, branch: string, sha: string): Promise<void> {
  await gh.rest.git.createRef({ ...idOf(r), ref: `refs/heads/${branch}`, sha });
}

export interface RepoFile {
  text: string;
  sha: string;
}

export async function readRepoFile(gh: Octokit, r: RepoName, path: string, ref: string): Promise<RepoFile | undefined> {
  try {
    const { data } = await gh.rest.repos.getContent({ ...idOf(r), path, ref });
    if (Array.isArray(data) || data.type !== 'file' || !('content' in data)) return undefined;
    return { text: Buffer.from(data.content.replace(/\s+/g, ''), 'base64').toString('utf8'), sha: data.sha };
  } catch (error) {
    if ((error as { status?: number }).status === 404) return undefined;
    throw error;
  }
}

/** One commit on `branch` that sets `path` to `text`. */
export async function writeRepoFile(gh: Octokit, r: RepoName, input: { path: string; text: string; sha: string; branch: string; message: string }): Promise<void> {
  await gh.rest.repos.createOrUpdateFileContents({
    ...idOf(r),
    path: input.path,
    message: input.message,
    content: Buffer.from(input.text, 'utf8').toString('base64'),
    sha: input.sha,
    branch: input.branch,
  });
}

export async function createPull(gh: Octokit, r: RepoName, input: { title: string; body: string; head: string; base: string }): Promise<OpenPull> {
  const { data } = await gh.rest.pulls.create({ ...idOf(r), ...input });
  return { number: data.number, url: data.html_url };
}
