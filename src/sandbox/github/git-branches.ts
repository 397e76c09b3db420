import { execFile } from 'node:child_process';
import type { Branches, ChangedFile, CommitInfo, Comparison, MergeOutcome, MergeRequest } from './branches.js';
import { gitProcessEnv } from './git-root.js';

/** What a git run said; a non-zero exit is an answer here (merge-base 1: none), not an error. */
interface GitRun {
  code: number;
  stdout: string;
}

/** One record of `git log -z` with this format: fields split by U+001F, the message last. */
const logFormat = '--format=%H%x1f%P%x1f%T%x1f%an%x1f%ae%x1f%aI%x1f%cn%x1f%ce%x1f%cI%x1f%B';

/** Whatever the operator's git configuration says (colour, prefixes, external diff), diffs read the same. */
const diffOptions = ['-M', '--no-color', '--no-ext-diff', '--no-textconv', '--src-prefix=a/', '--dst-prefix=b/'];

const fileStatus: Record<string, ChangedFile['status']> = { A: 'added', D: 'removed', M: 'modified', R: 'renamed', C: 'copied', T: 'changed' };

function parseCommit(record: string): CommitInfo {
  const [sha, parents, tree, an, ae, ad, cn, ce, cd, ...message] = record.split('\x1f');
  return {
    sha: sha!,
    parents: parents === '' ? [] : parents!.split(' '),
    tree: tree!,
    author: { name: an!, email: ae!, date: ad! },
    committer: { name: cn!, email: ce!, date: cd! },
    message: message.join('\x1f').replace(/\n+$/, ''),
  };
}

/** `git diff --raw -z`: `:mode mode old new S\0path\0` (R and C: two paths). */
function parseRaw(out: string): { status: string; old: string; now: string; path: string; from?: string }[] {
  const tokens = out.split('\0');
  const entries = [];
  for (let i = 0; i < tokens.length && tokens[i]!.startsWith(':'); ) {
    const [, , old, now, status] = tokens[i]!.slice(1).split(' ') as [string, string, string, string, string];
    const two = /^[RC]/.test(status);
    const from = tokens[i + 1]!;
    entries.push({ status: status[0]!, old, now, path: two ? tokens[i + 2]! : from, ...(two ? { from } : {}) });
    i += two ? 3 : 2;
  }
  return entries;
}

/** `git diff --numstat -z`: `add\tdel\tpath\0`, or `add\tdel\t\0from\0to\0` for a rename; `-` for binary. */
function parseNumstat(out: string): { additions: number; deletions: number }[] {
  const tokens = out.split('\0');
  const counts = [];
  for (let i = 0; i < tokens.length && tokens[i] !== ''; ) {
    const [add, del, path] = tokens[i]!.split('\t');
    counts.push({ additions: Number(add) || 0, deletions: Number(del) || 0 });
    i += path === '' ? 3 : 1;
  }
  return counts;
}

/** The patch's sections, one a file in the diff's order, each its hunks only (GitHub's `patch`). */
function splitPatch(out: string): (string | undefined)[] {
  const sections = out.split(/^(?=diff --git )/m).filter((s) => s.startsWith('diff --git '));
  return sections.map((s) => {
    const hunks = s.search(/^@@ /m);
    return hunks < 0 ? undefined : s.slice(hunks).replace(/\n$/, '');
  });
}

/** A `--git-root` bare repository's branches, read and moved with git itself. */
export class GitBranches implements Branches {
  constructor(private readonly dir: string) {}

  get lockKey(): string {
    return this.dir;
  }

  async tips(): Promise<ReadonlyMap<string, string>> {
    const { stdout } = await this.git(['for-each-ref', '--format=%(objectname) %(refname)', 'refs/heads/']);
    const tips = new Map<string, string>();
    for (const line of stdout.split('\n')) {
      const m = /^([0-9a-f]{40,64}) refs\/heads\/(.+)$/.exec(line);
      if (m !== null) tips.set(m[2]!, m[1]!);
    }
    return tips;
  }

  async resolve(name: string): Promise<string | undefined> {
    const tip = (await this.tips()).get(name);
    if (tip !== undefined) return tip;
    // Only a tag name or a commit id goes to git, and it cannot start with `-`.
    const rev = /^[0-9a-f]{4,64}$/.test(name) ? name : /^[\w.-]+(?:\/[\w.-]+)*$/.test(name) && !name.includes('..') ? `refs/tags/${name}` : undefined;
    if (rev === undefined) return undefined;
    const r = await this.git(['rev-parse', '--verify', '--quiet', `${rev}^{commit}`], [0, 1, 128]);
    return r.code === 0 ? r.stdout.trim() : undefined;
  }

  async ahead(base: string, head: string): Promise<number> {
    return Number((await this.git(['rev-list', '--count', `${base}..${head}`])).stdout.trim());
  }

  async compare(base: string, head: string): Promise<Comparison | undefined> {
    const mb = await this.git(['merge-base', base, head], [0, 1]);
    if (mb.code !== 0) return undefined;
    const mergeBase = mb.stdout.trim();
    const [behind, log, baseInfo, mergeBaseInfo, raw, numstat, patch] = await Promise.all([
      this.git(['rev-list', '--count', `${head}..${base}`]),
      this.git(['log', '-z', '--reverse', logFormat, `${base}..${head}`]),
      this.commit(base),
      this.commit(mergeBase),
      this.git(['diff', '--raw', '-z', '--no-abbrev', ...diffOptions, mergeBase, head]),
      this.git(['diff', '--numstat', '-z', ...diffOptions, mergeBase, head]),
      this.git(['-c', 'core.quotePath=true', 'diff', ...diffOptions, mergeBase, head]),
    ]);
    const commits = log.stdout.split('\0').filter((r) => r !== '').map(parseCommit);
    const counts = parseNumstat(numstat.stdout);
    const patches = splitPatch(patch.stdout);
    const entries = parseRaw(raw.stdout);
    // The three come from one diff queue, so they pair by position; if they ever do not, no patches.
    const paired = patches.length === entries.length;
    const files = entries.map((e, i): ChangedFile => ({
      filename: e.path,
      ...(e.from === undefined ? {} : { previous_filename: e.from }),
      status: fileStatus[e.status] ?? 'changed',
      sha: e.status === 'D' ? e.old : e.now,
      ...(counts[i] ?? { additions: 0, deletions: 0 }),
      ...(paired && patches[i] !== undefined ? { patch: patches[i] } : {}),
    }));
    return { base: baseInfo, mergeBase: mergeBaseInfo, aheadBy: commits.length, behindBy: Number(behind.stdout.trim()), commits, files };
  }

  async merge(base: string, baseSha: string, head: string, request: MergeRequest): Promise<MergeOutcome> {
    const fastForward = (await this.git(['merge-base', '--is-ancestor', baseSha, head], [0, 1])).code === 0;
    let sha = head;
    if (!fastForward || request.method === 'squash') {
      // The merged tree without a work tree (git 2.38+); exit 1 is a conflict.
      const merged = fastForward ? { code: 0, stdout: `${head}^{tree}` } : await this.git(['merge-tree', '--write-tree', '--no-messages', baseSha, head], [0, 1]);
      if (merged.code !== 0) return { kind: 'conflict' };
      const tree = merged.stdout.split('\n')[0]!;
      const parents = request.method === 'merge' ? ['-p', baseSha, '-p', head] : ['-p', baseSha];
      const env = {
        GIT_AUTHOR_NAME: request.login,
        GIT_AUTHOR_EMAIL: `${request.login}@users.noreply.invalid`,
        GIT_COMMITTER_NAME: 'GitHub',
        GIT_COMMITTER_EMAIL: 'noreply@github.com',
      };
      sha = (await this.git(['commit-tree', tree, ...parents, '-m', request.message], [0], env)).stdout.trim();
    }
    // Compare-and-swap: a push that moved the base meanwhile wins, and the merge says so.
    const moved = await this.git(['update-ref', '-m', 'merge pull request', `refs/heads/${base}`, sha, baseSha], [0, 1, 128]);
    return moved.code === 0 ? { kind: 'merged', sha } : { kind: 'moved' };
  }

  private async commit(sha: string): Promise<CommitInfo> {
    return parseCommit((await this.git(['log', '-1', '-z', logFormat, sha])).stdout.replace(/\0$/, ''));
  }

  /** Runs git on the bare repository; an exit code outside `expected` is an error (a 500). */
  private git(args: string[], expected: number[] = [0], env: Record<string, string> = {}): Promise<GitRun> {
    return new Promise((resolve, reject) => {
      execFile('git', ['--git-dir', this.dir, ...args], { env: gitProcessEnv(env), maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
        if (expected.includes(code)) resolve({ code, stdout });
        else reject(new Error(`git ${args.join(' ')} exited ${code}: ${stderr.trim().slice(0, 500)}`));
      });
    });
  }
}
