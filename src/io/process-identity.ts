import { readFile, readlink } from 'node:fs/promises';

/**
 * Who a process is beyond its pid (issue 37 item 6). A pid names a process only inside one PID
 * namespace of one boot of one kernel: a container that bind-mounts the host's /tmp numbers its
 * processes from 1 again, and a pid is handed out again once its process is gone. So relctl's
 * temp-folder markers (owned-temp.ts) also record
 * - `boot`: /proc/sys/kernel/random/boot_id, a random id per boot, shared by every container on
 *   that kernel (a different one means another boot or another machine sharing the folder);
 * - `pidns`: the target of /proc/self/ns/pid (`pid:[4026531836]`), the namespace the pid is in;
 * - `start`: field 22 of /proc/<pid>/stat, the process's start time in clock ticks since boot,
 *   which tells a reused pid from the process that wrote the marker.
 * Each is absent where it cannot be read (no /proc: not Linux, where PID namespaces do not exist).
 */
export interface ProcessIdentity {
  boot?: string;
  pidns?: string;
  start?: string;
}

/** Field 22 (starttime) of a /proc/<pid>/stat line. */
export function startTimeOfStat(stat: string): string | undefined {
  // Field 2 is the command name in parentheses, which may itself hold spaces and ')': the fields
  // after the last ')' are 3, 4, …, so starttime is the 20th of them.
  const rest = stat.slice(stat.lastIndexOf(')') + 1).trim().split(/\s+/);
  const start = rest[19];
  return start !== undefined && /^\d+$/.test(start) ? start : undefined;
}

const text = (file: string): Promise<string | undefined> => readFile(file, 'utf8').then((t) => t.trim(), () => undefined);

/**
 * Whether /proc numbers processes as this process's namespace does. A process in a new PID
 * namespace that still sees its parent's /proc (`unshare --pid --fork` without --mount-proc)
 * would read some other process's /proc/<pid>/stat: then no start time of another pid is trusted.
 */
async function procIsOurs(): Promise<boolean> {
  return (await readlink('/proc/self').catch(() => undefined)) === String(process.pid);
}

let own: Promise<ProcessIdentity> | undefined;

/** This process's identity (read once). */
export function ownIdentity(): Promise<ProcessIdentity> {
  own ??= (async () => {
    const [boot, pidns, stat] = await Promise.all([
      text('/proc/sys/kernel/random/boot_id'),
      readlink('/proc/self/ns/pid').catch(() => undefined),
      text('/proc/self/stat'),
    ]);
    const start = stat === undefined ? undefined : startTimeOfStat(stat);
    return { ...(boot === undefined ? {} : { boot }), ...(pidns === undefined ? {} : { pidns }), ...(start === undefined ? {} : { start }) };
  })();
  return own;
}

/** The start time of process `pid` of this namespace; undefined when it is gone or cannot be read. */
export async function startTimeOf(pid: number): Promise<string | undefined> {
  if (!(await procIsOurs())) return undefined;
  const stat = await text(`/proc/${pid}/stat`);
  return stat === undefined ? undefined : startTimeOfStat(stat);
}

/** Whether process `pid` of this namespace exists. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
