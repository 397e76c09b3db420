import { createHash } from 'node:crypto';
import type { CommentRecord, IssueRecord, ReleaseRecord, RepoRecord } from './state.js';

/** GitHub's JSON shapes (the fields @octokit/rest users read), built from the stand-in's records. */
export interface Bases {
  /** http://127.0.0.1:P/github/api */
  api: string;
  /** http://127.0.0.1:P/github */
  html: string;
}

/** A stable number for a login, as GitHub's user ids are. */
export function userId(login: string): number {
  return createHash('sha1').update(login).digest().readUInt32BE(0) % 10_000_000;
}

export function userJson(login: string, b: Bases): Record<string, unknown> {
  return {
    login,
    id: userId(login),
    node_id: `U_${userId(login)}`,
    type: 'User',
    site_admin: false,
    url: `${b.api}/users/${login}`,
    html_url: `${b.html}/${login}`,
  };
}

/** What a repository shows beyond its record: a `--git-root` repository's own facts (git-root.ts). */
export interface RepoFacts {
  default_branch?: string;
  archived?: boolean;
  fork?: boolean;
  topics?: string[];
  private?: boolean;
  description?: string;
}

export function repoJson(r: RepoRecord, b: Bases, facts: RepoFacts = {}): Record<string, unknown> {
  const priv = facts.private ?? r.private;
  return {
    id: r.id,
    node_id: `R_${r.id}`,
    name: r.name,
    full_name: `${r.owner}/${r.name}`,
    owner: userJson(r.owner, b),
    private: priv,
    visibility: priv ? 'private' : 'public',
    description: facts.description ?? r.description,
    fork: facts.fork ?? false,
    archived: facts.archived ?? false,
    disabled: false,
    topics: facts.topics ?? [],
    default_branch: facts.default_branch ?? r.default_branch,
    url: `${b.api}/repos/${r.owner}/${r.name}`,
    html_url: `${b.html}/${r.owner}/${r.name}`,
    clone_url: `${b.html}/${r.owner}/${r.name}.git`,
    created_at: r.created_at,
    updated_at: r.created_at,
  };
}

export function releaseJson(r: RepoRecord, rel: ReleaseRecord, b: Bases): Record<string, unknown> {
  const api = `${b.api}/repos/${r.owner}/${r.name}`;
  const tag = encodeURIComponent(rel.tag_name);
  return {
    url: `${api}/releases/${rel.id}`,
    html_url: `${b.html}/${r.owner}/${r.name}/releases/tag/${tag}`,
    assets_url: `${api}/releases/${rel.id}/assets`,
    upload_url: `${api}/releases/${rel.id}/assets{?name,label}`,
    tarball_url: `${api}/tarball/${tag}`,
    zipball_url: `${api}/zipball/${tag}`,
    id: rel.id,
    node_id: `RE_${rel.id}`,
    tag_name: rel.tag_name,
    target_commitish: rel.target_commitish,
    name: rel.name,
    body: rel.body,
    draft: rel.draft,
    prerelease: rel.prerelease,
    created_at: rel.created_at,
    published_at: rel.published_at,
    author: userJson(rel.author, b),
    assets: [],
  };
}

export function issueJson(r: RepoRecord, i: IssueRecord, b: Bases): Record<string, unknown> {
  const api = `${b.api}/repos/${r.owner}/${r.name}`;
  const kind = i.pull === undefined ? 'issues' : 'pull';
  return {
    id: i.id,
    node_id: `I_${i.id}`,
    number: i.number,
    title: i.title,
    body: i.body,
    state: i.state,
    state_reason: i.state_reason,
    locked: false,
    labels: i.labels.map((name, n) => ({ id: n + 1, name })),
    user: userJson(i.user, b),
    url: `${api}/issues/${i.number}`,
    html_url: `${b.html}/${r.owner}/${r.name}/${kind}/${i.number}`,
    repository_url: api,
    comments: (r.comments ?? []).filter((c) => c.issue_number === i.number).length,
    created_at: i.created_at,
    updated_at: i.updated_at,
    closed_at: i.closed_at,
    ...(i.pull === undefined
      ? {}
      : { pull_request: { url: `${api}/pulls/${i.number}`, html_url: `${b.html}/${r.owner}/${r.name}/pull/${i.number}`, merged_at: i.pull.merged_at ?? null } }),
  };
}

/** The conversation's link to a comment: on the pull's page for a pull request, as on GitHub. */
export function commentJson(r: RepoRecord, i: IssueRecord, c: CommentRecord, b: Bases): Record<string, unknown> {
  const api = `${b.api}/repos/${r.owner}/${r.name}`;
  return {
    id: c.id,
    node_id: `IC_${c.id}`,
    url: `${api}/issues/comments/${c.id}`,
    html_url: `${b.html}/${r.owner}/${r.name}/${i.pull === undefined ? 'issues' : 'pull'}/${i.number}#issuecomment-${c.id}`,
    issue_url: `${api}/issues/${i.number}`,
    body: c.body,
    user: userJson(c.user, b),
    author_association: c.user.toLowerCase() === r.owner.toLowerCase() ? 'OWNER' : 'NONE',
    created_at: c.created_at,
    updated_at: c.updated_at,
  };
}

/** GitHub's error body: `{"message": ..., "documentation_url": ...}`, plus `errors` for 422. */
export function githubError(message: string, errors?: Record<string, unknown>[]): Record<string, unknown> {
  return { message, documentation_url: 'https://docs.github.com/rest', ...(errors === undefined ? {} : { errors }) };
}
