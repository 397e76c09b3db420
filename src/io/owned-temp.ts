import { chmod, lstat, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ownIdentity, processAlive, startTimeOf, type ProcessIdentity } from './process-identity.js';

/**
 * relctl's own temporary folders (`relctl-<kind>-XXXXXX` under the OS temp folder): each carries a
 * marker file naming the process that made it. A run killed with SIGKILL cannot remove its folders
 * (a throwaway GNUPGHOME, a private Maven home, a rehearsal's copy): the next run finds them by
 * that marker, and removes those whose process is proven gone (ownerGone). A folder without the
 * marker (someone else's, or one whose maker was killed before writing it) and a folder of a live
 * process are never touched.
 */
export const ownerMarker = '.relctl-owner';

/** The marker's content: the maker's pid and, where /proc tells, which process that pid was (process-identity.ts). */
export interface OwnerMarker extends ProcessIdentity {
  pid: number;
  created?: string;
}

/**
 * How long a folder whose owner cannot be checked from here (another PID namespace, another boot
 * or machine, a pid-only marker) stays: 10 days untouched (the folder's and its marker's mtime),
 * the age at which systemd-tmpfiles' default rule for /tmp removes files anyway. Long enough that
 * a live sandbox in a container sharing /tmp is not swept from under it by a run on the host.
 */
export const foreignMarkerMaxAgeMs = 10 * 24 * 3600 * 1000;

export async function makeOwnedTempDir(prefix: string, base = os.tmpdir()): Promise<string> {
  const dir = await mkdtemp(path.join(base, prefix));
  await chmod(dir, 0o700);
  await writeFile(path.join(dir, ownerMarker), `${JSON.stringify(await thisProcessMarker())}\n`, { mode: 0o600 });
  return dir;
}

/** The marker naming this process (now). */
export async function thisProcessMarker(): Promise<OwnerMarker> {
  return { pid: process.pid, created: new Date().toISOString(), ...(await ownIdentity()) };
}

/** The marker of `dir`; undefined when the folder carries none (or one relctl did not write). */
export async function ownerOf(dir: string): Promise<OwnerMarker | undefined> {
  const text = await readFile(path.join(dir, ownerMarker), 'utf8').catch(() => undefined);
  return text === undefined ? undefined : parseOwnerMarker(text);
}

/** A marker's text read back; undefined when it is not one relctl wrote (also the fleet's workspace lock, fleet/workspace-lock.ts). */
export function parseOwnerMarker(text: string): OwnerMarker | undefined {
  try {
    const m = JSON.parse(text) as Record<string, unknown>;
    if (typeof m.pid !== 'number' || !Number.isInteger(m.pid) || m.pid <= 0) return undefined;
    const marker: OwnerMarker = { pid: m.pid };
    for (const key of ['created', 'boot', 'pidns', 'start'] as const) if (typeof m[key] === 'string') marker[key] = m[key];
    return marker;
  } catch {
    return undefined;
  }
}

/** What this process sees of the marker's pid: whether it exists here, and its start time. */
export interface PidProbe {
  alive: boolean;
  start?: string;
}

/**
 * Whether the process that wrote `marker` is proven gone, judged from a process whose identity is
 * `here` (pure; `probe` is what `here` sees of the marker's pid, `ageMs` how long the folder has
 * been untouched).
 * - Same boot, same PID namespace: the pid means the same process table. Gone when the pid is not
 *   alive, or alive with another start time (the pid was reused); a live pid whose start time
 *   cannot be read counts as the owner.
 * - Another namespace or boot: "not alive here" proves nothing (the sandbox of a container that
 *   shares /tmp is alive in its own namespace). Left alone until foreignMarkerMaxAgeMs.
 * - A pid-only marker (relctl before issue 37): today's rule, the pid not alive, where PID
 *   namespaces do not exist (no /proc/self/ns/pid); on Linux it cannot say which namespace wrote
 *   it, so the pid must also be dead here and the folder past foreignMarkerMaxAgeMs.
 */
export function ownerGone(marker: OwnerMarker, here: ProcessIdentity, probe: PidProbe, ageMs: number): boolean {
  const old = ageMs >= foreignMarkerMaxAgeMs;
  if (marker.pidns === undefined) return !probe.alive && (here.pidns === undefined || old);
  if (marker.boot !== undefined && marker.boot === here.boot && marker.pidns === here.pidns) {
    if (!probe.alive) return true;
    return marker.start !== undefined && probe.start !== undefined && probe.start !== marker.start;
  }
  return old;
}

/**
 * Whether the run a marker names is gone: its process dead, or another process now holding its pid
 * (start time), or no answer and older than the marker allows. For temp folders and the fleet's lock.
 */
export async function markerOwnerGone(marker: OwnerMarker, ageMs: number, here?: Awaited<ReturnType<typeof ownIdentity>>): Promise<boolean> {
  const alive = processAlive(marker.pid);
  const start = alive ? await startTimeOf(marker.pid) : undefined;
  return ownerGone(marker, here ?? (await ownIdentity()), { alive, ...(start === undefined ? {} : { start }) }, ageMs);
}

/**
 * Removes the marked `relctl-*` folders under `tmp` whose process is gone (ownerGone), calling
 * `before` first (stop a gpg-agent, put a local repository back). Returns the folders removed. Only
 * folders owned by this user are looked at; errors on one folder never stop the others.
 */
export async function removeStaleTempDirs(before?: (dir: string) => Promise<void>, tmp = os.tmpdir(), now = Date.now()): Promise<string[]> {
  const removed: string[] = [];
  const names = await readdir(tmp).catch(() => [] as string[]);
  const uid = process.getuid?.();
  const here = await ownIdentity();
  for (const name of names) {
    if (!name.startsWith('relctl-')) continue;
    const dir = path.join(tmp, name);
    const st = await lstat(dir).catch(() => undefined);
    if (st === undefined || !st.isDirectory() || (uid !== undefined && st.uid !== uid)) continue;
    const marker = await ownerOf(dir);
    if (marker === undefined) continue;
    const touched = Math.max(st.mtimeMs, (await lstat(path.join(dir, ownerMarker)).catch(() => st)).mtimeMs);
    if (!(await markerOwnerGone(marker, now - touched, here))) continue;
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
