/**
 * What a CI script's `mvn … deploy` builds: the POM `-f`/`--file` names and the project list of
 * `-pl`/`--projects` (applied by maven-project-list.ts). The fix uses it as evidence that a POM is
 * never deployed (a root aggregator when the deploy runs on a sub-build). Only plain values
 * count: one with `$`, quotes around variables or globs is not known. Pure.
 */
import { projectListEntries, type ProjectListRequest } from './maven-project-list.js';

export interface MvnDeployCommand extends ProjectListRequest {
  /** The POM or folder given with -f (as written, workspace prefixes dropped). */
  file?: string;
  /** The entries of every -pl as written: paths, `[groupId]:artifactId`, `!x`/`-x` exclusions. */
  projects?: string[];
}

const workspace = /(?:\$\{\{\s*github\.workspace\s*\}\}|\$GITHUB_WORKSPACE|\$\{GITHUB_WORKSPACE\}|\$CI_PROJECT_DIR|\$\{CI_PROJECT_DIR\}|\$WORKSPACE|\$\{WORKSPACE\}|\$PWD|\$\(pwd\))\//g;

/** Every value given with one of `flags`; null when one is built from a variable ("given, unknown"). */
function valuesOf(rest: string, flags: string): string[] | null {
  const out: string[] = [];
  for (const m of rest.matchAll(new RegExp(`(?:^|\\s)(?:${flags})(?:\\s+|=)("[^"]+"|'[^']+'|[^\\s;&|]+)`, 'g'))) {
    const value = m[1]!.replace(/^["']|["']$/g, '');
    if (/[$`{}*]/.test(value)) return null;
    out.push(value);
  }
  return out;
}

const flag = (rest: string, flags: string): boolean => new RegExp(`(?:^|\\s)(?:${flags})(?:\\s|$)`).test(rest);

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
    const files = valuesOf(rest, '-f|--file');
    const lists = valuesOf(rest, '-pl|--projects');
    if (files === null || lists === null) {
      out.push('unknown');
      continue;
    }
    const cmd: MvnDeployCommand = {};
    // Maven takes the first -f (tried on 3.8.7); every -pl adds to the list.
    if (files.length > 0) cmd.file = files[0]!;
    if (lists.length > 0) cmd.projects = lists.flatMap(projectListEntries);
    if (flag(rest, '-am|--also-make')) cmd.alsoMake = true;
    if (flag(rest, '-amd|--also-make-dependents')) cmd.alsoMakeDependents = true;
    if (flag(rest, '-N|--non-recursive')) cmd.nonRecursive = true;
    out.push(cmd);
  }
  return out;
}
