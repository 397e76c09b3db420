/**
 * What must not outlive relctl when it is interrupted (Ctrl-C, SIGTERM): child process groups,
 * temp folders holding secrets, throwaway gpg agents. Each owner registers its own clean-up and
 * removes it when it cleaned up normally; src/cli.ts runs what is left if the command does not
 * wind down by itself in time (or on a second Ctrl-C).
 */
export type Cleanup = () => void | Promise<void>;

const pending = new Set<Cleanup>();

/** Registers a clean-up; the returned function unregisters it (call it once cleaned up). */
export function onInterrupt(cleanup: Cleanup): () => void {
  pending.add(cleanup);
  return () => {
    pending.delete(cleanup);
  };
}

/** Runs every registered clean-up once, concurrently, never throwing; bounded by `ms`. */
export async function runInterruptCleanups(ms = 5000): Promise<void> {
  const all = [...pending];
  pending.clear();
  const done = Promise.allSettled(all.map(async (c) => c()));
  await Promise.race([done, new Promise((resolve) => setTimeout(resolve, ms).unref())]);
}

/**
 * Stops a process group started detached (the child leads its own group, so Maven's JVM, the
 * fake release plugin's git and gpg children all go with it): SIGTERM, then SIGKILL for what is
 * still alive after `graceMs` (short: Ctrl-C must end relctl within 2 s even when a child ignores
 * SIGTERM). Resolves once the group is gone (or after the SIGKILL).
 */
export async function killProcessGroup(pid: number, graceMs = 1200): Promise<void> {
  const alive = (): boolean => {
    try {
      process.kill(-pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  const send = (signal: NodeJS.Signals): void => {
    try {
      process.kill(-pid, signal);
    } catch {
      // Already gone.
    }
  };
  send('SIGTERM');
  const until = Date.now() + graceMs;
  while (alive() && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
  if (alive()) {
    send('SIGKILL');
    for (let i = 0; i < 40 && alive(); i++) await new Promise((r) => setTimeout(r, 25));
  }
}
