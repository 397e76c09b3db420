/**
 * Release version math (seed part 3 and 9): a component moves from `X.Y.Z-SNAPSHOT` to the
 * release `X.Y.Z`, tagged `<artifactId>-X.Y.Z`, then to `X.Y.(Z+1)-SNAPSHOT`. Pure: the git and
 * public-repository facts come in as arguments, so the release chain (issue 5) and preflight
 * share one decision.
 */
export interface Version {
  major: number;
  minor: number;
  patch: number;
  snapshot: boolean;
}

// No leading zeros: `1.02.3` is not a version Maven's release plugin would produce, and
// rejecting it keeps parse(format(v)) a round trip.
const versionPattern = /^(0|[1-9]\d{0,8})\.(0|[1-9]\d{0,8})\.(0|[1-9]\d{0,8})(-SNAPSHOT)?$/;

/** Parses `X.Y.Z` or `X.Y.Z-SNAPSHOT`; anything else (ranges, qualifiers, `${revision}`) is undefined. */
export function parseVersion(text: string): Version | undefined {
  const m = versionPattern.exec(text.trim());
  if (m === null) return undefined;
  return { major: Number(m[1]), minor: Number(m[2]), patch: Number(m[3]), snapshot: m[4] !== undefined };
}

export function formatVersion(v: Version): string {
  return `${v.major}.${v.minor}.${v.patch}${v.snapshot ? '-SNAPSHOT' : ''}`;
}

export function isSnapshotVersion(text: string): boolean {
  return parseVersion(text)?.snapshot === true;
}

/** `1.2.3-SNAPSHOT` → `1.2.3` (a release version maps to itself). */
export function releaseVersionOf(v: Version): Version {
  return { ...v, snapshot: false };
}

/** The development version after releasing `v`: `X.Y.(Z+1)-SNAPSHOT`. */
export function nextDevelopmentVersion(v: Version): Version {
  return { major: v.major, minor: v.minor, patch: v.patch + 1, snapshot: true };
}

/** The release after `v`: `X.Y.(Z+1)`. */
export function nextPatch(v: Version): Version {
  return { major: v.major, minor: v.minor, patch: v.patch + 1, snapshot: false };
}

/** Maven ordering for these two shapes: a snapshot sorts before its release. */
export function compareVersions(a: Version, b: Version): -1 | 0 | 1 {
  const d = a.major - b.major || a.minor - b.minor || a.patch - b.patch || Number(!a.snapshot) - Number(!b.snapshot);
  return d < 0 ? -1 : d > 0 ? 1 : 0;
}

/** relctl's tag template (DESIGN §6); `{artifactId}` and `{version}` are replaced. */
export const defaultTagTemplate = '{artifactId}-{version}';

/**
 * Renders a tag template. Besides relctl's `{artifactId}`/`{version}` it understands the Gradle
 * release plugin's `$version`, `${version}`, `$name` and `${name}` so a template read from a
 * build script can be used as is.
 */
export function renderTag(template: string, artifactId: string, version: Version | string): string {
  const v = typeof version === 'string' ? version : formatVersion(version);
  return template
    .replace(/\{artifactId\}|\$\{name\}|\$name\b/g, () => artifactId)
    .replace(/\{version\}|\$\{version\}|\$version\b/g, () => v);
}

export function releaseTagName(artifactId: string, version: Version | string, template = defaultTagTemplate): string {
  return renderTag(template, artifactId, version);
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
    const tag = renderTag(template, input.artifactId, version);
    if (!tags.has(tag)) {
      return { release: version, tag, nextDevelopment: formatVersion(nextDevelopmentVersion(candidate)), skipped };
    }
    tags.delete(tag);
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
