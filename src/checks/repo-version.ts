import { parseVersion, planRelease } from '../core/version.js';
import type { Finding } from '../core/findings.js';
import type { ProjectFacts, ReleaseFacts } from './facts.js';
import type { Check } from './types.js';

function located(facts: ProjectFacts, release: ReleaseFacts): Pick<Finding, 'file' | 'line' | 'module'> {
  const out: Pick<Finding, 'file' | 'line' | 'module'> = {};
  if (release.versionFile !== undefined) out.file = release.versionFile;
  if (release.versionLine !== undefined) out.line = release.versionLine;
  if (facts.buildTool === 'gradle') out.module = ':';
  else if (release.groupId !== undefined && release.artifactId !== undefined) out.module = `${release.groupId}:${release.artifactId}`;
  return out;
}

/** The release starts from `X.Y.Z-SNAPSHOT` (seed part 3 and 9). */
export const repoNotSnapshot: Check = {
  id: 'repo-not-snapshot',
  codes: ['not-snapshot'],
  title: 'the current version is X.Y.Z-SNAPSHOT',
  appliesTo: (facts) => facts.release?.currentVersion !== undefined || facts.buildTool === 'gradle',
  run(facts) {
    const release = facts.release ?? {};
    const current = release.currentVersion;
    // `1.1-SNAPSHOT` is a snapshot too, though not of the X.Y.Z form the release counts from.
    if (current !== undefined && (parseVersion(current)?.snapshot === true || /^\d[\w.+-]*-SNAPSHOT$/.test(current.trim()))) return [];
    // A version computed at build time (`${revision}` passed with -D, a Gradle expression) cannot be judged here.
    if ((current !== undefined && current.includes('${')) || (current === undefined && release.versionComputed === true)) return [];
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
        fix:
          current !== undefined && parseVersion(current) !== undefined
            ? `If ${current} is already released, set the version to the next snapshot in ${where}; otherwise set it to ${current}-SNAPSHOT.`
            : `Set the version to X.Y.Z-SNAPSHOT in ${where}.`,
      },
    ];
  },
};

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
  run(facts) {
    const release = facts.release!;
    const current = parseVersion(release.currentVersion!);
    if (current === undefined || !current.snapshot || release.artifactId === undefined) return [];
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
        ? `but ${s.version} is not in the public repository`
        : `and whether ${s.version} is in the public repository could not be checked (${release.publishedUnknownReason ?? 'unknown'})`;
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
