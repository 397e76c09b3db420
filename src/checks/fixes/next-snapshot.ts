/**
 * `not-snapshot` after a release and `orphan-tag` (DESIGN §4, Fixes): the version moves on to the
 * next snapshot, as the release itself would compute it (core/version.ts), in every place the
 * build declares it (Maven: the whole reactor, as `mvn versions:set`; Gradle: where it is written).
 * Not while the release is under way (its tag at HEAD, no commit after it) unless `--bump-released`.
 */
import { existingTag } from '../../core/tag-forms.js';
import { formatVersion, nextDevelopmentVersion, parseVersion, planRelease, releaseVersionOf } from '../../core/version.js';
import type { FixPlan } from '../../core/fix/types.js';
import type { ProjectFacts } from '../facts.js';
import type { FixContext, FixRule } from './types.js';
import { declined } from './edits.js';
import { mavenVersionEdits } from './maven-version-edits.js';
import { gradleVersionEdits } from './gradle-version-edits.js';

export type NextVersion = { version: string; from: string } | { why: string };

/**
 * The snapshot the version moves to. `not-snapshot`: only after a release, which its tag shows
 * (without one, whether X.Y.Z was released, and so whether X.Y.Z-SNAPSHOT or the next one is
 * right, is a person's call). `orphan-tag`: the snapshot of the version the release would make
 * now, past every orphan (`2.4.0` tagged, never published → `2.4.1-SNAPSHOT`).
 */
export function nextSnapshot(facts: ProjectFacts, code: 'not-snapshot' | 'orphan-tag', options: { bumpReleased?: boolean } = {}): NextVersion {
  const release = facts.release ?? {};
  const text = release.currentVersion?.trim();
  if (text === undefined || text === '') return { why: 'the build declares no version: write X.Y.Z-SNAPSHOT where the build reads it' };
  const current = parseVersion(text);
  if (current === undefined) return { why: `${text} is not a version relctl counts (X.Y.Z with an optional qualifier): set the next snapshot by hand` };
  const tags = facts.git?.tags ?? [];
  const template = release.tagTemplate;
  if (code === 'not-snapshot') {
    if (current.snapshot) return { why: `${text} is already a snapshot` };
    const tag = release.artifactId === undefined ? undefined : existingTag(new Set(tags), release.artifactId, formatVersion(current), template);
    if (tag === undefined) {
      return {
        why: `${text} has no release tag, so whether it was released is not known: set ${formatVersion({ ...current, snapshot: true })} if it was not, ${formatVersion(nextDevelopmentVersion(current))} if it was`,
      };
    }
    const next = formatVersion(nextDevelopmentVersion(releaseVersionOf(current)));
    // The release commit is HEAD itself (tagged, no development commit after it): the release under
    // way has not reached its deploy or its next-snapshot commit, and bumping now would skip it.
    if (facts.git?.headTags?.includes(tag) === true && options.bumpReleased !== true) {
      return {
        why: `${text} is tagged ${tag} at HEAD and no development commit follows it, so its release is not finished: finish it first (relctl release --resume, or the project's own deploy of ${tag}), or run relctl preflight --fix --bump-released to move to ${next} anyway`,
      };
    }
    return { version: next, from: text };
  }
  if (!current.snapshot || release.artifactId === undefined) return { why: `the release does not plan from ${text}: set the next snapshot by hand` };
  const plan = planRelease({
    current,
    artifactId: release.artifactId,
    ...(template === undefined ? {} : { tagTemplate: template }),
    existingTags: tags,
    published: { ...release.publishedVersions },
  });
  if (plan.skipped.length === 0) return { why: 'no orphan tag to move past' };
  const next = parseVersion(plan.release)!;
  return { version: formatVersion({ ...next, snapshot: true }), from: text };
}

function planFor(ctx: FixContext, code: 'not-snapshot' | 'orphan-tag'): FixPlan {
  const finding = ctx.findings.find((f) => f.code === code)!;
  const next = nextSnapshot(ctx.facts, code, { bumpReleased: ctx.options.bumpReleased === true });
  if ('why' in next) return { edits: [], declined: [declined(code, next.why, finding)] };
  if (ctx.facts.maven !== undefined) return mavenVersionEdits(ctx, code, next);
  if (ctx.facts.gradle !== undefined) return gradleVersionEdits(ctx, code, next);
  return { edits: [], declined: [declined(code, 'not a Maven or Gradle build', finding)] };
}

/** Moves the version to the next snapshot after a release or past an orphan tag. */
export const nextSnapshotFix: FixRule = {
  codes: ['not-snapshot', 'orphan-tag'],
  plan(ctx) {
    const out: FixPlan = { edits: [], declined: [] };
    // One plan per code, however many orphans one chain holds; the two codes never meet (a snapshot or not).
    for (const code of ['not-snapshot', 'orphan-tag'] as const) {
      if (!ctx.findings.some((f) => f.code === code)) continue;
      const p = planFor(ctx, code);
      out.edits.push(...p.edits);
      out.declined.push(...p.declined);
    }
    return out;
  },
};
