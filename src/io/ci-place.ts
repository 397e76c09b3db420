/**
 * Where `relctl init` writes (DESIGN §12): CI files belong at the repository root (GitHub reads
 * .github/workflows only there, GitLab .gitlab-ci.yml likewise), while the project may sit in a
 * sub-folder; and the facts init answers from the repository (its host, its default branch).
 */
import { access, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { currentBranch, runGit } from './git.js';
import { repositoryRoot } from './repository-root.js';

export interface RepositoryPlace {
  /** The repository root (the project folder itself outside git). */
  root: string;
  /** The project folder relative to root, '/'-separated; '.' when they are the same. */
  projectDir: string;
  /** origin's default branch, else the current branch, else main. */
  defaultBranch: string;
  /** The origin remote's URL, when there is one. */
  originUrl?: string;
  /** CI files the repository already has (evidence of its CI host). */
  hasGitlabCi: boolean;
  hasGithubWorkflows: boolean;
}

export async function repositoryPlace(projectRoot: string, signal?: AbortSignal): Promise<RepositoryPlace> {
  const options = signal === undefined ? {} : { signal };
  const root = await repositoryRoot(projectRoot, options);
  const rel = path.relative(root, projectRoot).split(path.sep).join('/');
  const originHead = await runGit(projectRoot, ['symbolic-ref', '--quiet', '--short', 'refs/remotes/origin/HEAD'], options);
  const fromOrigin = originHead.ok ? originHead.stdout.trim().replace(/^origin\//, '') : '';
  const defaultBranch = fromOrigin !== '' ? fromOrigin : ((await currentBranch(projectRoot, options)) ?? 'main');
  const origin = await runGit(projectRoot, ['remote', 'get-url', 'origin'], options);
  return {
    root,
    projectDir: rel === '' ? '.' : rel,
    defaultBranch,
    ...(origin.ok && origin.stdout.trim() !== '' ? { originUrl: origin.stdout.trim() } : {}),
    hasGitlabCi: await exists(path.join(root, '.gitlab-ci.yml')),
    hasGithubWorkflows: await exists(path.join(root, '.github', 'workflows')),
  };
}

function exists(p: string): Promise<boolean> {
  return access(p).then(
    () => true,
    () => false,
  );
}

/** The text of each file (relative to root), undefined for a file that does not exist. */
export async function readTexts(root: string, files: readonly string[]): Promise<Map<string, string | undefined>> {
  const out = new Map<string, string | undefined>();
  for (const file of files) out.set(file, await readFile(path.join(root, file), 'utf8').catch(() => undefined));
  return out;
}

export async function writeTexts(root: string, files: readonly { path: string; text: string }[]): Promise<void> {
  for (const file of files) {
    const target = path.join(root, file.path);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, file.text);
  }
}
