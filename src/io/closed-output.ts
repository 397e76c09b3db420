import { OutputClosedError } from '../core/errors.js';

/**
 * stdout and stderr that can no longer be written (DESIGN §3: `relctl … | head -1`, a log reader
 * that died). Without an 'error' listener a write to a closed pipe is an uncaught exception; and
 * node's standard streams undo their own destruction after each error, so every later write fails
 * again: a crash handler reporting on the closed stream re-entered itself forever, spinning a core
 * and ignoring signals (issue 37). Here the first error silences that stream for good (later writes
 * are dropped, not tried) and tells the running command to stop, as Ctrl-C would (src/cli.ts).
 */
let closed: OutputClosedError | undefined;
const listeners = new Set<(reason: OutputClosedError) => void>();

/** Watches process.stdout and process.stderr; called once, by the entry point only. */
export function watchStandardStreams(): void {
  for (const name of ['stdout', 'stderr'] as const) {
    const stream = process[name];
    stream.on('error', (error: NodeJS.ErrnoException) => {
      silence(stream);
      if (closed !== undefined) return;
      closed = new OutputClosedError(name, error.code);
      for (const listener of [...listeners]) listener(closed);
    });
  }
}

/** The first standard stream found closed (or failing), if any. */
export function outputClosed(): OutputClosedError | undefined {
  return closed;
}

/** Calls `listener` once a standard stream is closed (at once if one already is); returns its unregistration. */
export function onOutputClosed(listener: (reason: OutputClosedError) => void): () => void {
  if (closed !== undefined) {
    listener(closed);
    return () => undefined;
  }
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

function silence(stream: NodeJS.WriteStream): void {
  // Every writer (commander, a spinner, the crash handler) goes through this one method. One that
  // waits for the callback, or for 'drain' after a false, must not wait forever: both come at once.
  stream.write = ((...args: unknown[]): boolean => {
    const done = args.find((a) => typeof a === 'function') as (() => void) | undefined;
    if (done !== undefined) process.nextTick(done);
    return true;
  }) as typeof stream.write;
}
