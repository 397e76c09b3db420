import path from 'node:path';
import { relativeToRoot } from './abs-path.js';
import { groupIdProblem } from './identifiers.js';

/**
 * Maven coordinates where they become paths (DESIGN §13 Safety). relctl lays coordinates out as a
 * Maven repository does (`g/r/o/u/p/artifactId/version/artifactId-version.pom`) in folders of its
 * own: the fleet's parents and local repository, the parent cache, a rehearsal's backups. The
 * coordinates come from POMs relctl does not own, so only those in Maven's own syntax (its model
 * validator refuses the others before any build) become a path, and the path is proven to lie
 * inside its folder before anything is written there. Pure.
 */

export type CoordinateField = 'groupId' | 'artifactId' | 'version';

export interface Coordinates {
  groupId?: string | undefined;
  artifactId?: string | undefined;
  version?: string | undefined;
}

/** Maven's id pattern (artifactId), as its model validator checks it. */
const idPattern = /^[A-Za-z0-9_.-]+$/;
/** What Maven refuses in a version (a file system's reserved characters), and control characters. */
const versionRefused = /[\\/:"<>|?*\u0000-\u001f\u007f-\u009f]/;

/** Why `value` cannot be that coordinate, or undefined when Maven accepts it and it names one folder. */
export function coordinateProblem(field: CoordinateField, value: string): string | undefined {
  if (value === '') return 'it is empty';
  if (field === 'groupId') return groupIdProblem(value);
  if (value.includes('..') || value === '.') return 'it holds "..", a step out of its folder';
  if (field === 'artifactId') return idPattern.test(value) ? undefined : 'not a Maven id: letters, digits, "_", "-" and "." only';
  return versionRefused.test(value) ? 'a Maven version holds none of \\ / : " < > | ? * nor control characters' : undefined;
}

export interface CoordinateRefusal {
  field: CoordinateField;
  value: string;
  problem: string;
}

/** The first coordinate of `c` that is present and refused, or undefined. */
export function coordinatesRefusal(c: Coordinates): CoordinateRefusal | undefined {
  for (const field of ['groupId', 'artifactId', 'version'] as const) {
    const value = c[field];
    const problem = value === undefined ? undefined : coordinateProblem(field, value);
    if (value !== undefined && problem !== undefined) return { field, value, problem };
  }
  return undefined;
}

/** A refused value as a message quotes it: everything outside printable ASCII escaped, never sent raw to a terminal. */
export function quotedCoordinate(value: string): string {
  return JSON.stringify(value).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * `root/g/r/o/u/p/artifactId[/version][/name]`, or undefined when a coordinate is missing, still a
 * `${...}` reference, refused by {@link coordinateProblem}, or the path would leave `root`.
 */
export function repositoryFile(root: string, c: Coordinates, name?: string): string | undefined {
  const { groupId: g, artifactId: a, version: v } = c;
  if (g === undefined || a === undefined || `${g}${a}${v ?? ''}`.includes('${') || coordinatesRefusal(c) !== undefined) return undefined;
  if (name !== undefined && (name === '' || name.includes('/') || name.includes('\\') || name === '.' || name === '..')) return undefined;
  const file = path.join(root, ...g.split('.'), a, ...(v === undefined ? [] : [v]), ...(name === undefined ? [] : [name]));
  const rel = relativeToRoot(root, file);
  return rel === undefined || rel === '.' ? undefined : file;
}

/** Where a Maven repository under `root` keeps the POM of `c` (all three coordinates needed). */
export function repositoryPom(root: string, c: Coordinates): string | undefined {
  return c.version === undefined ? undefined : repositoryFile(root, c, `${c.artifactId}-${c.version}.pom`);
}
