/**
 * One run per workspace (DESIGN §13 Safety, issue 41 item 4): `<workdir>/.relctl/lock`, made with
 * O_EXCL and holding the owner marker of relctl's temp folders (io/owned-temp.ts: pid, boot id,
 * PID namespace, start time). A second run does not wait: it exits 2 naming the holder's pid at
 * once (a fleet run takes minutes; a script that started two by mistake learns it now, not after
 * a timeout). A lock whose holder is proven gone (killed) is taken over.
 */
import { link, lstat, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { UsageError } from '../core/errors.js';
import { markerOwnerGone, parseOwnerMarker, thisProcessMarker, type OwnerMarker } from '../io/owned-temp.js';

function lockFileOf(workdir: string): string {
  return path.join(workdir, '.relctl', 'lock');
}

/** Workspaces this process holds, and how many of its callers hold each (fleet fix runs the audit inside its own hold). */
const held = new Map<string, number>();

/** Runs `work` holding the workspace's lock; refuses (exit 2) while another live run holds it. */
export async function withWorkspaceLock<T>(workdir: string, work: () => Promise<T>): Promise<T> {
  const file = lockFileOf(path.resolve(workdir));
  const depth = held.get(file) ?? 0;
  if (depth === 0) await acquire(file);
  held.set(file, depth + 1);
  try {
    return await work();
  } finally {
    if (depth === 0) {
      held.delete(file);
      await release(file);
    } else held.set(file, depth);
  }
}

async function acquire(file: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const text = `${JSON.stringify(await thisProcessMarker())}\n`;
  // Twice at most: once as found, once after taking over a dead holder's lock.
  for (let attempt = 0; attempt < 2; attempt++) {
    // Written whole beside it, then linked into place (fails when the lock exists): a lock is never seen half written.
    const temp = `${file}.${process.pid}.tmp`;
    await writeFile(temp, text, { mode: 0o600 });
    try {
      await link(temp, file);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      await rm(temp, { force: true });
    }
    const holder = await holderOf(file);
    if (holder !== undefined && !(await holderGone(file, holder.marker))) throw lockedError(file, holder.marker);
    await takeOver(file, holder?.text);
  }
  const holder = await holderOf(file);
  throw lockedError(file, holder?.marker ?? { pid: 0 });
}

async function holderOf(file: string): Promise<{ marker: OwnerMarker; text: string } | undefined> {
  const text = await readFile(file, 'utf8').catch(() => undefined);
  const marker = text === undefined ? undefined : parseOwnerMarker(text);
  return marker === undefined ? undefined : { marker, text: text! };
}

async function holderGone(file: string, marker: OwnerMarker): Promise<boolean> {
  const st = await lstat(file).catch(() => undefined);
  return markerOwnerGone(marker, st === undefined ? 0 : Date.now() - st.mtimeMs);
}

/**
 * Moves the dead holder's lock aside (a rename: of two runs taking over at once, one gets it) and
 * checks that what was moved is the lock judged dead; a live run's fresh lock moved by mistake
 * is put back.
 */
async function takeOver(file: string, deadText: string | undefined): Promise<void> {
  const aside = `${file}.stale-${process.pid}`;
  try {
    await rename(file, aside);
  } catch {
    return; // another run moved it first
  }
  const moved = await readFile(aside, 'utf8').catch(() => undefined);
  if (deadText !== undefined && moved !== deadText) await link(aside, file).catch(() => undefined);
  await rm(aside, { force: true });
}

/** Removes the lock when it is still this process's own. */
async function release(file: string): Promise<void> {
  const holder = await holderOf(file);
  if (holder?.marker.pid === process.pid) await rm(file, { force: true });
}

function lockedError(file: string, holder: OwnerMarker): UsageError {
  const since = holder.created === undefined ? '' : ` since ${holder.created}`;
  return new UsageError(`Another relctl run (pid ${holder.pid}${since}) is using the workspace ${path.dirname(path.dirname(file))}; one run per workspace.`, {
    kind: 'workspace-locked',
    fix: `Wait for pid ${holder.pid} to finish, or pass another --workdir. If that process is gone (another machine or container held it), remove ${file}.`,
  });
}
