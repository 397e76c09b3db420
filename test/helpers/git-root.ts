import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { git, gitEnv, gitRepo } from './temp.js';

export interface BareRepoOptions {
  /** Files of the one commit on `branch` (default: a README). */
  files?: Record<string, string>;
  /** The branch HEAD names, the API's `default_branch` (default main). */
  branch?: string;
  /** Keys set in the bare repository's config, e.g. `{ 'sandbox.archived': 'true', 'sandbox.topics': 'java,maven' }`. */
  config?: Record<string, string>;
}

/**
 * A bare repository `root/OWNER/NAME.git` as `relctl sandbox --git-root root` serves it: one commit
 * made in a work copy beside it (`root/../work/OWNER/NAME`), then cloned bare. Returns its folder.
 */
export async function bareRepo(root: string, home: string, fullName: string, options: BareRepoOptions = {}): Promise<string> {
  const [owner, name] = fullName.split('/') as [string, string];
  const work = path.join(path.dirname(root), 'work', owner, name);
  await mkdir(work, { recursive: true });
  await gitRepo(work, home, options.files ?? { 'README.md': `# ${fullName}\n` });
  const branch = options.branch ?? 'main';
  if (branch !== 'main') await git(work, home, 'branch', '-m', 'main', branch);
  const bare = path.join(root, owner, `${name}.git`);
  await mkdir(path.dirname(bare), { recursive: true });
  await git(work, home, 'clone', '-q', '--bare', work, bare);
  for (const [key, value] of Object.entries(options.config ?? {})) await git(bare, home, 'config', key, value);
  return bare;
}

/**
 * git as a user runs it against the sandbox's smart HTTP, never asking for a password (a refused
 * push fails instead of hanging); `env` adds variables (a trace). Never rejects: tests read the
 * exit code.
 */
export function gitAsUser(home: string, env: Record<string, string>, cwd: string, ...args: string[]) {
  return execa('git', ['-c', 'credential.helper=', '-c', 'commit.gpgSign=false', ...args], {
    cwd,
    env: { ...gitEnv(home), GIT_TERMINAL_PROMPT: '0', GIT_ASKPASS: '', SSH_ASKPASS: '', ...env },
    reject: false,
  });
}
