import { defaultTagTemplate, existingTag, renderTag } from './tag-forms.js';

/**
 * Release version math (seed part 3 and 9): a component moves from `X.Y.Z-SNAPSHOT` to the
 * release `X.Y.Z`, tagged `<artifactId>-X.Y.Z`, then to `X.Y.(Z+1)-SNAPSHOT`. Any number of
 * numeric parts counts the same way on the last one (`2.0.10.5-SNAPSHOT` → `2.0.10.5`, next
 * `2.0.10.6-SNAPSHOT`; `1.0-SNAPSHOT` → `1.0`, next `1.1-SNAPSHOT`), as maven-release-plugin does.
 * Pure: the git and public-repository facts come in as arguments, so the release chain (issue 5),
 * rehearse and preflight share one decision.
 */
export interface Version {
  /** The dot-separated numbers, at least one (`2.0.10.5` → [2, 0, 10, 5]). */
  numbers: number[];
  /**
   * What follows the numbers before the snapshot suffix, separator included (`.Final`, `.GA`,
   * `-M1`, `-RC2`); absent for plain numbers.
   */
  qualifier?: string;
  snapshot: boolean;
}

// No leading zeros: `1.02.3` is not a version Maven's release plugin would produce, and
// rejecting it keeps parse(format(v)) a round trip. At most 9 digits a part, 10 parts.
const numberPart = '(?:0|[1-9]\\d{0,8})';
// A qualifier starts with a letter (`.Final`, `.GA`, `-M1`, `-RC2`, `-beta.3`): a second or
// lower-case snapshot suffix stays out.
const versionPattern = new RegExp(`^(${numberPart}(?:\\.${numberPart}){0,9})([.-][A-Za-z][A-Za-z0-9]*(?:[.-]?\\d{1,9})?)?$`);

/**
 * Parses `X.Y.Z`, `X.Y.Z-SNAPSHOT`, any other count of numeric parts (`2.0.10.5-SNAPSHOT`, `1.0`)
 * and the same with a qualifier before the suffix (`4.2.8.Final-SNAPSHOT`, `1.8.16.GA-SNAPSHOT`,
 * `1.0.0-M1-SNAPSHOT`); anything else (ranges, `${revision}`) is undefined.
 */
export function parseVersion(text: string): Version | undefined {
  const trimmed = text.trim();
  const snapshot = trimmed.endsWith('-SNAPSHOT');
  const m = versionPattern.exec(snapshot ? trimmed.slice(0, -'-SNAPSHOT'.length) : trimmed);
  if (m === null) return undefined;
  const qualifier = m[2];
  if (qualifier !== undefined && /snapshot/i.test(qualifier)) return undefined;
  const v: Version = { numbers: m[1]!.split('.').map(Number), snapshot };
  if (qualifier !== undefined) v.qualifier = qualifier;
  return v;
}

export function formatVersion(v: Version): string {
  return `${v.numbers.join('.')}${v.qualifier ?? ''}${v.snapshot ? '-SNAPSHOT' : ''}`;
}

/** The number a qualifier ends with (`-M1` → 1), if any. */
function qualifierRevision(q: string | undefined): number | undefined {
  const m = q === undefined ? null : /(\d+)$/.exec(q);
  return m === null ? undefined : Number(m[1]);
}

/**
 * The version after `v`, as the Maven release plugin counts: a qualifier that ends with a number
 * counts up (`1.0.0-M1` → `1.0.0-M2`), otherwise the last numeric part does and the qualifier
 * stays (`4.2.8.Final` → `4.2.9.Final`, `2.0.10.5` → `2.0.10.6`).
 */
function following(v: Version, snapshot: boolean): Version {
  const rev = qualifierRevision(v.qualifier);
  if (v.qualifier !== undefined && rev !== undefined) {
    return { ...v, qualifier: v.qualifier.replace(/\d+$/, String(rev + 1)), snapshot };
  }
  const numbers = [...v.numbers];
  numbers[numbers.length - 1]! += 1;
  return { ...v, numbers, snapshot };
}

export function isSnapshotVersion(text: string): boolean {
  return parseVersion(text)?.snapshot === true;
}

/** `1.2.3-SNAPSHOT` → `1.2.3` (a release version maps to itself). */
export function releaseVersionOf(v: Version): Version {
  return { ...v, snapshot: false };
}

/** The development version after releasing `v`: `X.Y.(Z+1)-SNAPSHOT` (the last number counts up). */
export function nextDevelopmentVersion(v: Version): Version {
  return following(v, true);
}

/** The release after `v`: `X.Y.(Z+1)` (or the next milestone, see `following`). */
export function nextPatch(v: Version): Version {
  return following(v, false);
}

/**
 * Maven ordering for these shapes: numbers first (missing trailing parts count as 0, so `1.2` =
 * `1.2.0`), then a milestone-like qualifier's number (`-M1` < `-M2` < plain), then a snapshot
 * before its release.
 */
export function compareVersions(a: Version, b: Version): -1 | 0 | 1 {
  const rank = (v: Version): number => qualifierRevision(v.qualifier) ?? Number.MAX_SAFE_INTEGER;
  let d = 0;
  for (let i = 0; d === 0 && i < Math.max(a.numbers.length, b.numbers.length); i++) d = (a.numbers[i] ?? 0) - (b.numbers[i] ?? 0);
  d = d || rank(a) - rank(b) || Number(!a.snapshot) - Number(!b.snapshot);
  return d < 0 ? -1 : d > 0 ? 1 : 0;
}

export { defaultTagTemplate, renderTag } from './tag-forms.js';

export function releaseTagName(artifactId: string, version: Version | string, template = defaultTagTemplate): string {
  return renderTag(template, artifactId, typeof version === 'string' ? version : formatVersion(version));
}

export interface SkippedVersion {
  version: string;
  tag: string;
  /** false: confirmed absent from the public repository; undefined: could not be checked. */
  published: false | undefined;
}

export interface ReleasePlan {
  /** The version to release now. */
  release: string;
  tag: string;
  nextDevelopment: string;
  /** Versions whose tag exists but which never reached the public repository (orphans), oldest first. */
  skipped: SkippedVersion[];
  /**
   * Set when the candidate's tag exists AND that version is published: not an orphan, nothing
   * to skip to; the release step must refuse (the version was already released).
   */
  alreadyReleased?: { version: string; tag: string };
}

export interface PlanInput {
  /** The current version; must be a snapshot for a release to make sense. */
  current: Version;
  artifactId: string;
  tagTemplate?: string;
  existingTags: Iterable<string>;
  /** Public-repository presence per release version string; missing key = unknown. */
  published: ReadonlyMap<string, boolean> | Record<string, boolean | undefined>;
}

function lookup(published: PlanInput['published'], version: string): boolean | undefined {
  return published instanceof Map ? published.get(version) : (published as Record<string, boolean | undefined>)[version];
}

/**
 * The orphan-tag rule (seed part 3.2): starting from the current snapshot's release version,
 * a version whose tag exists but which is not in the public repository is skipped (the tag
 * stays) and the next patch is tried. Presence unknown (offline) is treated as "not published"
 * for planning, and reported as unknown so the caller can say it could not check.
 */
export function planRelease(input: PlanInput): ReleasePlan {
  const template = input.tagTemplate ?? defaultTagTemplate;
  const tags = new Set(input.existingTags);
  const skipped: SkippedVersion[] = [];
  let candidate = releaseVersionOf(input.current);
  // The loop ends: every iteration consumes one existing tag, and the set is finite.
  for (;;) {
    const version = formatVersion(candidate);
    // The tag may exist in any of the forms (v1.2.3, 1.2.3, demo-1.2.3, the configured one).
    const found = existingTag(tags, input.artifactId, version, template);
    if (found === undefined) {
      const tag = renderTag(template, input.artifactId, version);
      return { release: version, tag, nextDevelopment: formatVersion(nextDevelopmentVersion(candidate)), skipped };
    }
    const tag = found;
    tags.delete(found);
    const published = lookup(input.published, version);
    if (published === true) {
      return {
        release: version,
        tag,
        nextDevelopment: formatVersion(nextDevelopmentVersion(candidate)),
        skipped,
        alreadyReleased: { version, tag },
      };
    }
    skipped.push({ version, tag, published: published === false ? false : undefined });
    candidate = nextPatch(candidate);
  }
}

/**
 * Why `text` is not a release version a post-release command can work on (DESIGN §11), or
 * undefined when it is one. The one check behind every `--release-version`: exact text (a
 * trailing space is a typo, not the same version), X.Y.Z with an optional qualifier, no -SNAPSHOT.
 */
export function releaseVersionProblem(text: string): string | undefined {
  if (text !== text.trim() || /\s/.test(text)) return 'it contains white space';
  const v = parseVersion(text);
  if (v === undefined) return 'it is not a version X.Y.Z';
  if (v.snapshot) return 'it is a snapshot, not a release';
  return undefined;
}
