import { stat } from 'node:fs/promises';
import path from 'node:path';
import { runGit, type GitOptions } from './git.js';

/**
 * The repository root a project folder belongs to (git's top level), for reports whose paths are
 * relative to the repository rather than to `--cwd` (SARIF, GitLab code quality). Outside a
 * repository, or without git, the project folder itself.
 */
export async function repositoryRoot(projectRoot: string, options?: GitOptions): Promise<string> {
  const r = await runGit(projectRoot, ['rev-parse', '--show-prefix'], options);
  if (!r.ok) return projectRoot;
  // The prefix (`sub/dir/`) rather than --show-toplevel: the top level is git's resolved real
  // path, which differs from --cwd under a symlinked folder; going up from --cwd does not.
  const depth = r.stdout.trim().split('/').filter((s) => s !== '').length;
  return depth === 0 ? projectRoot : path.resolve(projectRoot, ...Array<string>(depth).fill('..'));
}

/** The build descriptor at the project root (where a finding about the whole project is shown). */
export async function topDescriptor(projectRoot: string): Promise<string | undefined> {
  for (const name of ['pom.xml', 'build.gradle.kts', 'build.gradle', 'settings.gradle.kts', 'settings.gradle']) {
    const info = await stat(path.join(projectRoot, name)).catch(() => undefined);
    if (info?.isFile() === true) return name;
  }
  return undefined;
}
