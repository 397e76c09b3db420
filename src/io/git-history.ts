import { InterruptedError, StepFailedError, UsageError } from '../core/errors.js';
import type { RawCommit } from '../core/notes/commits.js';
import { runGit, type GitOptions } from './git.js';

/**
 * The history the release notes read: commits of `from..to` without merge commits, newest
 * first, each with its full message. Unit and record separators keep multi-line bodies intact.
 */
export async function commitsInRange(cwd: string, from: string | undefined, to: string, options?: GitOptions): Promise<RawCommit[]> {
  const range = from === undefined ? to : `${from}..${to}`;
  const r = await runGit(cwd, ['-c', 'i18n.logOutputEncoding=UTF-8', 'log', '--no-merges', '--format=%H%x1f%B%x1e', range, '--'], options);
  if (!r.ok) {
    if (options?.signal?.aborted === true) throw new InterruptedError(`git log ${range} was stopped.`);
    if (r.spawnError !== undefined) {
      throw new StepFailedError(`git could not be run: ${r.spawnError}.`, { kind: 'git-unavailable', fix: 'Install git and run relctl in the project repository.' });
    }
    throw new UsageError(`git log ${range} failed: ${r.stderr.split('\n')[0] ?? ''}`.trim(), {
      kind: 'bad-range',
      fix: 'Check that the tags named exist (git tag --list) and that this is the project repository; --since TAG sets the start.',
    });
  }
  return r.stdout
    .split('\x1e')
    .map((record) => record.replace(/^\n+/, ''))
    .filter((record) => record.includes('\x1f'))
    .map((record) => {
      const at = record.indexOf('\x1f');
      return { sha: record.slice(0, at).trim(), message: record.slice(at + 1).trim() };
    });
}

/** The URL of a remote (default origin), or undefined. */
export async function remoteUrl(cwd: string, name = 'origin', options?: GitOptions): Promise<string | undefined> {
  const r = await runGit(cwd, ['remote', 'get-url', name], options);
  return r.ok && r.stdout.trim() !== '' ? r.stdout.trim() : undefined;
}

/** Does `ref` name a commit here? */
export async function commitExists(cwd: string, ref: string, options?: GitOptions): Promise<boolean> {
  const r = await runGit(cwd, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], options);
  return r.ok;
}
