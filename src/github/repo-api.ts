import type { Octokit } from '@octokit/rest';

/**
 * The GitHub REST calls a distribution pull request needs (git refs, contents, pulls), each a
 * small function over an Octokit (house style: one function per question).
 */
export interface RepoId {
  owner: string;
  repo: string;
}

export interface OpenPull {
  number: number;
  url: string;
}

/** The open pull request whose head is `branch` (in the same repository), if any. */
export async function findOpenPull(gh: Octokit, id: RepoId, branch: string): Promise<OpenPull | undefined> {
  const { data } = await gh.rest.pulls.list({ ...id, state: 'open', head: `${id.owner}:${branch}`, per_page: 100 });
  const hit = data.find((p) => p.head.ref === branch);
  return hit === undefined ? undefined : { number: hit.number, url: hit.html_url };
}

export async function defaultBranch(gh: Octokit, id: RepoId): Promise<string> {
  return (await gh.rest.repos.get({ owner: id.owner, repo: id.repo })).data.default_branch;
}

export async function branchSha(gh: Octokit, id: RepoId, branch: string): Promise<string | undefined> {
  try {
    return (await gh.rest.git.getRef({ ...id, ref: `heads/${branch}` })).data.object.sha;
  } catch (error) {
    if ((error as { status?: number }).status === 404) return undefined;
    throw error;
  }
}

export async function createBranch(gh: Octokit, id: RepoId, branch: string, sha: string): Promise<void> {
  await gh.rest.git.createRef({ ...id, ref: `refs/heads/${branch}`, sha });
}

export interface RepoFile {
  text: string;
  sha: string;
}

export async function readRepoFile(gh: Octokit, id: RepoId, path: string, ref: string): Promise<RepoFile | undefined> {
  try {
    const { data } = await gh.rest.repos.getContent({ ...id, path, ref });
    if (Array.isArray(data) || data.type !== 'file' || !('content' in data)) return undefined;
    return { text: Buffer.from(data.content.replace(/\s+/g, ''), 'base64').toString('utf8'), sha: data.sha };
  } catch (error) {
    if ((error as { status?: number }).status === 404) return undefined;
    throw error;
  }
}

/** One commit on `branch` that sets `path` to `text`. */
export async function writeRepoFile(gh: Octokit, id: RepoId, input: { path: string; text: string; sha: string; branch: string; message: string }): Promise<void> {
  await gh.rest.repos.createOrUpdateFileContents({
    ...id,
    path: input.path,
    message: input.message,
    content: Buffer.from(input.text, 'utf8').toString('base64'),
    sha: input.sha,
    branch: input.branch,
  });
}

export async function createPull(gh: Octokit, id: RepoId, input: { title: string; body: string; head: string; base: string }): Promise<OpenPull> {
  const { data } = await gh.rest.pulls.create({ ...id, ...input });
  return { number: data.number, url: data.html_url };
}

/** `owner/name` from a git remote URL (https, ssh, scp-like or a local path ending in owner/name.git). */
export function repoIdFromRemote(url: string): RepoId | undefined {
  const m = /[/:]([^/:]+)\/([^/]+?)(?:\.git)?\/?$/.exec(url.trim());
  return m === null ? undefined : { owner: m[1]!, repo: m[2]! };
}
