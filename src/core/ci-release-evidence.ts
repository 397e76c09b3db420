/**
 * Whether a CI script makes releases or only deploys what it checks out. `mvn deploy` deploys the
 * version the POM has: on a branch holding `X-SNAPSHOT` that is a snapshot, unless something in
 * the script changes the version (the release plugin, `versions:set`, a CI-friendly
 * `-Drevision=`), turns on a release profile, or runs on a tag or a release event (a release
 * tag's commit holds the release version). inspektr's and person-directory's workflows, say,
 * run `mvn deploy --settings .github/workflows/settings.xml` on every push to master: snapshots
 * only, their releases being made from a maintainer's machine. Pure.
 */

// Each names one kind of evidence that the script makes a release (comment lines are left out).
const releaseSigns: readonly RegExp[] = [
  // maven-release-plugin goals, and relctl's or JReleaser's own release
  /\brelease:(?:prepare|perform|stage)\b/,
  /\brelctl\s+(?:release|run)\b/,
  /\bjreleaser\b/i,
  // a version set for the build
  /\bversions:set\b/,
  /-D(?:newVersion|revision|changelist|releaseVersion)=/,
  // a release profile (-P release, -Prelease, -Psonatype-oss-release) or the release plugin's property
  /(?:^|\s)-P\s*['"]?[\w.,!-]*release/i,
  /-DperformRelease=true/,
  // tag and release triggers: GitHub Actions, CircleCI filters, GitLab, Travis, Jenkins
  /^\s*-?\s*tags\s*:/m,
  /^\s*release\s*:/m,
  /refs\/tags\//,
  /ref_type\s*==\s*['"]tag['"]/,
  /\bCI_COMMIT_TAG\b/,
  /^\s*-\s*tags\s*$/m,
  /\bTRAVIS_TAG\b/,
  /\bbuildingTag\s*\(|\bTAG_NAME\b/,
];

/** True when the script shows any sign of making a release (see above). */
export function makesRelease(script: string): boolean {
  const text = script
    .split(/\r?\n/)
    .filter((l) => !/^\s*#/.test(l))
    .join('\n');
  return releaseSigns.some((sign) => sign.test(text));
}

/**
 * The environment variables a CI script sets for its steps: a workflow's `env:` keys
 * (`SONATYPE_USER: ${{ secrets.SONATYPE_USER }}`) and shell `export NAME=` lines. Upper-case
 * names only, as CI variables are written.
 */
export function exportedVariables(script: string): string[] {
  const names = new Set<string>();
  for (const m of script.matchAll(/^\s*(?:export\s+)?([A-Z_][A-Z0-9_]*)\s*[:=]/gm)) names.add(m[1]!);
  return [...names];
}
