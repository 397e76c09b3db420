import { execa } from 'execa';
import type { ProcessRunner } from './process-runner.js';

/*
 * The git questions and writes the release steps need.
 * TODO(src/io/git.ts): move these into the git adapter once it grows write operations; they are
 * here only because the release chain needed them before that module had them.
 */

async function gitText(cwd: string, env: NodeJS.ProcessEnv, args: string[]): Promise<string | undefined> {
  const r = await execa('git', args, { cwd, env, extendEnv: false, reject: false });
  return r.exitCode === 0 ? String(r.stdout) : undefined;
}

export async function listTags(cwd: string, env: NodeJS.ProcessEnv): Promise<string[]> {
  const text = await gitText(cwd, env, ['tag', '--list']);
  return text === undefined ? [] : text.split('\n').map((t) => t.trim()).filter((t) => t !== '');
}

/** Tracked changes plus untracked files (notice generation may add files). */
export async function changedFiles(cwd: string, env: NodeJS.ProcessEnv): Promise<string[]> {
  const text = await gitText(cwd, env, ['status', '--porcelain', '--untracked-files=all']);
  if (text === undefined) return [];
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => l.slice(3))
    .filter((f) => !f.startsWith('.relctl/'));
}

export async function diffText(cwd: string, env: NodeJS.ProcessEnv): Promise<string> {
  return (await gitText(cwd, env, ['--no-pager', 'diff', '--stat', '--patch', '--no-color'])) ?? '';
}

export async function headCommit(cwd: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  return (await gitText(cwd, env, ['rev-parse', 'HEAD']))?.trim();
}

/** Stages everything (the .relctl folder ignores itself) and commits; a dry run prints it. */
export async function commitAll(proc: ProcessRunner, cwd: string, message: string): Promise<void> {
  await proc.mustRun({ command: 'git', args: ['add', '-A'], cwd, mutates: true, purpose: 'git add' }, 'Check the git repository state.');
  await proc.mustRun(
    { command: 'git', args: ['commit', '-q', '-m', message], cwd, mutates: true, purpose: 'git commit' },
    'Check the git repository state (a commit hook or signing setup may have refused the commit).',
  );
}
