import { execFile } from 'node:child_process';
import { childEnv } from './child-env.js';
import type { CommandContext } from './command-context.js';

/**
 * Git adapter: one small async function per question (np's git-util style). Read functions
 * never throw: "not a repository" and "git not installed" are answers, not failures, so
 * preflight can run in an exported source tree. Write operations (commit, tag) for the release
 * chain belong here too and will go through `runGit` so dry-run and --verbose have one hook.
 */
export interface GitFacts {
  isRepository: boolean;
  /** Set when git itself could not be run (not installed, unusable repository). */
  unavailable?: string;
  /** Current branch; undefined when HEAD is detached or git has no answer. */
  branch?: string;
  detached: boolean;
  /** Full hash of HEAD; undefined on a branch with no commits yet. */
  headCommit?: string;
  /** Changed or untracked paths (porcelain, relative to the repository root), the journal excluded. */
  dirtyFiles: string[];
  tags: string[];
  /** The tags that point at HEAD itself (an annotated tag peeled to its commit). */
  headTags?: string[];
}

export interface GitResult {
  ok: boolean;
  exitCode: number | undefined;
  stdout: string;
  stderr: string;
  /** Set when git could not be started at all. */
  spawnError?: string;
}

export interface GitOptions {
  env?: NodeJS.ProcessEnv;
  /** Each git call with its exit code and time (preflight --verbose). */
  log?: (line: string) => void;
  /** Ctrl-C / SIGTERM: the git child is stopped (SIGTERM) and the read answers as not ok. */
  signal?: AbortSignal;
}

/**
 * Runs git in `cwd`. Never throws; optional locks off so a read never races another git process.
 * node:child_process rather than execa: these reads run on every preflight, and importing execa
 * costs more than node takes to start (the release chain's writes go through the process runner).
 */
export function runGit(cwd: string, args: readonly string[], options: GitOptions = {}): Promise<GitResult> {
  if (options.log === undefined) return run('git', ['-c', 'core.quotePath=false', ...args], cwd, options);
  const began = Date.now();
  const log = options.log;
  return run('git', ['-c', 'core.quotePath=false', ...args], cwd, options).then((r) => {
    log(`$ git ${args.join(' ')} -> ${r.exitCode ?? r.spawnError} (${Date.now() - began} ms)`);
    return r;
  });
}

function run(file: string, args: readonly string[], cwd: string, options: GitOptions): Promise<GitResult> {
  return new Promise((resolve) => {
    execFile(
      file,
      args,
      {
        cwd,
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
        ...(options.signal === undefined ? {} : { signal: options.signal }),
        env: childEnv({ ...process.env, ...(options.env ?? {}) }, { GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' }),
      },
      (error, stdout, stderr) => {
        const out = stdout.replace(/\r?\n$/, '');
        const err = stderr.replace(/\r?\n$/, '');
        if (error === null) return resolve({ ok: true, exitCode: 0, stdout: out, stderr: err });
        const code = (error as NodeJS.ErrnoException & { code?: unknown }).code;
        if (typeof code === 'number') return resolve({ ok: false, exitCode: code, stdout: out, stderr: err });
        // Not started at all (ENOENT: git not installed, a cwd that vanished) or killed.
        resolve({ ok: false, exitCode: undefined, stdout: out, stderr: err, spawnError: error.message });
      },
    );
  });
}

export async function isRepository(cwd: string, options?: GitOptions): Promise<boolean> {
  const r = await runGit(cwd, ['rev-parse', '--is-inside-work-tree'], options);
  return r.ok && r.stdout.trim() === 'true';
}

/** The branch name, or undefined when HEAD is detached. */
export async function currentBranch(cwd: string, options?: GitOptions): Promise<string | undefined> {
  const r = await runGit(cwd, ['symbolic-ref', '--quiet', '--short', 'HEAD'], options);
  return r.ok && r.stdout.trim() !== '' ? r.stdout.trim() : undefined;
}

export async function headCommit(cwd: string, options?: GitOptions): Promise<string | undefined> {
  const r = await runGit(cwd, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], options);
  return r.ok ? r.stdout.trim() : undefined;
}

export async function tagExists(cwd: string, tag: string, options?: GitOptions): Promise<boolean> {
  const r = await runGit(cwd, ['rev-parse', '--verify', '--quiet', `refs/tags/${tag}`], options);
  return r.ok;
}

export async function listTags(cwd: string, options?: GitOptions): Promise<string[]> {
  const r = await runGit(cwd, tagArgs, options);
  return r.ok ? r.stdout.split('\n').filter((t) => t !== '') : [];
}

/** Journal folder of the release chain (git-ignored by convention, but never a reason to refuse). */
export const journalDir = '.relctl/';

/**
 * maven-release-plugin's own working files (release.properties and the POM backups), left in the
 * tree until a successful release:perform or release:clean. The plugin ignores exactly these in
 * its own modification check; a release that stopped half-way must not count them as changes.
 */
export function isReleasePluginFile(file: string): boolean {
  return /(^|\/)(release\.properties|pom\.xml\.(releaseBackup|next|tag|branch|backup))$/.test(file);
}

/**
 * Paths that make the worktree dirty. `git status --porcelain -z` paths are relative to the
 * repository root, so the project's journal is matched through the project's prefix.
 */
export async function dirtyFiles(cwd: string, options?: GitOptions): Promise<string[]> {
  const [status, prefix] = await Promise.all([
    runGit(cwd, ['status', '--porcelain=v1', '-z', '--untracked-files=normal'], options),
    runGit(cwd, ['rev-parse', '--show-prefix'], options),
  ]);
  if (!status.ok) return [];
  const ignored = `${prefix.ok ? prefix.stdout.trim() : ''}${journalDir}`;
  const entries = status.stdout.split('\0');
  const paths: string[] = [];
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!;
    if (e.length < 4) continue;
    const xy = e.slice(0, 2);
    paths.push(e.slice(3));
    if (xy.includes('R') || xy.includes('C')) i++; // the rename source follows as its own entry
  }
  return paths.filter((p) => !p.startsWith(ignored) && !p.startsWith(journalDir) && !isReleasePluginFile(p));
}

/**
 * Tracked changes plus every untracked file (notice generation may add files), the journal
 * excluded: what a pre-release prep commit would take in.
 */
export async function changedFiles(cwd: string, options?: GitOptions): Promise<string[]> {
  const r = await runGit(cwd, ['status', '--porcelain', '--untracked-files=all'], options);
  if (!r.ok) return [];
  return r.stdout
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => l.slice(3))
    .filter((f) => !f.startsWith(journalDir) && !isReleasePluginFile(f));
}

/** The worktree's changes as a stat plus patch, for review before a commit ('' when git has no answer). */
export async function diffText(cwd: string, options?: GitOptions): Promise<string> {
  const r = await runGit(cwd, ['--no-pager', 'diff', '--stat', '--patch', '--no-color'], options);
  return r.ok ? r.stdout : '';
}

/** Index just past the `n`th space of a porcelain v2 entry: where its path starts. */
function afterFields(entry: string, n: number): number {
  let at = -1;
  for (let i = 0; i < n && (at = entry.indexOf(' ', at + 1)) !== -1; i++);
  return at + 1;
}

/**
 * The path of one `git status --porcelain=v2 -z` entry: changed (`1`), renamed or copied (`2`, whose
 * source follows as its own entry), unmerged (`u`) or untracked (`?`); undefined for a header.
 */
export function statusEntryPath(e: string): { path: string; untracked: boolean } | undefined {
  if (e.startsWith('1 ')) return { path: e.slice(afterFields(e, 8)), untracked: false };
  if (e.startsWith('2 ')) return { path: e.slice(afterFields(e, 9)), untracked: false };
  if (e.startsWith('u ')) return { path: e.slice(afterFields(e, 10)), untracked: false };
  if (e.startsWith('? ')) return { path: e.slice(2), untracked: true };
  return undefined;
}

/**
 * Branch, head commit and changed paths from one `git status --porcelain=v2 --branch -z`; the
 * journal is left out through pathspecs (the project's `.relctl/` and the repository root's), so
 * no second call is needed for the project's prefix.
 */
function parseStatusV2(out: string): { branch?: string; headCommit?: string; dirtyFiles: string[] } {
  const result: { branch?: string; headCommit?: string; dirtyFiles: string[] } = { dirtyFiles: [] };
  const entries = out.split('\0');
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!;
    if (e.startsWith('# branch.oid ')) {
      const oid = e.slice(13);
      if (oid !== '(initial)') result.headCommit = oid;
    } else if (e.startsWith('# branch.head ')) {
      const head = e.slice(14);
      if (head !== '(detached)') result.branch = head;
    } else {
      const entry = statusEntryPath(e);
      if (entry !== undefined) result.dirtyFiles.push(entry.path);
      if (e.startsWith('2 ')) i++; // the rename or copy source follows as its own entry
    }
  }
  return result;
}

const statusArgs = ['status', '--porcelain=v2', '--branch', '-z', '--untracked-files=normal', '--', `:(exclude)${journalDir}`, `:(top,exclude)${journalDir}`];
/**
 * The tag names: `lstrip=2` is the name itself (`refname:short` checks each name for ambiguity
 * with the other refs, seconds at 40,000 tags, and says `tags/v1` when a branch is named `v1`).
 */
const tagArgs = ['for-each-ref', '--format=%(refname:lstrip=2)', 'refs/tags'];
/**
 * The tags on HEAD, peeled as `--points-at` peels them (through git's cache of parsed objects and
 * a clone's packed peeled values): a `%(*objectname)` per tag reads every tag's object anew, and
 * took seconds at 40,000 tags.
 */
const headTagArgs = ['for-each-ref', '--points-at=HEAD', '--format=%(refname:lstrip=2)', 'refs/tags'];
const tagsMark = '\0relctl:tags\0';
const headTagsMark = '\0relctl:head-tags\0';

/**
 * `git status`, the tag list and the tags on HEAD from one process. Each spawn blocks node's main
 * thread until the child has started (libuv waits for its exec), which on a busy machine costs
 * more than the question itself; on POSIX a shell runs the git calls instead. The status's exit
 * code is the shell's; 127 means git is not installed.
 */
async function statusAndTags(cwd: string, options?: GitOptions): Promise<[GitResult, GitResult, GitResult]> {
  if (process.platform === 'win32') return Promise.all([runGit(cwd, statusArgs, options), runGit(cwd, tagArgs, options), runGit(cwd, headTagArgs, options)]);
  const quote = (a: string): string => `'${a}'`;
  const git = "git -c core.quotePath=false";
  // With no commit yet, --points-at HEAD fails: no tags on HEAD, said on stderr, which is dropped.
  const script = `${git} ${statusArgs.map(quote).join(' ')}; s=$?; printf '\\000relctl:tags\\000'; ${git} ${tagArgs.map(quote).join(' ')}; printf '\\000relctl:head-tags\\000'; ${git} ${headTagArgs.map(quote).join(' ')} 2>/dev/null; exit $s`;
  const began = Date.now();
  const both = await run('/bin/sh', ['-c', script], cwd, options ?? {});
  options?.log?.(`$ git ${statusArgs.join(' ')}; git ${tagArgs.join(' ')}; git ${headTagArgs.join(' ')} (one shell) -> ${both.exitCode ?? both.spawnError} (${Date.now() - began} ms)`);
  if (both.spawnError !== undefined) return [both, both, both];
  const at = both.stdout.indexOf(tagsMark);
  const headAt = at === -1 ? -1 : both.stdout.indexOf(headTagsMark, at);
  const statusOut = at === -1 ? both.stdout : both.stdout.slice(0, at);
  const tagsOut = at === -1 ? '' : both.stdout.slice(at + tagsMark.length, headAt === -1 ? undefined : headAt);
  const headTagsOut = headAt === -1 ? '' : both.stdout.slice(headAt + headTagsMark.length);
  const status: GitResult = both.exitCode === 127 && statusOut === '' ? { ...both, stdout: '', spawnError: both.stderr || 'git: not found' } : { ...both, stdout: statusOut };
  const part = (stdout: string): GitResult => ({ ok: status.ok, exitCode: status.exitCode, stdout, stderr: '' });
  return [status, part(tagsOut), part(headTagsOut)];
}

/** gatherGitFacts for a command's project, its lines in --verbose. */
export function gitFactsFor(ctx: Pick<CommandContext, 'cwd' | 'env' | 'out'>): Promise<GitFacts> {
  return gatherGitFacts(ctx.cwd, { env: ctx.env, ...(ctx.out.verboseEnabled ? { log: (l: string) => ctx.out.verbose(l) } : {}) });
}

/**
 * Everything preflight asks git, in one process (two calls, see statusAndTags): the status
 * answers "is this a repository" too, so there is no separate probe, and the journal is left
 * out through pathspecs, so no call is needed for the project's prefix.
 */
export async function gatherGitFacts(cwd: string, options?: GitOptions): Promise<GitFacts> {
  const [status, tags, headTags] = await statusAndTags(cwd, options);
  if (status.spawnError !== undefined) {
    return { isRepository: false, unavailable: `git could not be run (${status.spawnError})`, detached: false, dirtyFiles: [], tags: [] };
  }
  if (/dubious ownership/i.test(status.stderr)) {
    // git 2.35.2+ refuses a repository owned by someone else; saying "not a repository" would mislead.
    return { isRepository: false, unavailable: 'git refuses this repository (dubious ownership: see `git config --global --add safe.directory`)', detached: false, dirtyFiles: [], tags: [] };
  }
  // Outside a work tree (no repository, a bare one, inside .git) status fails.
  if (!status.ok) return { isRepository: false, detached: false, dirtyFiles: [], tags: [] };
  const parsed = parseStatusV2(status.stdout);
  const lines = (r: GitResult): string[] => (r.ok ? r.stdout.split('\n') : []).filter((t) => t !== '');
  const facts: GitFacts = {
    isRepository: true,
    detached: parsed.branch === undefined,
    dirtyFiles: parsed.dirtyFiles,
    tags: lines(tags),
  };
  if (parsed.branch !== undefined) facts.branch = parsed.branch;
  if (parsed.headCommit !== undefined) {
    facts.headCommit = parsed.headCommit;
    facts.headTags = lines(headTags);
  }
  return facts;
}
