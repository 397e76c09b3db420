/**
 * The fleet's workspace (DESIGN §13): one clone per repository under `--workdir`, cloned once and
 * fetched on later runs, always left on the default branch's tip as the remote has it. The clone
 * is relctl's own: a checkout relctl did not make (another remote, no git) is reported, never
 * overwritten. The host's token reaches git through its environment (an `http.<url>.extraHeader`
 * scoped to the host), never argv, a printed URL or the stored remote.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { runGit, type GitResult } from '../io/git.js';
import { describeLocalWork, hasLocalWork, localWork, madeByRelctl, markMadeByRelctl } from './local-work.js';
import type { FleetRepo } from './selection.js';

/** `$XDG_CACHE_HOME/relctl/fleet`, else `~/.cache/relctl/fleet`. */
export function defaultWorkdir(env: NodeJS.ProcessEnv): string {
  const xdg = env.XDG_CACHE_HOME;
  const base = xdg !== undefined && xdg !== '' && path.isAbsolute(xdg) ? xdg : path.join(env.HOME ?? os.homedir(), '.cache');
  return path.join(base, 'relctl', 'fleet');
}

export interface CloneAccess {
  /** Where `OWNER/NAME` is cloned from when the selection gave no URL (`https://github.com`). */
  hostUrl: string;
  /** The host's token, sent as a header to URLs under `hostUrl` only. */
  token?: string;
  env: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  log?: (line: string) => void;
}

export type CloneResult =
  | { ok: true; dir: string; url: string; branch: string; head: string; action: 'cloned' | 'fetched' }
  | { ok: false; dir: string; url: string; code: string; message: string; fix: string };

/** The URL a repository is cloned from: its own, else `<host>/OWNER/NAME.git`. */
export function cloneUrlOf(repo: FleetRepo, hostUrl: string): string {
  return repo.url ?? `${hostUrl.replace(/\/+$/, '')}/${repo.name}.git`;
}

/** A local path in a repos file is relative to the file's folder; URLs and absolute paths are kept. */
export function resolveRepoUrl(url: string, base: string): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url) || /^[^/\\]+@[^/\\:]+:/.test(url) || path.isAbsolute(url)) return url;
  return path.resolve(base, url);
}

/** The environment git gets: the token as an extra header for the host's URLs only. */
export function hostGitEnv(access: CloneAccess, url: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...access.env, GIT_TERMINAL_PROMPT: '0', GIT_ASKPASS: 'echo', SSH_ASKPASS: 'echo', GCM_INTERACTIVE: 'never' };
  const host = access.hostUrl.replace(/\/+$/, '') + '/';
  if (access.token !== undefined && url.startsWith(host)) {
    const basic = Buffer.from(`x-access-token:${access.token}`).toString('base64');
    env.GIT_CONFIG_COUNT = '1';
    env.GIT_CONFIG_KEY_0 = `http.${host}.extraHeader`;
    env.GIT_CONFIG_VALUE_0 = `Authorization: Basic ${basic}`;
  }
  return env;
}

function failure(dir: string, url: string, code: string, message: string, fix: string): Extract<CloneResult, { ok: false }> {
  return { ok: false, dir, url, code, message, fix };
}

/** git's own last words on a failure, on one line (what the user needs to see why). */
function gitSays(r: GitResult): string {
  const lines = (r.stderr || r.spawnError || `exit ${r.exitCode ?? '?'}`).split('\n').map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('hint:'));
  return lines.slice(-2).join(' ');
}

/** Where a clone is made before it is moved into place: a killed run never leaves half a clone at `OWNER/NAME`. */
function cloningDir(workdir: string): string {
  return path.join(workdir, '.relctl', 'cloning');
}

/** Removes the half clones a killed run left (called while holding the workspace's lock: no other run is cloning). */
export async function removeHalfClones(workdir: string): Promise<void> {
  await rm(cloningDir(workdir), { recursive: true, force: true });
}

type GitOpts = { env: NodeJS.ProcessEnv; signal?: AbortSignal; log?: (line: string) => void };

/**
 * Clones `repo` into `<workdir>/OWNER/NAME`, or fetches it when the clone is there, then checks
 * out the default branch's tip (the remote's HEAD, or the branch the host named). A clone holding
 * local work (local-work.ts) is `workspace-dirty` and left exactly as it is.
 */
export async function syncClone(repo: FleetRepo, workdir: string, access: CloneAccess): Promise<CloneResult> {
  const dir = path.join(workdir, ...repo.name.split('/'));
  const url = cloneUrlOf(repo, access.hostUrl);
  const env = hostGitEnv(access, url);
  const opts: GitOpts = { env, ...(access.signal === undefined ? {} : { signal: access.signal }), ...(access.log === undefined ? {} : { log: access.log }) };
  if (!existsSync(path.join(dir, '.git'))) {
    if (existsSync(dir)) return failure(dir, url, 'workspace-foreign', `${dir} exists but is not a git clone.`, `Remove ${dir} (relctl clones it there), or use another --workdir.`);
    return freshClone(repo, dir, url, workdir, opts);
  }
  const remote = await runGit(dir, ['remote', 'get-url', 'origin'], opts);
  // A git that did not run (or was stopped) says nothing about the clone: not a reason to call it foreign.
  if (remote.exitCode === undefined) return failure(dir, url, 'git-failed', `git could not be run in ${dir}: ${gitSays(remote)}`, 'Check that git runs on this machine, then run again.');
  if (!remote.ok || remote.stdout.trim() !== url) {
    return failure(dir, url, 'workspace-foreign', `${dir} is a clone of ${remote.ok ? remote.stdout.trim() || 'nothing' : 'no origin'}, not of ${url}.`, `Remove ${dir} (relctl clones it again), or use another --workdir.`);
  }
  const work = await localWork(dir, opts);
  if (work === undefined || hasLocalWork(work)) {
    const what = work === undefined ? 'git could not say whether it holds local work' : `it holds local work relctl would lose (${describeLocalWork(work)})`;
    return failure(dir, url, 'workspace-dirty', `${dir}: ${what}; relctl leaves it untouched.`, `Commit and push that work, or move it out of the clone (git stash is local work too), then run again; or pass another --workdir.`);
  }
  const ours = madeByRelctl(dir);
  // In a clone relctl made, the tags mirror the remote's; in anyone else's, a local tag (a release
  // not pushed yet, a tag moved on purpose) is the owner's: never pruned, never overwritten.
  // (Not --quiet there: git names a refused tag only when it may speak.)
  const tagFlags = ours ? ['--quiet', '--prune-tags', '--force'] : [];
  const fetched = await runGit(dir, ['fetch', ...tagFlags, '--prune', '--tags', 'origin', '+refs/heads/*:refs/remotes/origin/*'], opts);
  if (!fetched.ok) {
    const clobbered = [...fetched.stderr.matchAll(/\[rejected\]\s+(\S+)\s+->\s+\S+\s+\(would clobber existing tag\)/g)].map((m) => m[1]!);
    if (!ours && clobbered.length > 0) {
      return failure(dir, url, 'workspace-dirty', `${dir}: local tags differ from the remote's (${clobbered.join(', ')}); relctl leaves them untouched.`, `Push those tags, or delete or rename the local ones, then run again; or pass another --workdir.`);
    }
    return failure(dir, url, 'fetch-failed', `git fetch from ${url} failed: ${gitSays(fetched)}`, 'Check that the repository still exists and that the token may read it, then run again.');
  }
  const tip = await checkoutTip(repo, dir, url, opts);
  if (!tip.ok) return tip;
  // Ignored files only (nothing else is left): build output in a clone relctl made; anyone else's stay (local-work.ts).
  if (ours) await runGit(dir, ['clean', '--quiet', '-ffdx'], opts);
  return { ...tip, action: 'fetched' };
}

/**
 * A first clone, made and checked out in the workspace's cloning folder and then moved into place
 * in one rename: what is at `OWNER/NAME` is always a whole clone, whether this run is killed or
 * slow, so no later run takes half a clone for a foreign or empty one.
 */
async function freshClone(repo: FleetRepo, dir: string, url: string, workdir: string, opts: GitOpts): Promise<CloneResult> {
  await mkdir(cloningDir(workdir), { recursive: true });
  const temp = await mkdtemp(path.join(cloningDir(workdir), `${repo.name.replace('/', '--')}-`));
  try {
    const staged = path.join(temp, 'clone');
    const cloned = await runGit(temp, ['clone', '--quiet', '--no-checkout', '--', url, 'clone'], opts);
    if (!cloned.ok) return failure(dir, url, 'clone-failed', `git clone ${url} failed: ${gitSays(cloned)}`, 'Check the URL (or OWNER/NAME) and that the token may read the repository, then run again.');
    const tip = await checkoutTip(repo, staged, url, opts);
    if (!tip.ok) return { ...tip, dir, message: tip.message.replaceAll(staged, dir) };
    await markMadeByRelctl(staged);
    await mkdir(path.dirname(dir), { recursive: true });
    try {
      await rename(staged, dir);
    } catch (error) {
      return failure(dir, url, 'workspace-foreign', `${dir} appeared while relctl was cloning ${url} (${(error as NodeJS.ErrnoException).code ?? String(error)}).`, `Remove ${dir} if it is not yours, or use another --workdir.`);
    }
    return { ...tip, dir, action: 'cloned' };
  } finally {
    await rm(temp, { recursive: true, force: true });
  }
}

/** Checks out the default branch's tip (the branch the host named, else the remote's HEAD). */
async function checkoutTip(repo: FleetRepo, dir: string, url: string, opts: GitOpts): Promise<Extract<CloneResult, { ok: false }> | { ok: true; dir: string; url: string; branch: string; head: string }> {
  const branch = repo.branch ?? (await remoteDefaultBranch(dir, opts));
  if (branch === undefined) return failure(dir, url, 'empty-repository', `${url} has no default branch (an empty repository?).`, 'Push a default branch, or leave the repository out of the fleet.');
  // No --force: nothing is left to discard (local work was refused above), and a file someone writes meanwhile is not lost.
  const checkout = await runGit(dir, ['checkout', '--quiet', '-B', branch, `refs/remotes/origin/${branch}`], opts);
  if (!checkout.ok) return failure(dir, url, 'checkout-failed', `git checkout ${branch} in ${dir} failed: ${gitSays(checkout)}`, `Check that ${branch} is the default branch of ${repo.name}, or remove ${dir} and run again.`);
  const head = await runGit(dir, ['rev-parse', 'HEAD'], opts);
  return { ok: true, dir, url, branch, head: head.stdout.trim() };
}

/**
 * The branch the remote's HEAD names: the clone's origin/HEAD, kept on later fetches while the
 * branch it names still exists (asking the remote again costs a second connection per repository);
 * a renamed default branch prunes the old one, and then the remote is asked.
 */
async function remoteDefaultBranch(dir: string, opts: { env: NodeJS.ProcessEnv }): Promise<string | undefined> {
  const known = await runGit(dir, ['symbolic-ref', '--quiet', '--short', 'refs/remotes/origin/HEAD'], opts);
  const knownBranch = known.ok && known.stdout.startsWith('origin/') ? known.stdout.slice('origin/'.length) : undefined;
  if (knownBranch !== undefined && (await runGit(dir, ['rev-parse', '--verify', '--quiet', `refs/remotes/origin/${knownBranch}`], opts)).ok) return knownBranch;
  await runGit(dir, ['remote', 'set-head', 'origin', '--auto'], opts);
  const head = await runGit(dir, ['symbolic-ref', '--quiet', '--short', 'refs/remotes/origin/HEAD'], opts);
  if (head.ok && head.stdout.startsWith('origin/')) return head.stdout.slice('origin/'.length);
  const branches = await runGit(dir, ['for-each-ref', '--format=%(refname:lstrip=3)', 'refs/remotes/origin/'], opts);
  const names = branches.stdout.split('\n').filter((b) => b !== '' && b !== 'HEAD');
  return names.find((b) => b === 'main') ?? names.find((b) => b === 'master') ?? names[0];
}
