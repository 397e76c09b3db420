/**
 * Every finding code belongs to exactly one group (DESIGN §4), so CI can select what it checks:
 * `relctl preflight --skip credentials signing` on pull requests (no secrets there), everything
 * in the release job. Pure; the one table of groups.
 */
import { UsageError } from './errors.js';

export const findingGroups = ['descriptors', 'credentials', 'signing', 'repository', 'online'] as const;
export type FindingGroup = (typeof findingGroups)[number];

const table: Record<FindingGroup, readonly string[]> = {
  descriptors: [
    'xml-malformed', 'module-missing', 'parent-unresolved', 'unresolved-property', 'legacy-staging-host', 'legacy-staging-id',
    'distribution-url', 'missing-distribution', 'missing-developers', 'developers-incomplete', 'missing-pom-metadata',
    'packaging-mismatch', 'developer-empty', 'license-empty', 'published-repositories', 'duplicate-declaration', 'plugin-version-missing',
    'metadata-from-foreign-parent', 'publishing-plugins-conflict', 'snapshots-need-enabling',
    // verify's rules about what the build produced
    'missing-checksum', 'bad-checksum', 'missing-sources', 'missing-javadoc', 'snapshot-version', 'dependency-version-missing',
  ],
  credentials: ['server-id-mismatch', 'gradle-properties-missing'],
  signing: ['signing-keyring-missing', 'missing-signature', 'invalid-signature', 'key-format-unsupported'],
  repository: ['dirty-worktree', 'detached-head', 'not-snapshot', 'orphan-tag', 'prerelease-notice-missing', 'prerelease-notice-too-recent'],
  online: [
    'missing-credentials', 'token-rejected', 'namespace-blocked', 'key-not-published', 'key-only-secondary', 'key-unconfirmed',
    'key-expired', 'key-expiring', 'key-mismatch', 'key-not-on-primary', 'already-published', 'portal-validation',
    // notes' tracker check
    'tracker-unresolved', 'tracker-unknown', 'tracker-unreachable',
  ],
};

const groupByCode = new Map<string, FindingGroup>();
for (const group of findingGroups) for (const code of table[group]) groupByCode.set(code, group);

/** The group of a finding code; undefined for a code relctl does not know (a bug: see the unit test). */
export function groupOf(code: string): FindingGroup | undefined {
  return groupByCode.get(code);
}

export function codesOf(group: FindingGroup): readonly string[] {
  return table[group];
}

/** Validates `--skip`/`--only` values: a usage error (exit 2) names the unknown group. */
export function parseGroups(values: readonly string[], flag: string): FindingGroup[] {
  const out: FindingGroup[] = [];
  for (const raw of values.flatMap((v) => v.split(','))) {
    const name = raw.trim();
    if (name === '') continue;
    if (!(findingGroups as readonly string[]).includes(name)) {
      throw new UsageError(`Unknown group "${name}" for ${flag}.`, { kind: 'bad-group', fix: `Use one or more of: ${findingGroups.join(', ')}.` });
    }
    out.push(name as FindingGroup);
  }
  return out;
}

/** Which groups a run checks, from `--skip` and `--only` (both together is a usage error). */
export function selectedGroups(skip: readonly string[] | undefined, only: readonly string[] | undefined): Set<FindingGroup> {
  if (skip !== undefined && only !== undefined && skip.length > 0 && only.length > 0) {
    throw new UsageError('--skip and --only cannot be used together.', { kind: 'bad-group', fix: 'Use --skip GROUP... to leave groups out, or --only GROUP... to check just those.' });
  }
  if (only !== undefined && only.length > 0) return new Set(parseGroups(only, '--only'));
  const skipped = new Set(parseGroups(skip ?? [], '--skip'));
  return new Set(findingGroups.filter((g) => !skipped.has(g)));
}

/** Every finding code relctl knows, in table order: what `rules` in relctl.config.json may name. */
export const allFindingCodes: readonly string[] = findingGroups.flatMap((g) => table[g]);
