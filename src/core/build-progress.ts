/**
 * What a release build is doing, read from its output lines (issue 27 item 4): the release
 * plugin's goal (`clean`, `prepare`, `perform`), the reactor module Maven is building and its place
 * in the reactor, or the Gradle task. Pure: the lines come in one at a time, as the build prints
 * them; the terminal rendering is src/ui/build-progress.ts.
 */
export type BuildEvent =
  /** A new Maven run of relctl's own (not a forked one): what the previous run did is over. */
  | { kind: 'start' }
  | { kind: 'goal'; goal: string }
  | { kind: 'module'; name: string; version: string; index?: number; total?: number; forked: boolean }
  | { kind: 'task'; task: string };

export interface BuildProgress {
  goal?: string;
  module?: { name: string; version: string; index?: number; total?: number; forked: boolean };
  task?: string;
}

// The release plugin's forked build prints its lines behind `[INFO] ` (3.x, its invoker) or
// indented (2.x): `[INFO] [INFO] Building …`, `    [INFO] Building …`.
const prefix = /^\s*((?:\[INFO\]\s+)+)/;
// `--- maven-release-plugin:2.5.3:prepare (default-cli) @ x ---`, Maven 3.9's `--- release:3.1.1:perform …`.
const releaseGoal = /^---\s+(?:maven-release-plugin|release):[^:\s]+:([a-z-]+)\b/;
// `Building relctl demo core 1.0.0    [2/3]` (Maven 3.5+) or `Building CAS server security filter 2.0.10.5` (older).
// The version is the last word and starts with a digit; `Building jar: /path/x.jar` is a plugin's line, not a module.
const building = /^Building\s+(.+?)\s+(\d[\w.+-]*)(?:\s+\[(\d+)\/(\d+)\])?\s*$/;
// Gradle's plain console: `> Task :core:compileJava` (with an optional outcome: UP-TO-DATE, NO-SOURCE).
const gradleTask = /^> Task (:\S+)/;

/** The event a line of build output announces, or undefined for every other line. */
export function buildEventOf(line: string): BuildEvent | undefined {
  // Maven's first line carries jansi's colour resets even with -B (`\x1b[0m\x1b[0m[INFO] Scanning…`).
  const text = line.replace(/\x1b\[[0-9;]*m/g, '').replace(/\r$/, '');
  const task = gradleTask.exec(text.trim());
  if (task !== null) return { kind: 'task', task: task[1]! };
  if (text === '[INFO] Scanning for projects...') return { kind: 'start' };
  const p = prefix.exec(text);
  if (p === null) return undefined;
  const rest = text.slice(p[0].length).trimEnd();
  const forked = (p[1]!.match(/\[INFO\]/g) ?? []).length > 1 || /^\s/.test(text);
  const goal = releaseGoal.exec(rest);
  if (goal !== null) return { kind: 'goal', goal: goal[1]! };
  const m = building.exec(rest);
  if (m === null || /:$/.test(m[1]!.split(/\s+/)[0]!)) return undefined;
  return {
    kind: 'module',
    name: m[1]!.trim(),
    version: m[2]!,
    ...(m[3] === undefined ? {} : { index: Number(m[3]), total: Number(m[4]) }),
    forked,
  };
}

/** The progress after one event; a new goal forgets the module of the previous one. */
export function advance(state: BuildProgress, event: BuildEvent): BuildProgress {
  switch (event.kind) {
    case 'start':
      return {};
    case 'goal':
      return { goal: event.goal };
    case 'module': {
      const { kind: _kind, ...module } = event;
      return { ...state, module };
    }
    case 'task':
      return { ...state, task: event.task };
  }
}

/** `1m 05s`, `42s`. */
export function elapsedText(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`;
}

/** `release:prepare · relctl demo core 1.0.0 [2/3] · 1m 05s` (the parts known so far). */
export function progressText(state: BuildProgress, elapsedMs: number): string {
  const parts: string[] = [];
  if (state.goal !== undefined) parts.push(`release:${state.goal}`);
  const m = state.module;
  if (m !== undefined) parts.push(`${m.name} ${m.version}${m.index === undefined ? '' : ` [${m.index}/${m.total}]`}`);
  if (state.task !== undefined) parts.push(state.task);
  parts.push(elapsedText(elapsedMs));
  return parts.join(' · ');
}
