import { StepFailedError, UsageError } from '../core/errors.js';
import { planChosenRelease, type ChosenVersions } from '../core/chosen-versions.js';
import { compareVersions, formatVersion, parseVersion, releaseVersionOf, type Version } from '../core/version.js';
import { versionInTag } from '../core/tag-forms.js';
import { withLearnedTagFormat } from './learned-tag-format.js';
import { isReleasePublished, sourceOf as publishedSourceOf } from '../io/published.js';
import type { CommandContext } from '../io/command-context.js';
import { listTags } from '../io/git.js';
import type { ProjectIdentity } from '../io/project.js';

export interface VersionDecision {
  version: string;
  nextVersion: string;
  tag: string;
  /** Orphans: tagged but never published, oldest first (the release notes must name them). */
  skippedVersions: string[];
  /** No earlier release tag of this artifactId exists: Maven runs the three goals separately. */
  firstRelease: boolean;
}

/** Is the version published? The portal when a token is at hand, else the public repository (io/published.ts). */
export function isPublished(ctx: CommandContext, id: ProjectIdentity, version: string): Promise<boolean> {
  return isReleasePublished(ctx, { groupId: id.groupId, artifactId: id.artifactId, version });
}

/** `(portal)` or `(public repository)`: which service said the version is published. */
export function sourceOf(ctx: { id: ProjectIdentity }, version: string): string {
  return publishedSourceOf({ groupId: ctx.id.groupId, artifactId: ctx.id.artifactId, version });
}

/** Release versions named by tags of any form (`demo-1.2.3`, `v1.2.3`, `1.2.3`, the configured one). */
function tagVersions(tags: readonly string[], artifactId: string, tagTemplate?: string): Version[] {
  const seen = new Set<string>();
  const out: Version[] = [];
  for (const t of tags) {
    const text = versionInTag(t, artifactId, tagTemplate);
    const v = text === undefined ? undefined : parseVersion(text);
    if (v === undefined || v.snapshot || seen.has(text!)) continue;
    seen.add(text!);
    out.push(v);
  }
  return out;
}

/**
 * The version rule (seed part 3.2, DESIGN §6): release X.Y.Z from X.Y.Z-SNAPSHOT; if that tag
 * exists but the version never reached the public repository, release the next one and record
 * the orphan; if the tag exists and the version IS published, stop before anything changes.
 * A tag left by an earlier attempt below the current version (the plugin had already advanced
 * the POM) counts as skipped too when it is not published.
 * `--release-version X` counts from X instead of the snapshot (the same rule: X tagged but never
 * published releases X's next patch); `--next-version Y` replaces the development version.
 */
export async function decideVersion(ctx: CommandContext, project: ProjectIdentity, chosen: ChosenVersions = {}): Promise<VersionDecision> {
  const current = parseVersion(project.version);
  if (current === undefined || !current.snapshot) {
    throw new UsageError(`The current version ${project.version} is not X.Y.Z-SNAPSHOT.`, {
      kind: 'not-snapshot',
      fix: 'Set the version in the build files to the next X.Y.Z-SNAPSHOT and commit it.',
    });
  }
  const tags = await listTags(ctx.cwd, { env: ctx.env });
  const id = withLearnedTagFormat(ctx, project, tags);
  const released = tagVersions(tags, id.artifactId, id.tagTemplate);
  const candidate = chosen.release === undefined ? releaseVersionOf(current) : parseVersion(chosen.release)!;
  const published = new Map<string, boolean>();
  for (const v of released.filter((r) => compareVersions(r, candidate) >= 0).sort(compareVersions)) {
    const text = formatVersion(v);
    const p = await isPublished(ctx, id, text);
    published.set(text, p);
    if (!p) continue;
    break;
  }
  const plan = planChosenRelease({ current, artifactId: id.artifactId, ...(id.tagTemplate === undefined ? {} : { tagTemplate: id.tagTemplate }), existingTags: tags, published }, chosen);
  if (plan.alreadyReleased !== undefined && chosen.release !== undefined) {
    throw new UsageError(`--release-version ${chosen.release}: the tag ${plan.alreadyReleased.tag} exists and ${plan.alreadyReleased.version} is already published ${sourceOf({ id }, plan.alreadyReleased.version)}.`, {
      kind: 'already-released',
      fix: `Name a version that was never released (above ${plan.alreadyReleased.version}), or drop --release-version.`,
      data: { tag: plan.alreadyReleased.tag },
    });
  }
  if (plan.nextTooLow === true) {
    throw new UsageError(`--next-version ${chosen.next} is not above ${plan.release}, the version this release makes${plan.skipped.length === 0 ? '' : ` (${plan.skipped.map((s) => s.version).join(', ')} tagged but never published: the orphan-tag rule releases the next one)`}.`, {
      kind: 'bad-version-option',
      fix: `Name a snapshot above ${plan.release} with --next-version, or drop it.`,
    });
  }
  if (plan.alreadyReleased !== undefined) {
    throw new StepFailedError(`The tag ${plan.alreadyReleased.tag} exists and ${plan.alreadyReleased.version} is already published ${sourceOf({ id }, plan.alreadyReleased.version)}.`, {
      kind: 'already-released',
      fix: `Set the version to ${plan.nextDevelopment} (the release after ${plan.alreadyReleased.version}), commit, and run the release again.`,
      data: { tag: plan.alreadyReleased.tag },
    });
  }
  const skipped = plan.skipped.map((s) => s.version);
  // Tags below the candidate: the newest ones that never reached the public repository.
  const below = released.filter((r) => compareVersions(r, candidate) < 0).sort((a, b) => compareVersions(b, a));
  const earlier: string[] = [];
  for (const v of below.slice(0, 3)) {
    const text = formatVersion(v);
    if (await isPublished(ctx, id, text)) break;
    earlier.unshift(text);
  }
  return {
    version: plan.release,
    nextVersion: plan.nextDevelopment,
    tag: plan.tag,
    skippedVersions: [...earlier, ...skipped],
    firstRelease: released.length === 0,
  };
}

