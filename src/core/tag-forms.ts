import { renderTag } from './version.js';

/**
 * The forms a release tag takes (DESIGN §4): relctl's and the Maven release plugin's
 * `<artifactId>-X.Y.Z`, the common `vX.Y.Z` and `X.Y.Z`, and the build's configured format (the
 * Gradle release plugin's tagTemplate, `{artifactId}`/`{version}` or `$name`/`$version`). Most
 * specific first, no duplicates.
 */
export function releaseTagCandidates(artifactId: string | undefined, version: string, configuredFormat?: string): string[] {
  const forms = [
    ...(configuredFormat === undefined ? [] : [renderTag(configuredFormat, artifactId ?? '', version)]),
    ...(artifactId === undefined ? [] : [`${artifactId}-${version}`]),
    `v${version}`,
    version,
  ];
  return [...new Set(forms)];
}

const releaseVersion = /^(0|[1-9]\d{0,8})\.(0|[1-9]\d{0,8})\.(0|[1-9]\d{0,8})$/;

/**
 * The release version a tag names in one of {@link releaseTagCandidates}' forms, else undefined
 * (snapshot, qualifier and foreign-artifact tags are not release tags of this component).
 */
export function releaseTagVersion(tag: string, artifactId: string | undefined, configuredFormat?: string): string | undefined {
  const candidates: string[] = [];
  if (configuredFormat !== undefined) {
    const marker = '\u0000';
    const rendered = renderTag(configuredFormat, artifactId ?? '', marker);
    const at = rendered.indexOf(marker);
    if (at >= 0) {
      const prefix = rendered.slice(0, at);
      const suffix = rendered.slice(at + 1);
      if (tag.startsWith(prefix) && tag.endsWith(suffix) && tag.length > prefix.length + suffix.length) {
        candidates.push(tag.slice(prefix.length, tag.length - suffix.length));
      }
    }
  }
  if (artifactId !== undefined && tag.startsWith(`${artifactId}-`)) candidates.push(tag.slice(artifactId.length + 1));
  if (tag.startsWith('v')) candidates.push(tag.slice(1));
  candidates.push(tag);
  return candidates.find((c) => releaseVersion.test(c));
}
