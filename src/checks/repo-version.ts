import { existingTag } from '../core/tag-forms.js';
import { formatVersion, nextDevelopmentVersion, parseVersion, planRelease } from '../core/version.js';
import type { Finding } from '../core/findings.js';
import type { ProjectFacts, ReleaseFacts } from './facts.js';
import type { Check } from './types.js';
import { routeKind } from './route.js';

function located(facts: ProjectFacts, release: ReleaseFacts): Pick<Finding, 'file' | 'line' | 'module'> {
  const out: Pick<Finding, 'file' | 'line' | 'module'> = {};
  if (release.versionFile !== undefined) out.file = release.versionFile;
  if (release.versionLine !== undefined) out.line = release.versionLine;
  if (facts.buildTool === 'gradle') out.module = ':';
  else if (release.groupId !== undefined && release.artifactId !== undefined) out.module = `${release.groupId}:${release.artifactId}`;
  return out;
}

/** Why the version checks cannot judge the version, when it is only known at build time. */
function versionUnknown(release: ReleaseFacts): string | undefined {
  const current = release.currentVersion?.trim();
  if (current !== undefined && current.includes('${')) {
    return `the version ${current} is only known at build time: a property set on the command line or by the CI job`;
  }
  if (current === undefined && release.versionComputed === true) return `version computed by ${release.versionComputedBy ?? 'the build at build time'}`;
  return undefined;
}

/** The release starts from `X.Y.Z-SNAPSHOT` (seed part 3 and 9). */
export const repoNotSnapshot: Check = {
  id: 'repo-not-snapshot',
  codes: ['not-snapshot'],
  title: 'the current version is X.Y.Z-SNAPSHOT',
  appliesTo: (facts) => facts.release?.currentVersion !== undefined || facts.buildTool === 'gradle',
  skipped(facts) {
    const why = facts.release === undefined ? undefined : versionUnknown(facts.release);
    return why === undefined ? [] : [{ check: 'not-snapshot', why }];
  },
  run(facts) {
    const release = facts.release ?? {};
    const current = release.currentVersion;
    // Any version ending in -SNAPSHOT is one, whatever its shape: 4.13-SNAPSHOT, 1.7.22-8-SNAPSHOT, HEAD-jre-SNAPSHOT.
    if (current !== undefined && current.trim().endsWith('-SNAPSHOT')) return [];
    // A version computed at build time (`${revision}` passed with -D, a Gradle expression) cannot be judged here.
    if ((current !== undefined && current.includes('${')) || (current === undefined && release.versionComputed === true)) return [];
    // A Gradle build with no version and no sign of publishing anywhere (a deployment skeleton such as
    // uPortal-start, an application) releases nothing: there is no version to judge.
    if (current === undefined && facts.buildTool === 'gradle' && routeKind(facts) === 'unknown') return [];
    const where = facts.buildTool === 'gradle' ? 'gradle.properties (version=X.Y.Z-SNAPSHOT)' : 'the top-level pom.xml <version>';
    return [
      {
        code: 'not-snapshot',
        severity: 'error',
        message:
          current === undefined
            ? 'The build declares no version (neither gradle.properties nor the root build script sets one); the release cannot compute the release version.'
            : `The current version is ${current}, not X.Y.Z-SNAPSHOT; the release computes the release and next development versions from a snapshot.`,
        ...located(facts, release),
        // Any version shape (4.12, 1.0, 2.0.0.Final) names its own snapshot; only a missing version needs the template.
        fix: notSnapshotFix(current, release, facts.git?.tags ?? [], where),
      },
    ];
  },
};

/** A release version's tag (in any form, or the format learned from the tags) shows it was released. */
function notSnapshotFix(current: string | undefined, release: ReleaseFacts, tags: readonly string[], where: string): string {
  if (current === undefined || current.trim() === '') return `Set the version to X.Y.Z-SNAPSHOT in ${where}.`;
  const parsed = parseVersion(current);
  const tag = parsed === undefined || release.artifactId === undefined ? undefined : existingTag(new Set(tags), release.artifactId, formatVersion(parsed), release.tagTemplate);
  if (tag !== undefined && parsed !== undefined && !parsed.snapshot) {
    return `${current} is tagged ${tag}, so it was released: set the version to ${formatVersion(nextDevelopmentVersion(parsed))} in ${where}.`;
  }
  return `If ${current} is already released, set the version to the next snapshot in ${where}; otherwise set it to ${current}-SNAPSHOT.`;
}

/**
 * The orphan-tag rule (seed part 3.2): the tag of the version about to be released exists but
 * that version never reached the public repository. The release moves on to the next version;
 * when publication could not be checked (--offline), the warning says so.
 */
export const repoOrphanTag: Check = {
  id: 'repo-orphan-tag',
  codes: ['orphan-tag'],
  title: 'the release tag does not already exist for an unpublished version',
  appliesTo: (facts) => facts.git?.isRepository === true && facts.release?.currentVersion !== undefined,
  skipped(facts) {
    // Outside a git repository the gatherer already says why (no tags to look at).
    const release = facts.release;
    if (facts.git?.isRepository !== true || release === undefined) return [];
    const unknown = versionUnknown(release);
    if (unknown !== undefined) return [{ check: 'orphan-tag', why: unknown }];
    if (release.tagTemplateUnknown === true) return [{ check: 'orphan-tag', why: `the tag format ${release.tagTemplate ?? '?'} has placeholders relctl cannot fill, so the release tag is unknown` }];
    return [];
  },
  run(facts) {
    const release = facts.release!;
    const current = parseVersion(release.currentVersion!);
    if (release.artifactId === undefined) return [];
    if (current === undefined) return unplannedOrphan(facts, release, release.artifactId);
    if (!current.snapshot) return [];
    const published: Record<string, boolean> = { ...release.publishedVersions };
    const plan = planRelease({
      current,
      artifactId: release.artifactId,
      ...(release.tagTemplate === undefined ? {} : { tagTemplate: release.tagTemplate }),
      existingTags: facts.git!.tags,
      published,
    });
    return plan.skipped.map((s) => {
      const confirmed = s.published === false;
      const why = confirmed
        ? `but ${s.version} is not published (${release.publishedSources?.[s.version] ?? 'public repository'})`
        : `and whether ${s.version} is published could not be checked (${release.publishedUnknownReason ?? 'unknown'})`;
      return {
        code: 'orphan-tag',
        severity: 'warning' as const,
        message: `The release tag ${s.tag} already exists ${why}: ${s.version} was prepared but ${confirmed ? 'never' : 'maybe never'} published. The release will skip it and release ${plan.release} (tag ${plan.tag}).`,
        ...located(facts, release),
        fix: confirmed
          ? `Keep the tag; say in the release notes of ${plan.release} that ${s.version} was prepared but not published.`
          : `Run preflight without --offline to check; if ${s.version} was never published, keep the tag and say in the release notes of ${plan.release} that ${s.version} was prepared but not published.`,
      };
    });
  },
};

/**
 * A snapshot of a shape the release plan does not compute (`4.13-SNAPSHOT`, `1.7.22-8-SNAPSHOT`):
 * its release tag can still exist without the version being published; say so, and leave the
 * next version to the maintainer.
 */
function unplannedOrphan(facts: ProjectFacts, release: ReleaseFacts, artifactId: string): Finding[] {
  const current = release.currentVersion!.trim();
  if (!current.endsWith('-SNAPSHOT') || current.includes('${')) return [];
  const version = current.slice(0, -'-SNAPSHOT'.length);
  const tag = existingTag(new Set(facts.git!.tags), artifactId, version, release.tagTemplate);
  if (tag === undefined || release.publishedVersions?.[version] === true) return [];
  const confirmed = release.publishedVersions?.[version] === false;
  const why = confirmed
    ? `but ${version} is not published (${release.publishedSources?.[version] ?? 'public repository'})`
    : `and whether ${version} is published could not be checked (${release.publishedUnknownReason ?? 'unknown'})`;
  return [
    {
      code: 'orphan-tag',
      severity: 'warning',
      message: `The release tag ${tag} already exists ${why}: ${version} was prepared but ${confirmed ? 'never' : 'maybe never'} published.`,
      ...located(facts, release),
      fix: `Set the version to the next snapshot by hand (the release cannot compute it from ${current}), keep the tag, and say in the next release notes that ${version} was prepared but not published.`,
    },
  ];
}
