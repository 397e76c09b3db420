import type { Finding } from '../core/findings.js';
import type { Check } from './types.js';
import { pointsAtStagingService } from './publishing-hosts.js';
import { expectedDeployUrl, legacyHostOf } from './maven-support.js';
import { gradle, gradleProjects, isGradle, skippedForMissingBuildFiles } from './gradle-support.js';
import type { GradleRepositoryFact } from '../build-tools/gradle/facts.js';
import { ignoresDistribution } from './route.js';
import { vanniktechFix } from './vanniktech-advice.js';

/** Where the URL comes from, when that is not simply the reported line. */
function where(r: GradleRepositoryFact): string {
  if (r.implicit === true && r.nexusStaging === true) return " (the io.codearte.nexus-staging plugin's default serverUrl)";
  if (r.implicit === true) return " (the nexus publish plugin's default for sonatype())";
  return r.via === undefined ? '' : ` (via ${r.via})`;
}

function fixFor(r: GradleRepositoryFact, staging: string): string {
  if (r.property !== undefined) {
    const target = r.kind === 'snapshot' ? 'https://central.sonatype.com/repository/maven-snapshots/' : r.nexus === true ? `${staging.replace(/\/+$/, '')}/service/local/` : expectedDeployUrl(staging);
    return `Set ${r.property}=${target} in gradle.properties (the build then uses it instead of the written default), or change that default.`;
  }
  if (r.nexusStaging === true) {
    return `Set serverUrl to ${staging.replace(/\/+$/, '')}/service/local/ in nexusStaging { ... }, or move to the gradle-nexus publish plugin.`;
  }
  if (r.jreleaserNexus2 === true) {
    return `Point the JReleaser nexus2 deployer's url at ${staging.replace(/\/+$/, '')}/service/local (snapshots: https://central.sonatype.com/repository/maven-snapshots/), or deploy with its mavenCentral deployer.`;
  }
  if (r.nexus === true) {
    // Both URLs of the block: the plugin's default snapshotRepositoryUrl is a retired host too.
    return r.kind === 'snapshot'
      ? 'Set snapshotRepositoryUrl to https://central.sonatype.com/repository/maven-snapshots/ in nexusPublishing { repositories { sonatype { ... } } }.'
      : `Set nexusUrl to ${staging.replace(/\/+$/, '')}/service/local/ and snapshotRepositoryUrl to https://central.sonatype.com/repository/maven-snapshots/ in nexusPublishing { repositories { sonatype { ... } } }.`;
  }
  return r.kind === 'snapshot'
    ? 'Point the snapshot repository at https://central.sonatype.com/repository/maven-snapshots/ (or drop it).'
    : `Set the release repository url to ${expectedDeployUrl(staging)}.`;
}

/** Publishing repository URLs that name the retired OSSRH host (release and snapshot alike). */
export const gradleLegacyStagingHost: Check = {
  id: 'gradle-legacy-staging-host',
  codes: ['legacy-staging-host'],
  title: 'Gradle publishing repositories do not name the retired OSSRH host',
  appliesTo: isGradle,
  skipped: (facts) => skippedForMissingBuildFiles('legacy-staging-host', facts),
  run(facts) {
    const staging = gradle(facts).stagingApiUrl;
    const findings: Finding[] = [];
    // A script applied by several projects declares its URL once: report it once.
    const seen = new Set<string>();
    for (const project of gradleProjects(facts)) {
      for (const r of project.repositories) {
        const host = legacyHostOf(r.url);
        if (host === undefined || seen.has(`${r.file}:${r.line}:${r.url}`)) continue;
        seen.add(`${r.file}:${r.line}:${r.url}`);
        findings.push({
          code: 'legacy-staging-host',
          severity: 'error',
          message: `The ${r.kind} repository URL ${r.url}${where(r)} names the retired OSSRH host ${host}; uploads there are refused since June 2025.`,
          file: r.file,
          line: r.line,
          module: project.path,
          fix: fixFor(r, staging),
        });
      }
    }
    // No URL written, but the plugin's default or host setting is a retired host (vanniktech before 0.33.0).
    for (const e of facts.route?.legacyPluginHosts ?? []) {
      findings.push({
        code: 'legacy-staging-host',
        severity: 'error',
        message: `${e.why}; uploads to the retired OSSRH hosts are refused since June 2025.`,
        file: e.file,
        line: e.line,
        module: ':',
        fix: vanniktechFix(gradle(facts)),
      });
    }
    return findings;
  },
};

/**
 * Release repository URLs that do not point at the staging API service. A build may publish to
 * several repositories (GitHub Packages next to Central): once one release repository points
 * at the staging service, the others are extra targets, not mistakes.
 */
export const gradleDistributionUrl: Check = {
  id: 'gradle-distribution-url',
  codes: ['distribution-url'],
  title: 'a Gradle release repository points at the staging API service',
  appliesTo: isGradle,
  skipped: (facts) => (ignoresDistribution(facts) ? [] : skippedForMissingBuildFiles('distribution-url', facts)),
  run(facts) {
    // A Central Portal plugin uploads without a publishing repository; `other` is not judged.
    if (ignoresDistribution(facts)) return [];
    const staging = gradle(facts).stagingApiUrl;
    const release = gradleProjects(facts).flatMap((p) =>
      p.repositories.filter((r) => r.kind === 'release' && !/^file:/i.test(r.url)).map((r) => ({ project: p, r })),
    );
    if (release.some(({ r }) => pointsAtStagingService(r.url, staging))) return [];
    const seen = new Set<string>();
    return release
      .filter(({ r }) => legacyHostOf(r.url) === undefined) // reported by legacy-staging-host
      .filter(({ r }) => !seen.has(`${r.file}:${r.line}:${r.url}`) && seen.add(`${r.file}:${r.line}:${r.url}`) !== undefined)
      .map(({ project, r }) => ({
        code: 'distribution-url',
        severity: 'error' as const,
        message: `The release repository URL ${r.url}${where(r)} does not point at the staging API service ${staging}.`,
        file: r.file,
        line: r.line,
        module: project.path,
        fix: fixFor(r, staging),
      }));
  },
};
