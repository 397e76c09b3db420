/**
 * Maven's project list (`-pl`/`--projects`, with `-am`, `-amd`, `-N`): which reactor projects a
 * command builds, as Maven's CLI and graph builder decide it. Tried against Maven 3.8.7 (the
 * `-pl` cases of the tests) and read from Maven's DefaultGraphBuilder and ProjectSelector:
 *
 * - The value is a comma list; each entry is trimmed. `!x` and `-x` exclude x, `+x` and `x`
 *   select it; Maven 3.9 and later also read `?x` (`!?x`) as optional: no error when nothing matches.
 * - An entry with a `:` names a project by `:artifactId` or `groupId:artifactId`; any other is a
 *   path relative to the base folder (the `-f` folder, else the working folder), naming a module
 *   folder or its POM file.
 * - No selected entry (an exclusion-only list such as `-pl -:benchmark`) selects every project;
 *   `-am`/`-amd` add what the selection depends on or what depends on it; exclusions go last.
 * - Maven 3.9 and later also take a selected (or excluded) aggregator's modules with it, 3.8 does
 *   not. This module answers "what may be built": a selected aggregator's modules count, an
 *   excluded aggregator's do not (an older Maven builds them).
 *
 * Pure.
 */

/** A reactor project as the selection sees it (folders and files relative to the project root, forward slashes). */
export interface ReactorProject {
  dir: string;
  file: string;
  groupId?: string;
  artifactId?: string;
  /** The folders of the modules it aggregates (its `<modules>`, resolved). */
  modules: readonly string[];
}

export interface ProjectListRequest {
  /** The entries of every `-pl` value as written (exclusion and optional markers kept). */
  projects?: readonly string[];
  alsoMake?: boolean;
  alsoMakeDependents?: boolean;
  nonRecursive?: boolean;
}

interface Entry {
  selector: string;
  exclude: boolean;
  optional: boolean;
}

/** The entries of a project list value (`core,!docs,-:bench`), in order, as Maven's CLI splits them. */
export function projectListEntries(value: string): string[] {
  return value
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
}

function entryOf(raw: string): Entry {
  const exclude = raw.startsWith('!') || raw.startsWith('-');
  let selector = exclude || raw.startsWith('+') ? raw.slice(1) : raw;
  const optional = selector.startsWith('?');
  if (optional) selector = selector.slice(1);
  return { selector, exclude, optional };
}

/** `a/./b/../c/` → `a/c`; '' for the base folder itself; undefined when it leaves the root. */
function normalize(p: string): string | undefined {
  const out: string[] = [];
  for (const part of p.replace(/\\/g, '/').split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (out.length === 0) return undefined;
      out.pop();
    } else out.push(part);
  }
  return out.join('/');
}

function matches(project: ReactorProject, selector: string, base: string): boolean {
  if (selector.includes(':')) {
    return selector === `:${project.artifactId ?? ''}` || (project.groupId !== undefined && selector === `${project.groupId}:${project.artifactId ?? ''}`);
  }
  const target = normalize(base === '' ? selector : `${base}/${selector}`);
  return target !== undefined && (target === project.dir || target === project.file);
}

/** The project and every module below it, through `<modules>`. */
function withModules<P extends ReactorProject>(project: P, reactor: readonly P[]): P[] {
  const out = [project];
  for (let i = 0; i < out.length; i++) {
    for (const dir of out[i]!.modules) {
      const m = reactor.find((r) => r.dir === dir);
      if (m !== undefined && !out.includes(m)) out.push(m);
    }
  }
  return out;
}

/**
 * The projects of `reactor` (those under `base`) that the request may build, or undefined when
 * that cannot be told: an entry that matches no project (Maven stops there, or relctl's reactor
 * lacks a module only a profile lists). With `-am`/`-amd` a selection takes dependencies relctl
 * does not resolve: every project but the excluded ones may be built.
 */
export function selectedProjects<P extends ReactorProject>(request: ProjectListRequest, base: string, reactor: readonly P[]): readonly P[] | undefined {
  const top = reactor.find((p) => p.dir === base);
  const scope = request.nonRecursive === true ? (top === undefined ? [] : [top]) : reactor;
  const entries = (request.projects ?? []).map(entryOf);
  const found = (e: Entry): P | undefined | null => {
    const hit = scope.find((p) => matches(p, e.selector, base));
    return hit ?? (e.optional ? undefined : null);
  };
  const selected = new Set<P>();
  const excluded = new Set<P>();
  for (const e of entries) {
    const hit = found(e);
    if (hit === null) return undefined;
    if (hit === undefined) continue;
    if (e.exclude) excluded.add(hit);
    else for (const p of request.nonRecursive === true ? [hit] : withModules(hit, scope)) selected.add(p);
  }
  const selects = entries.some((e) => !e.exclude);
  const widened = selects && (request.alsoMake === true || request.alsoMakeDependents === true);
  const chosen = selects && !widened ? scope.filter((p) => selected.has(p)) : scope;
  return chosen.filter((p) => !excluded.has(p));
}
