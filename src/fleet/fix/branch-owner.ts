/**
 * Whose `relctl/central-portal` is (DESIGN §13 Safety). relctl rewrites the branch only while every
 * commit on it beyond the default branch is one it pushed itself. What it pushed is recorded in the
 * clone's git folder, not in the commit: a message, an author or a trailer is copied as easily as
 * it is written, a commit id is not. A clone without the record (a fresh workspace) proves nothing,
 * so the branch is then left alone too.
 */
import { appendFile, readFile } from 'node:fs/promises';
import path from 'node:path';
import { runGit } from '../../io/git.js';
import { fixBranch } from './branch.js';

/** Commits listed at most: relctl's branch holds one; more than that is someone's work anyway. */
const listed = 20;

function recordFile(dir: string): string {
  return path.join(dir, '.git', 'relctl-fleet-pushed');
}

/** Remembers that relctl pushed `commit` to its branch of this clone's origin. */
export async function recordPushed(dir: string, commit: string): Promise<void> {
  await appendFile(recordFile(dir), `${commit}\n`, { mode: 0o600 });
}

async function pushedByRelctl(dir: string): Promise<Set<string>> {
  try {
    return new Set((await readFile(recordFile(dir), 'utf8')).split('\n').filter((l) => l !== ''));
  } catch {
    return new Set();
  }
}

/**
 * Undefined when relctl's branch on the remote (as last fetched) is relctl's to rewrite: absent,
 * or every commit on it beyond `base` one relctl pushed. Else why not, naming the first commits
 * that are not relctl's.
 */
export async function foreignBranch(dir: string, base: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const tip = await runGit(dir, ['rev-parse', '--verify', '--quiet', `refs/remotes/origin/${fixBranch}^{commit}`], { env });
  if (!tip.ok || tip.stdout === '') return undefined;
  const log = await runGit(dir, ['log', `--max-count=${listed}`, '--format=%H%x00%an%x00%s', tip.stdout, '--not', base], { env });
  if (!log.ok) return `${fixBranch} on the remote could not be read (${log.stderr.split('\n')[0] ?? ''}), so relctl cannot tell that every commit on it is its own`;
  const ours = await pushedByRelctl(dir);
  const foreign = log.stdout
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => l.split('\u0000') as [string, string, string])
    .filter(([sha]) => !ours.has(sha));
  if (foreign.length === 0) return undefined;
  const named = foreign.slice(0, 3).map(([sha, author, subject]) => `${sha.slice(0, 7)} by ${author}: "${subject.slice(0, 60)}"`);
  const more = foreign.length > 3 ? ` and ${foreign.length - 3} more` : '';
  return (
    `${fixBranch} holds ${foreign.length === 1 ? 'a commit' : 'commits'} relctl did not push (${named.join('; ')}${more}); ` +
    'relctl neither pushes over the branch nor edits its pull request. Merge or close that work, or delete the branch, and the next run proposes the change again'
  );
}
