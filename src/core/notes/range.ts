import { compareVersions, parseVersion } from '../version.js';
import { releaseTagCandidates, releaseTagVersion } from '../tag-forms.js';

/**
 * Which commits a release's notes cover (DESIGN §11): from the last *published* release's tag to
 * the release tag (or HEAD). Pure: the tags come from git, "published" from the public
 * repository, both gathered by the caller.
 */
export interface TaggedVersion {
  tag: string;
  version: string;
}

/** The component's release tags, newest version first; one tag per version (the most specific form). */
export function releaseTags(tags: readonly string[], artifactId: string | undefined, configuredFormat?: string): TaggedVersion[] {
  const byVersion = new Map<string, string>();
  for (const tag of tags) {
    const version = releaseTagVersion(tag, artifactId, configuredFormat);
    if (version === undefined) continue;
    const known = byVersion.get(version);
    const forms = releaseTagCandidates(artifactId, version, configuredFormat);
    if (known === undefined || forms.indexOf(tag) < forms.indexOf(known)) byVersion.set(version, tag);
  }
  return [...byVersion]
    .map(([version, tag]) => ({ tag, version }))
    .sort((a, b) => compareVersions(parseVersion(b.version)!, parseVersion(a.version)!));
}

/** The tag of `version` among `tags`, in the most specific form that exists. */
export function tagOf(tags: readonly string[], artifactId: string | undefined, version: string, configuredFormat?: string): string | undefined {
  const present = new Set(tags);
  return releaseTagCandidates(artifactId, version, configuredFormat).find((t) => present.has(t));
}

/** Release tags strictly below `version`, newest first (all of them when version is unknown). */
export function tagsBelow(list: readonly TaggedVersion[], version: string | undefined): TaggedVersion[] {
  const v = version === undefined ? undefined : parseVersion(version);
  if (v === undefined) return [...list];
  return list.filter((t) => compareVersions(parseVersion(t.version)!, v) < 0);
}

export interface RangeStart {
  /** The newest published release below the one being described; undefined: from the first commit. */
  start?: TaggedVersion;
  /** Tagged but never published versions between start and the release, oldest first. */
  skipped: string[];
}

/**
 * Walks the tags below the release, newest first: a version the public repository does not have
 * (`false`) is an orphan, skipped and named; the first one it has (`true`) is the start. An
 * unknown answer counts as published: a shorter range is safer than notes that claim an orphan.
 * When the public repository has none of them, the component was never released there (tags of
 * an earlier channel, or a first release): the newest tag is the start and nothing is called an
 * orphan (the release journal still names the versions relctl itself skipped).
 */
export function rangeStart(
  below: readonly TaggedVersion[],
  published: (version: string) => boolean | undefined,
  /** Orphans known for certain (the journal's): never a start, whatever else is known. */
  knownOrphans: ReadonlySet<string> = new Set(),
): RangeStart {
  const skipped: string[] = [];
  for (const t of below) {
    if (knownOrphans.has(t.version) || published(t.version) === false) {
      skipped.unshift(t.version);
      continue;
    }
    return { start: t, skipped };
  }
  // Never released there: the newest tag that is not a known orphan starts; those above it are named.
  const at = below.findIndex((t) => !knownOrphans.has(t.version));
  const orphans = (at < 0 ? below : below.slice(0, at)).map((t) => t.version).reverse();
  return at < 0 ? { skipped: orphans } : { start: below[at]!, skipped: orphans };
}
