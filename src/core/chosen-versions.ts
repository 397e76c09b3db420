import { compareVersions, formatVersion, nextDevelopmentVersion, parseVersion, planRelease, releaseVersionProblem, type PlanInput, type ReleasePlan } from './version.js';

/**
 * `relctl release --release-version X --next-version Y` (issue 27 item 7): the maintainer names
 * the release and the development version after it instead of counting from the snapshot, as
 * maven-release-plugin's releaseVersion/developmentVersion do. Pure: the tags and what the public
 * repository holds come in as arguments.
 */
export interface ChosenVersions {
  /** The release version X (not a snapshot). */
  release?: string;
  /** The development version after it, Y: a snapshot above the release. */
  next?: string;
}

/** Why `text` cannot be a `--next-version` (a snapshot X.Y.Z-SNAPSHOT), or undefined. */
export function nextVersionProblem(text: string): string | undefined {
  if (text !== text.trim() || /\s/.test(text)) return 'it contains white space';
  const v = parseVersion(text);
  if (v === undefined) return 'it is not a version X.Y.Z-SNAPSHOT';
  if (!v.snapshot) return 'it is not a snapshot: the version after a release is X.Y.Z-SNAPSHOT';
  return undefined;
}

/** Is the snapshot `next` above the release `release`? (Maven ordering: 2.0.0 < 2.0.1-SNAPSHOT, 2.0.0-SNAPSHOT < 2.0.0.) */
export function isAbove(next: string, release: string): boolean {
  const n = parseVersion(next);
  const r = parseVersion(release);
  return n !== undefined && r !== undefined && compareVersions(n, r) > 0;
}

/** The static checks of a chosen pair (each value already passed its own parser): Y above X. */
export function chosenVersionsProblem(c: ChosenVersions): { message: string; fix: string } | undefined {
  if (c.release !== undefined) {
    const problem = releaseVersionProblem(c.release);
    if (problem !== undefined) return { message: `--release-version ${JSON.stringify(c.release)} is not a release version (${problem}).`, fix: 'Name a release version such as 2.0.0 (no -SNAPSHOT).' };
  }
  if (c.next !== undefined) {
    const problem = nextVersionProblem(c.next);
    if (problem !== undefined) return { message: `--next-version ${JSON.stringify(c.next)} is not a development version (${problem}).`, fix: 'Name the snapshot after the release, e.g. --next-version 2.0.1-SNAPSHOT.' };
  }
  if (c.release !== undefined && c.next !== undefined && !isAbove(c.next, c.release)) {
    return {
      message: `--next-version ${c.next} is not above --release-version ${c.release}: the development version after a release must be a later snapshot.`,
      fix: `Name a snapshot above ${c.release}, e.g. --next-version ${suggestedNext(c.release)}.`,
    };
  }
  return undefined;
}

/** The development version maven-release-plugin would suggest after `release` (X.Y.(Z+1)-SNAPSHOT). */
export function suggestedNext(release: string): string {
  const v = parseVersion(release);
  return v === undefined ? `${release}-SNAPSHOT` : formatVersion(nextDevelopmentVersion({ ...v, snapshot: false }));
}

/**
 * The release plan with the chosen versions: counting starts at X as it would from X-SNAPSHOT, so
 * the orphan-tag rule (DESIGN §6) still applies (X tagged but never published: X's next patch is
 * released, the tag stays); Y replaces the computed development version. `nextTooLow` is set when
 * the orphan rule moved the release to or past Y.
 */
export function planChosenRelease(input: PlanInput, chosen: ChosenVersions): ReleasePlan & { nextTooLow?: boolean } {
  const release = chosen.release === undefined ? undefined : parseVersion(chosen.release);
  const plan = planRelease(release === undefined ? input : { ...input, current: { ...release, snapshot: true } });
  if (chosen.next === undefined) return plan;
  return { ...plan, nextDevelopment: chosen.next, ...(isAbove(chosen.next, plan.release) ? {} : { nextTooLow: true }) };
}
