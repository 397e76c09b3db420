import type { Branches, ChangedFile, CommitInfo, Comparison, MergeOutcome, MergeRequest } from './branches.js';
import { blobSha, newCommit, own, type CommitRecord, type RepoRecord } from './state.js';

function lines(base64: string | undefined): string[] {
  if (base64 === undefined) return [];
  const text = Buffer.from(base64, 'base64').toString('utf8');
  return text === '' ? [] : text.replace(/\n$/, '').split('\n');
}

/**
 * A file's change as one hunk without context: the lines between the common head and tail of the
 * two versions. Not the smallest diff git would write, but a correct one, which is all the
 * store's small files need.
 */
function lineDiff(before: string[], after: string[]): { additions: number; deletions: number; patch: string } {
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start += 1;
  let end = 0;
  while (end < before.length - start && end < after.length - start && before[before.length - 1 - end] === after[after.length - 1 - end]) end += 1;
  const removed = before.slice(start, before.length - end);
  const added = after.slice(start, after.length - end);
  const range = (count: number): string => `${count === 0 ? start : start + 1},${count}`;
  const patch = [`@@ -${range(removed.length)} +${range(added.length)} @@`, ...removed.map((l) => `-${l}`), ...added.map((l) => `+${l}`)].join('\n');
  return { additions: added.length, deletions: removed.length, patch };
}

/** The stand-in's own store (refs → commits of whole file maps) seen as branches. */
export class StoreBranches implements Branches {
  constructor(private readonly repo: RepoRecord) {}

  get lockKey(): string {
    return `store:${this.repo.id}`;
  }

  async tips(): Promise<ReadonlyMap<string, string>> {
    return new Map(Object.entries(this.repo.refs).filter(([ref]) => ref.startsWith('heads/')).map(([ref, sha]) => [ref.slice('heads/'.length), sha]));
  }

  async resolve(name: string): Promise<string | undefined> {
    return own(this.repo.refs, `heads/${name}`) ?? own(this.repo.refs, `tags/${name}`) ?? (own(this.repo.commits, name) === undefined ? undefined : name);
  }

  async ahead(base: string, head: string): Promise<number> {
    const known = this.ancestors(base);
    return this.ancestors(head).filter((sha) => !known.includes(sha)).length;
  }

  async compare(base: string, head: string): Promise<Comparison | undefined> {
    const ofBase = this.ancestors(base);
    const ofHead = this.ancestors(head);
    const mergeBase = ofHead.find((sha) => ofBase.includes(sha));
    if (mergeBase === undefined) return undefined;
    const commits = ofHead.filter((sha) => !ofBase.includes(sha)).reverse();
    const before = this.commit(mergeBase).files;
    const after = this.commit(head).files;
    const files: ChangedFile[] = [...new Set([...Object.keys(before), ...Object.keys(after)])]
      .sort()
      .filter((path) => own(before, path) !== own(after, path))
      .map((path) => {
        const [old, now] = [own(before, path), own(after, path)];
        const status = old === undefined ? 'added' : now === undefined ? 'removed' : 'modified';
        return { filename: path, status, sha: blobSha(now ?? old!), ...lineDiff(lines(old), lines(now)) };
      });
    return {
      base: this.info(base),
      mergeBase: this.info(mergeBase),
      aheadBy: commits.length,
      behindBy: ofBase.filter((sha) => !ofHead.includes(sha)).length,
      commits: commits.map((sha) => this.info(sha)),
      files,
    };
  }

  async merge(base: string, baseSha: string, head: string, request: MergeRequest): Promise<MergeOutcome> {
    if (own(this.repo.refs, `heads/${base}`) !== baseSha) return { kind: 'moved' };
    let sha = head;
    if (!this.ancestors(head).includes(baseSha) || request.method === 'squash') {
      const files = this.mergedFiles(baseSha, head);
      if (files === undefined) return { kind: 'conflict' };
      const commit: CommitRecord = newCommit(this.commit(baseSha), request.message, files);
      if (request.method === 'merge') commit.merged = head;
      this.repo.commits[commit.sha] = commit;
      sha = commit.sha;
    }
    this.repo.refs[`heads/${base}`] = sha;
    return { kind: 'merged', sha };
  }

  /** A three-way merge by whole files: a file both sides changed differently is a conflict. */
  private mergedFiles(base: string, head: string): Record<string, string> | undefined {
    const ofBase = this.ancestors(base);
    const mb = this.ancestors(head).find((sha) => ofBase.includes(sha));
    const [from, ours, theirs] = [mb === undefined ? {} : this.commit(mb).files, this.commit(base).files, this.commit(head).files];
    const merged: Record<string, string> = {};
    for (const path of new Set([...Object.keys(ours), ...Object.keys(theirs)])) {
      const [o, t, f] = [own(ours, path), own(theirs, path), own(from, path)];
      const pick = o === t || t === f ? o : o === f ? t : null;
      if (pick === null) return undefined;
      if (pick !== undefined) merged[path] = pick;
    }
    return merged;
  }

  /** `sha` and every commit before it, nearest first (both parents of a merge). */
  private ancestors(sha: string): string[] {
    const seen: string[] = [];
    const queue = [sha];
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
      const c = own(this.repo.commits, next);
      if (c === undefined || seen.includes(next)) continue;
      seen.push(next);
      queue.push(...[c.parent, c.merged].filter((p): p is string => typeof p === 'string'));
    }
    return seen;
  }

  private commit(sha: string): CommitRecord {
    return own(this.repo.commits, sha)!;
  }

  private info(sha: string): CommitInfo {
    const c = this.commit(sha);
    const who = { name: 'GitHub', email: 'noreply@github.com', date: c.at };
    return { sha, parents: [c.parent, c.merged].filter((p): p is string => typeof p === 'string'), tree: sha, message: c.message, author: who, committer: who };
  }
}
