import { advance, buildEventOf, progressText, type BuildProgress } from '../core/build-progress.js';
import type { Output, Spinner } from './output.js';

/**
 * The release build's progress while it runs (minutes of silence otherwise): on a terminal the
 * running step's spinner line shows the release goal, the module Maven builds and the elapsed
 * time, redrawn every second; elsewhere (CI, pipes) one line each time the goal or module changes
 * (Gradle: each task). With --verbose the build's own output is echoed instead, so nothing is
 * added. Lines arrive already masked (ProcessRunner's redactor); the output masks again.
 */
export interface BuildTracker {
  onLine(line: string): void;
  stop(): void;
}

export function trackBuild(out: Output, spinner: Spinner | undefined, label: string, now: () => number = Date.now): BuildTracker {
  const began = now();
  let state: BuildProgress = {};
  const onTerminal = out.interactive && spinner !== undefined;
  const draw = (): void => spinner?.update(`${label} · ${progressText(state, now() - began)}`);
  const timer = onTerminal ? setInterval(draw, 1000) : undefined;
  timer?.unref();
  return {
    onLine(line) {
      const event = buildEventOf(line);
      if (event === undefined) return;
      const next = advance(state, event);
      const changed = progressText(next, 0) !== progressText(state, 0);
      state = next;
      if (onTerminal) draw();
      else if (changed && !out.verboseEnabled) out.info(`  ${progressText(state, now() - began)}`);
    },
    stop() {
      if (timer !== undefined) clearInterval(timer);
    },
  };
}

/** `run` with the progress of every command it starts through `proc` (ProcessRunner.watchLines). */
export async function withBuildProgress<T>(
  out: Output,
  spinner: Spinner | undefined,
  label: string,
  proc: { watchLines(listener: (line: string) => void): () => void },
  run: () => Promise<T>,
): Promise<T> {
  const tracker = trackBuild(out, spinner, label);
  const unwatch = proc.watchLines((line) => tracker.onLine(line));
  try {
    return await run();
  } finally {
    unwatch();
    tracker.stop();
  }
}
