import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';

export interface TempDir extends AsyncDisposable {
  path: string;
}

export async function tempDir(prefix = 'relctl-test-'): Promise<TempDir> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  return {
    path: dir,
    [Symbol.asyncDispose]: () => rm(dir, { recursive: true, force: true }),
  };
}

/** Writes a tree of files: keys are relative paths, values file contents. */
export async function writeTree(root: string, files: Record<string, string | Buffer>): Promise<void> {
  for (const [rel, content] of Object.entries(files)) {
    const file = path.join(root, rel);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, content);
  }
}

/** Environment that isolates git from the developer's configuration (no signing, fixed identity). */
export function gitEnv(home: string): Record<string, string> {
  return {
    HOME: home,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: path.join(home, '.gitconfig-none'),
    GIT_AUTHOR_NAME: 'Test',
    GIT_AUTHOR_EMAIL: 'test@example.invalid',
    GIT_COMMITTER_NAME: 'Test',
    GIT_COMMITTER_EMAIL: 'test@example.invalid',
  };
}

export async function git(cwd: string, home: string, ...args: string[]): Promise<string> {
  const r = await execa('git', ['-c', 'commit.gpgSign=false', '-c', 'tag.gpgSign=false', '-c', 'gc.auto=0', ...args], {
    cwd,
    env: gitEnv(home),
  });
  return String(r.stdout);
}

/** A real git repository on branch main holding `files`, committed once. */
export async function gitRepo(root: string, home: string, files: Record<string, string | Buffer>): Promise<void> {
  await writeTree(root, files);
  await git(root, home, 'init', '-q', '-b', 'main');
  await git(root, home, 'add', '-A');
  await git(root, home, 'commit', '-q', '-m', 'initial');
}
