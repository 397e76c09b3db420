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
