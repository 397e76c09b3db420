/**
 * relctl's branch in a fleet clone (DESIGN §13, Fix): the fix as one commit on
 * `relctl/central-portal`, on top of the default branch's tip, made with git's plumbing in a
 * private index so the clone's checkout (what the audit reads) is never touched. A change whose
 * tree is what the branch already holds makes no commit and no push.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { childEnv } from '../../io/child-env.js';
import { runGit } from '../../io/git.js';
import type { FileChange } from './own-edits.js';

export const fixBranch = 'relctl/central-portal';

/** Runs git with `input` on stdin (runGit has no stdin); never throws. */
function gitWithInput(dir: string, args: string[], input: Buffer, env: NodeJS.ProcessEnv): Promise<{ ok: boolean; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile('git', args, { cwd: dir, env: childEnv({ ...process.env, ...env }, { GIT_TERMINAL_PROMPT: '0' }), encoding: 'utf8' }, (error, stdout, stderr) => {
      resolve({ ok: error === null, stdout: stdout.trim(), stderr: stderr.trim() });
    });
    child.stdin?.end(input);
  });
}

/**
 * The blob id git would store for `bytes` at `file` (its filters applied: `.gitattributes` eol and
 * the like), without writing it: what a head must hold for the change to count as made there.
 */
export async function storedBlobId(dir: string, file: string, bytes: Buffer, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const blob = await gitWithInput(dir, ['hash-object', '--path', file, '--stdin'], bytes, env);
  return blob.ok ? blob.stdout : undefined;
}

export interface StagedChange {
  /** The commit on relctl's local branch holding the change; undefined when the remote's branch holds it. */
  commit?: string;
  /** True when this run made the commit (false: an earlier run's commit holds the same change). */
  made: boolean;
  tree: string;
  /** What the remote's relctl branch holds now (for the push's lease); undefined when it has none. */
  remote?: string;
}

async function revParse(dir: string, ref: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const r = await runGit(dir, ['rev-parse', '--verify', '--quiet', ref], { env });
  return r.ok && r.stdout !== '' ? r.stdout : undefined;
}

/**
 * Writes `changes` on top of `base` as a tree; when that tree differs from what relctl's branch
 * (remote, else local) holds, commits it and moves the local branch there.
 */
export async function stageChange(dir: string, base: string, changes: readonly FileChange[], message: string, env: NodeJS.ProcessEnv): Promise<StagedChange | { failed: string }> {
  const index = { ...env, GIT_INDEX_FILE: path.join(dir, '.git', 'relctl-fleet-index') };
  const read = await runGit(dir, ['read-tree', base], { env: index });
  if (!read.ok) return { failed: `git read-tree ${base}: ${read.stderr}` };
  for (const c of changes) {
    // Through the file's own filters (.gitattributes eol, text): the blob holds what `git add` would store, so the diff is the edit alone.
    const blob = await gitWithInput(dir, ['hash-object', '-w', '--path', c.file, '--stdin'], c.bytes, env);
    if (!blob.ok) return { failed: `git hash-object for ${c.file}: ${blob.stderr}` };
    const mode = c.mode ?? ((await runGit(dir, ['ls-tree', base, '--', c.file], { env })).stdout.split(' ')[0] || '100644');
    const update = await runGit(dir, ['update-index', '--add', '--cacheinfo', `${mode},${blob.stdout},${c.file}`], { env: index });
    if (!update.ok) return { failed: `git update-index ${c.file}: ${update.stderr}` };
  }
  const tree = (await runGit(dir, ['write-tree'], { env: index })).stdout;
  const remote = await revParse(dir, `refs/remotes/origin/${fixBranch}`, env);
  const held = remote ?? (await revParse(dir, `refs/heads/${fixBranch}`, env));
  // Same tree, same base: nothing new (no commit, so a later push has nothing to send either).
  if (held !== undefined && (await revParse(dir, `${held}^{tree}`, env)) === tree && (await revParse(dir, `${held}^`, env)) === base) {
    return { tree, made: false, ...(remote === undefined ? {} : { remote }), ...(held === remote ? {} : { commit: held }) };
  }
  const commit = await gitWithInput(dir, ['commit-tree', tree, '-p', base], Buffer.from(message), { ...env, ...(await identity(dir, env)) });
  if (!commit.ok) return { failed: `git commit-tree: ${commit.stderr}` };
  await runGit(dir, ['update-ref', `refs/heads/${fixBranch}`, commit.stdout], { env });
  return { commit: commit.stdout, tree, made: true, ...(remote === undefined ? {} : { remote }) };
}

/** The configured git identity, else relctl's own (a fleet job in CI often has none). */
async function identity(dir: string, env: NodeJS.ProcessEnv): Promise<Record<string, string>> {
  const email = await runGit(dir, ['config', 'user.email'], { env });
  if (email.ok && email.stdout !== '') return {};
  const who = { name: 'relctl', email: 'relctl@users.noreply.github.com' };
  return { GIT_AUTHOR_NAME: who.name, GIT_AUTHOR_EMAIL: who.email, GIT_COMMITTER_NAME: who.name, GIT_COMMITTER_EMAIL: who.email };
}

/**
 * Pushes relctl's branch only, with a lease on what the remote held when it was fetched: a
 * branch someone else moved since is never overwritten. Without `commit`, deletes the branch
 * (under the same lease).
 */
export async function pushBranch(dir: string, commit: string | undefined, remote: string | undefined, env: NodeJS.ProcessEnv): Promise<{ ok: true } | { ok: false; why: string }> {
  const lease = `--force-with-lease=refs/heads/${fixBranch}:${remote ?? ''}`;
  const r = await runGit(dir, ['push', '--quiet', '--porcelain', lease, 'origin', `${commit ?? ''}:refs/heads/${fixBranch}`], { env });
  if (r.ok) {
    const tracking = `refs/remotes/origin/${fixBranch}`;
    await runGit(dir, commit === undefined ? ['update-ref', '-d', tracking] : ['update-ref', tracking, commit], { env });
    return { ok: true };
  }
  const said = (r.stderr || r.stdout).split('\n').filter((l) => l.trim() !== '').slice(-2).join(' ');
  return { ok: false, why: said || `exit ${r.exitCode ?? '?'}` };
}
