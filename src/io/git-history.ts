import { spawn } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import { InterruptedError, StepFailedError, UsageError } from '../core/errors.js';
import type { RawCommit } from '../core/notes/commits.js';
import { childEnv } from './child-env.js';
import { runGit, type GitOptions } from './git.js';

/** A message longer than this is cut (its head kept): the notes read a subject and a few footers. */
export const messageLimit = 4 * 1024 * 1024;

/** Splits git's `%H<US>%B<RS>` stream into commits, record by record, each held to messageLimit. */
class RecordReader {
  readonly commits: RawCommit[] = [];
  private parts: string[] = [];
  private held = 0;

  push(text: string): void {
    let start = 0;
    for (let at = text.indexOf('\x1e'); at !== -1; at = text.indexOf('\x1e', start)) {
      this.hold(text.slice(start, at));
      this.finish();
      start = at + 1;
    }
    this.hold(text.slice(start));
  }

  private hold(text: string): void {
    if (this.held >= messageLimit || text === '') return;
    const part = text.slice(0, messageLimit - this.held);
    this.parts.push(part);
    this.held += part.length;
  }

  finish(): void {
    const record = this.parts.join('').replace(/^\n+/, '');
    this.parts = [];
    this.held = 0;
    const at = record.indexOf('\x1f');
    if (at !== -1) this.commits.push({ sha: record.slice(0, at).trim(), message: record.slice(at + 1).trim() });
  }
}

/**
 * The history the release notes read: commits of `from..to` without merge commits, newest
 * first, each with its full message (up to messageLimit). Unit and record separators keep
 * multi-line bodies intact. Read as a stream, so neither a long history nor one huge message hits
 * a buffer limit; Ctrl-C (`signal`) stops git and is an InterruptedError.
 */
export function commitsInRange(cwd: string, from: string | undefined, to: string, options: GitOptions = {}): Promise<RawCommit[]> {
  const range = from === undefined ? to : `${from}..${to}`;
  const args = ['-c', 'core.quotePath=false', '-c', 'i18n.logOutputEncoding=UTF-8', 'log', '--no-merges', '--format=%H%x1f%B%x1e', range, '--'];
  const env = childEnv({ ...process.env, ...(options.env ?? {}) }, { GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' });
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], ...(options.signal === undefined ? {} : { signal: options.signal }) });
    const reader = new RecordReader();
    const decoder = new StringDecoder('utf8');
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => reader.push(decoder.write(chunk)));
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 64 * 1024) stderr += chunk.toString('utf8');
    });
    child.on('error', (error: NodeJS.ErrnoException) => {
      if (options.signal?.aborted === true) return reject(new InterruptedError(`git log ${range} was stopped.`));
      if (error.code === 'ENOENT') reject(new StepFailedError(`git could not be run: ${error.message}.`, { kind: 'git-unavailable', fix: 'Install git and run relctl in the project repository.' }));
    });
    child.on('close', (code) => {
      if (options.signal?.aborted === true) return reject(new InterruptedError(`git log ${range} was stopped.`));
      if (code !== 0) {
        return reject(
          new UsageError(`git log ${range} failed: ${stderr.split('\n')[0] ?? ''}`.trim(), {
            kind: 'bad-range',
            fix: 'Check that the tags named exist (git tag --list) and that this is the project repository; --since TAG sets the start.',
          }),
        );
      }
      reader.push(decoder.end());
      reader.finish();
      resolve(reader.commits);
    });
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
