import type { ChangedFile, CommitInfo, Comparison } from './branches.js';
import { repoJson, userJson, type Bases } from './shapes.js';
import type { IssueRecord, PullFields, RepoRecord } from './state.js';

/** A pull request: an issue with its branches. */
export type PullRecord = IssueRecord & { pull: PullFields };

/**
 * The commits a pull's sides name: an open pull follows its branches (a push moves `head.sha`),
 * a closed one keeps what it had when it was closed or merged.
 */
export function pullShas(p: PullRecord, tips: ReadonlyMap<string, string>): { head: string | null; base: string | null } {
  const live = (ref: string): string | undefined => (p.state === 'open' ? tips.get(ref) : undefined);
  return {
    head: live(p.pull.head) ?? p.pull.headSha ?? tips.get(p.pull.head) ?? null,
    base: live(p.pull.base) ?? p.pull.baseSha ?? tips.get(p.pull.base) ?? null,
  };
}

export function pullJson(r: RepoRecord, i: PullRecord, b: Bases, tips: ReadonlyMap<string, string>): Record<string, unknown> {
  const api = `${b.api}/repos/${r.owner}/${r.name}`;
  const p = i.pull;
  const shas = pullShas(i, tips);
  const side = (ref: string, owner: string, sha: string | null): Record<string, unknown> => ({
    label: `${owner}:${ref}`,
    ref,
    sha,
    user: userJson(owner, b),
    repo: repoJson(r, b),
  });
  return {
    id: i.id,
    node_id: `PR_${i.id}`,
    number: i.number,
    state: i.state,
    locked: false,
    title: i.title,
    body: i.body,
    user: userJson(i.user, b),
    labels: i.labels.map((name, n) => ({ id: n + 1, name })),
    url: `${api}/pulls/${i.number}`,
    html_url: `${b.html}/${r.owner}/${r.name}/pull/${i.number}`,
    diff_url: `${b.html}/${r.owner}/${r.name}/pull/${i.number}.diff`,
    patch_url: `${b.html}/${r.owner}/${r.name}/pull/${i.number}.patch`,
    issue_url: `${api}/issues/${i.number}`,
    commits_url: `${api}/pulls/${i.number}/commits`,
    comments_url: `${api}/issues/${i.number}/comments`,
    head: side(p.head, p.headOwner, shas.head),
    base: side(p.base, r.owner, shas.base),
    merged: (p.merged_at ?? null) !== null,
    merged_at: p.merged_at ?? null,
    merge_commit_sha: p.merge_commit_sha ?? null,
    merged_by: p.merged_by === undefined || p.merged_by === null ? null : userJson(p.merged_by, b),
    draft: false,
    created_at: i.created_at,
    updated_at: i.updated_at,
    closed_at: i.closed_at,
  };
}

export function commitJson(r: RepoRecord, c: CommitInfo, b: Bases): Record<string, unknown> {
  const api = `${b.api}/repos/${r.owner}/${r.name}`;
  const html = `${b.html}/${r.owner}/${r.name}`;
  return {
    sha: c.sha,
    node_id: `C_${c.sha}`,
    url: `${api}/commits/${c.sha}`,
    html_url: `${html}/commit/${c.sha}`,
    comments_url: `${api}/commits/${c.sha}/comments`,
    commit: {
      url: `${api}/git/commits/${c.sha}`,
      author: c.author,
      committer: c.committer,
      message: c.message,
      tree: { sha: c.tree, url: `${api}/git/trees/${c.tree}` },
      comment_count: 0,
    },
    // GitHub's accounts behind the commit's e-mail addresses; the stand-in knows none.
    author: null,
    committer: null,
    parents: c.parents.map((sha) => ({ sha, url: `${api}/commits/${sha}`, html_url: `${html}/commit/${sha}` })),
  };
}

export function changedFileJson(r: RepoRecord, f: ChangedFile, headSha: string, b: Bases): Record<string, unknown> {
  const api = `${b.api}/repos/${r.owner}/${r.name}`;
  const path = f.filename.split('/').map(encodeURIComponent).join('/');
  return {
    sha: f.sha,
    filename: f.filename,
    status: f.status,
    additions: f.additions,
    deletions: f.deletions,
    changes: f.additions + f.deletions,
    blob_url: `${b.html}/${r.owner}/${r.name}/blob/${headSha}/${path}`,
    raw_url: `${b.html}/${r.owner}/${r.name}/raw/${headSha}/${path}`,
    contents_url: `${api}/contents/${path}?ref=${headSha}`,
    ...(f.patch === undefined ? {} : { patch: f.patch }),
    ...(f.previous_filename === undefined ? {} : { previous_filename: f.previous_filename }),
  };
}

export function compareJson(r: RepoRecord, spec: string, c: Comparison, headSha: string, b: Bases): Record<string, unknown> {
  const html = `${b.html}/${r.owner}/${r.name}`;
  const status = c.aheadBy === 0 ? (c.behindBy === 0 ? 'identical' : 'behind') : c.behindBy === 0 ? 'ahead' : 'diverged';
  return {
    url: `${b.api}/repos/${r.owner}/${r.name}/compare/${spec}`,
    html_url: `${html}/compare/${spec}`,
    permalink_url: `${html}/compare/${c.base.sha}...${headSha}`,
    diff_url: `${html}/compare/${spec}.diff`,
    patch_url: `${html}/compare/${spec}.patch`,
    base_commit: commitJson(r, c.base, b),
    merge_base_commit: commitJson(r, c.mergeBase, b),
    status,
    ahead_by: c.aheadBy,
    behind_by: c.behindBy,
    total_commits: c.aheadBy,
    commits: c.commits.slice(0, 250).map((commit) => commitJson(r, commit, b)),
    files: c.files.slice(0, 300).map((f) => changedFileJson(r, f, headSha, b)),
  };
}
