import { chmod, lstat, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/**
 * relctl's own temporary folders (`relctl-<kind>-XXXXXX` under the OS temp folder): each carries a
 * marker file naming the process that made it. A run killed with SIGKILL cannot remove its folders
 * (a throwaway GNUPGHOME, a private Maven home, a rehearsal's copy): the next run finds them by
 * that marker, and removes those whose process is gone. A folder without the marker (someone
 * else's, or one whose maker was killed before writing it) and a folder of a live process are
 * never touched.
 */
export const ownerMarker = '.relctl-owner';

export async function makeOwnedTempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  await chmod(dir, 0o700);
  await writeFile(path.join(dir, ownerMarker), `${JSON.stringify({ pid: process.pid, created: new Date().toISOString() })}\n`, { mode: 0o600 });
  return dir;
}

/** The process that made `dir`, from its marker; undefined when the folder carries none. */
export async function ownerOf(dir: string): Promise<number | undefined> {
  const text = await readFile(path.join(dir, ownerMarker), 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  try {
    const pid = (JSON.parse(text) as { pid?: unknown }).pid;
    return typeof pid === 'number' && Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes the marked `relctl-*` folders of dead processes under the temp folder, calling `before`
 * first (stop a gpg-agent, put a local repository back). Returns the folders removed. Only
 * folders owned by this user are looked at; errors on one folder never stop the others.
 */
export async function removeStaleTempDirs(before?: (dir: string) => Promise<void>, tmp = os.tmpdir()): Promise<string[]> {
  const removed: string[] = [];
  const names = await readdir(tmp).catch(() => [] as string[]);
  const uid = process.getuid?.();
  for (const name of names) {
    if (!name.startsWith('relctl-')) continue;
    const dir = path.join(tmp, name);
    const st = await lstat(dir).catch(() => undefined);
    if (st === undefined || !st.isDirectory() || (uid !== undefined && st.uid !== uid)) continue;
    const pid = await ownerOf(dir);
    if (pid === undefined || pid === process.pid || processAlive(pid)) continue;
    try {
      await before?.(dir);
      await rm(dir, { recursive: true, force: true });
      removed.push(dir);
    } catch {
      // Left for a later run; never fatal to this one.
    }
  }
  return removed;
}
