import path from 'node:path';

/**
 * Folder arithmetic on normalised absolute paths, without path.dirname/path.join's general
 * parsing and re-normalising: a 1000-module reactor asks for thousands of these.
 */

/** `path.dirname` of a normalised absolute path (the fast way when it has a separator past the root). */
export function folderOf(abs: string): string {
  const at = abs.lastIndexOf(path.sep);
  return at > 0 && path.sep === '/' ? abs.slice(0, at) : path.dirname(abs);
}

/** `<dir>/<name>` for a normalised absolute folder (a root folder already ends in a separator). */
export function inFolder(dir: string, name: string): string {
  return dir.endsWith(path.sep) ? `${dir}${name}` : `${dir}${path.sep}${name}`;
}

const parentStep = `${path.sep}..`;
const currentStep = `${path.sep}.${path.sep}`;

/**
 * `abs` relative to `root` (forward slashes; `.` for the root itself), or undefined when it lies
 * outside: the proof that a path relctl reads or writes stays in its folder.
 */
export function relativeToRoot(root: string, abs: string): string | undefined {
  // Fast path for the common case (a normalised absolute path under the root): no re-resolving.
  const prefix = root.endsWith(path.sep) ? root : root + path.sep;
  if (abs.startsWith(prefix) && !abs.includes(parentStep) && !abs.includes(currentStep)) {
    const rel = abs.slice(prefix.length);
    return path.sep === '/' ? rel : rel.split(path.sep).join('/');
  }
  const rel = path.relative(root, abs);
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return rel === '' ? '.' : undefined;
  return rel.split(path.sep).join('/');
}
