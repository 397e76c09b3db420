/**
 * Where a fix's edit goes in the repository as git keeps it (issue 41 item 5). The audit reads
 * `pom.xml` through the file system, which follows symlinks; the commit is made in git's tree,
 * where a symlink is a blob holding its target. So an edit to a symlinked file is made to the
 * file the link points to, when that lies inside the repository, and never written over the link.
 */
import path from 'node:path';
import { runGit } from '../../io/git.js';
import type { FleetFinding } from '../report-types.js';
import { declinedFix, type FileChange } from './own-edits.js';

type TreePath =
  /** The file the edit goes to, and its mode in the tree (stageChange keeps it; none for a new file). */
  | { file: string; mode?: string }
  /** A symlink on the way points outside the repository (or loops): the edit is not made. */
  | { outside: string };

interface Entry {
  mode: string;
  type: string;
  object: string;
}

async function entryAt(dir: string, base: string, file: string, env: NodeJS.ProcessEnv): Promise<Entry | undefined> {
  const r = await runGit(dir, ['ls-tree', '-z', base, '--', file], { env });
  const line = r.stdout.split('\u0000')[0] ?? '';
  const m = /^(\d+) (\w+) ([0-9a-f]+)\t(.*)$/s.exec(line);
  return m === null || m[4] !== file ? undefined : { mode: m[1]!, type: m[2]!, object: m[3]! };
}

/** Follows every symlink in `file`'s path within the tree of `base` (at most 40, as the kernel does). */
async function treePathOf(dir: string, base: string, file: string, env: NodeJS.ProcessEnv): Promise<TreePath> {
  let rest = file.split('/').filter((p) => p !== '' && p !== '.');
  let resolved: string[] = [];
  for (let hops = 0; rest.length > 0; ) {
    const here = [...resolved, rest[0]!].join('/');
    const entry = await entryAt(dir, base, here, env);
    if (entry === undefined) return { file: [here, ...rest.slice(1)].join('/') };
    if (entry.mode !== '120000') {
      resolved.push(rest.shift()!);
      if (rest.length === 0) return entry.type === 'blob' ? { file: here, mode: entry.mode } : { outside: `${file} (a folder in the tree)` };
      continue;
    }
    if (++hops > 40) return { outside: `${file} (a loop of symlinks)` };
    const target = (await runGit(dir, ['cat-file', 'blob', entry.object], { env })).stdout;
    const joined = path.posix.normalize(path.posix.join(resolved.join('/'), target));
    if (target.startsWith('/') || joined === '..' || joined.startsWith('../')) return { outside: `${here} -> ${target}` };
    rest = [...joined.split('/').filter((p) => p !== '' && p !== '.'), ...rest.slice(1)];
    resolved = [];
  }
  return { outside: `${file} (the repository's root)` };
}

/** The changes moved to the files git keeps them in; those behind a symlink out of the repository are left out, each with a finding. */
export async function placeChanges(dir: string, base: string, changes: readonly FileChange[], env: NodeJS.ProcessEnv): Promise<{ changes: FileChange[]; skipped: FleetFinding[] }> {
  const placed: FileChange[] = [];
  const skipped: FleetFinding[] = [];
  for (const c of changes) {
    const at = await treePathOf(dir, base, c.file, env);
    if ('file' in at) placed.push({ ...c, file: at.file, ...(at.mode === undefined ? {} : { mode: at.mode }) });
    else skipped.push(declinedFix(c.file, `${c.file} is reached through a symlink out of the repository (${at.outside}); relctl does not edit it`));
  }
  return { changes: placed, skipped };
}
