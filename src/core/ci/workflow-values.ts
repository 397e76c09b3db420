/**
 * Values `relctl init` writes into CI files that come from the repository or the command line (a
 * project folder, the default branch, the action's repository and ref). Quoting a YAML string is
 * not enough: GitHub evaluates `${{ … }}` inside any string of a step's `with:`, a branch filter
 * starting with `!` negates it, and `*`, `?`, `+`, `[` are filter patterns. Each value is written
 * so it means itself, or refused with why (DESIGN §12). Pure.
 */

/** Why a project folder cannot be written into a workflow as is, or undefined when it can. */
export function projectDirProblem(dir: string): string | undefined {
  if (/[\r\n]/.test(dir)) return 'holds a line break';
  if (dir.includes('${{')) return 'holds "${{", which GitHub would evaluate as an expression in working-directory and the artifact paths';
  return undefined;
}

/**
 * A branch name as a GitHub Actions branch filter that matches that branch only: the filter's
 * special characters escaped with a backslash (GitHub's documented escape), a leading `!` included.
 */
export function branchFilter(branch: string): string {
  // The characters the filter syntax lets a backslash escape: `[`, `?`, `+`, `*`, `\` (git allows
  // only `+` and `\`-free names, but the rule is the syntax's), and `!` where it negates.
  return branch.replace(/[*?+[\\]/g, (c) => `\\${c}`).replace(/^!/, '\\!');
}

/** A path for upload-artifact's `path:` list: a leading `!` would make it an exclusion pattern. */
export function artifactPath(relative: string): string {
  return relative.startsWith('!') ? `./${relative}` : relative;
}

// GitHub: an owner is letters, digits and single hyphens (at most 39); a repository name letters,
// digits, `.`, `_`, `-` (at most 100), neither `.` nor `..`.
const owner = '[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}';
const ownerName = new RegExp(`^${owner}/[A-Za-z0-9._-]{1,100}$`);

/** Why `--org` is not a GitHub organisation or user name, or undefined. */
export function ownerProblem(value: string): string | undefined {
  return new RegExp(`^${owner}$`).test(value) ? undefined : 'is not a GitHub organisation or user name (letters, digits and single "-", at most 39)';
}

/** Why `--repository` is not a GitHub OWNER/NAME, or undefined. */
export function repositoryProblem(value: string): string | undefined {
  if (!ownerName.test(value)) return 'is not OWNER/NAME of a GitHub repository (letters, digits, "-" in the owner; letters, digits, ".", "_", "-" in the name)';
  const name = value.slice(value.indexOf('/') + 1);
  if (name === '.' || name === '..') return 'is not OWNER/NAME of a GitHub repository';
  return undefined;
}

/**
 * Why `--ref` is not a tag, branch or commit SHA usable after `@` in `uses:` (and after `#` in
 * an npm git URL), or undefined: git's ref-name rules, restricted to characters that need no quoting.
 */
export function refProblem(value: string): string | undefined {
  if (value.length === 0 || value.length > 255) return 'is empty or longer than 255 characters';
  if (!/^[A-Za-z0-9._/-]+$/.test(value)) return 'may hold only letters, digits, ".", "_", "/" and "-" (a tag, a branch or a commit SHA)';
  if (/^[-./]|\/$|\.\.|\/\/|\/\.|\.lock$|\.$/.test(value)) return 'is not a valid git ref name (it starts with "-", "." or "/", ends with "/", "." or ".lock", or holds ".." or "//")';
  return undefined;
}
