import { compareVersions, formatVersion, parseVersion, type Version } from '../version.js';

/**
 * Release tags in the forms DESIGN §4 names (`<artifactId>-X.Y.Z`, `vX.Y.Z`, `X.Y.Z`), newest
 * first. Pure: the post-release commands default their `--release-version` from it.
 */
export function releaseTagVersions(tags: readonly string[], artifactId: string | undefined): { tag: string; version: string }[] {
  const found: { tag: string; v: Version }[] = [];
  for (const tag of tags) {
    const bare = artifactId !== undefined && tag.startsWith(`${artifactId}-`) ? tag.slice(artifactId.length + 1) : tag.replace(/^v(?=\d)/, '');
    const v = parseVersion(bare);
    if (v !== undefined && !v.snapshot) found.push({ tag, v });
  }
  return found.sort((a, b) => compareVersions(b.v, a.v)).map(({ tag, v }) => ({ tag, version: formatVersion(v) }));
}

/** The release before `version` among the tags, if any. */
export function previousRelease(tags: readonly string[], artifactId: string | undefined, version: string): { tag: string; version: string } | undefined {
  const v = parseVersion(version);
  if (v === undefined) return undefined;
  return releaseTagVersions(tags, artifactId).find((t) => compareVersions(parseVersion(t.version)!, v) < 0);
}
