/**
 * What a CI script's `mvn … deploy` builds: the POM `-f`/`--file` names and the modules
 * `-pl`/`--projects` lists. The fix uses it as evidence that a POM is never deployed (a root
 * aggregator when the deploy runs on a sub-build). Only plain values count: one with `$`, quotes
 * around variables or globs is not known. Pure.
 */

export interface MvnDeployCommand {
  /** The POM or folder given with -f (as written, workspace prefixes dropped). */
  file?: string;
  /** The modules given with -pl (paths or `:artifactId`); `!x` exclusions are left out. */
  projects?: string[];
  /** `-am`/`--also-make`: the listed modules' dependencies in the reactor are built (and deployed) too. */
  alsoMake?: boolean;
}

const workspace = /(?:\$\{\{\s*github\.workspace\s*\}\}|\$GITHUB_WORKSPACE|\$\{GITHUB_WORKSPACE\}|\$CI_PROJECT_DIR|\$\{CI_PROJECT_DIR\}|\$WORKSPACE|\$\{WORKSPACE\}|\$PWD|\$\(pwd\))\//g;

function valueOf(rest: string, flags: string): string | undefined | null {
  const m = new RegExp(`(?:^|\\s)(?:${flags})(?:\\s+|=)("[^"]+"|'[^']+'|[^\\s;&|]+)`).exec(rest);
  if (m === null) return undefined;
  const value = m[1]!.replace(/^["']|["']$/g, '');
  // A value built from a variable is not known: null says "given, unknown".
  return /[$`{}*]/.test(value) ? null : value;
}

/** Every `mvn`/`mvnw` command line of `text` that runs the deploy phase or goal. */
export function mvnDeployCommands(text: string): (MvnDeployCommand | 'unknown')[] {
  const out: (MvnDeployCommand | 'unknown')[] = [];
  for (const raw of text.split(/\r?\n/)) {
    if (/^\s*#/.test(raw)) continue;
    const line = raw.replace(workspace, '');
    const run = /(?:^|[\s;&|'"(])(?:\.\/)?(?:mvn|mvnw|mvnw\.cmd)(?:\s|$)/.exec(line);
    if (run === null) continue;
    const rest = line.slice(run.index + run[0].length).split(/\s*(?:&&|\|\||;|\|)\s*/)[0]!;
    if (!/(?:^|\s)(?:deploy|deploy:deploy|[\w.-]+:[\w.-]+(?::[\w.-]+)?:deploy)(?:\s|$)/.test(rest)) continue;
    const file = valueOf(rest, '-f|--file');
    const projects = valueOf(rest, '-pl|--projects');
    if (file === null || projects === null) {
      out.push('unknown');
      continue;
    }
    const cmd: MvnDeployCommand = {};
    if (file !== undefined) cmd.file = file;
    if (projects !== undefined) cmd.projects = projects.split(',').map((p) => p.trim()).filter((p) => p !== '' && !p.startsWith('!') && !p.startsWith('-'));
    if (/(?:^|\s)(?:-am|--also-make)(?:\s|$)/.test(rest)) cmd.alsoMake = true;
    out.push(cmd);
  }
  return out;
}
