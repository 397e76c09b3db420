import type { Finding } from '../core/findings.js';
import type { DeclaredRepository } from '../core/pom/index.js';
import type { Check } from './types.js';
import { centralRulesApply } from './route.js';
import { isMaven, legacyHostOf, publishedModules } from './maven-support.js';

/**
 * `<repositories>`/`<pluginRepositories>` are published with the POM: every consumer's build then
 * asks that host for this artifact's dependencies (Central's guide asks for POMs without them;
 * PomChecker warns). Maven deploys the POM as written, so only a module's own declarations count:
 * a parent's are published, and reported, with the parent. A profile is only active for consumers
 * when it is `activeByDefault`; one switched on with `-P` stays in the build that asked for it.
 * A retired OSSRH host there is reported on any route (it serves no one any more); the general
 * rule is Central's, so it waits for the parent that decides where the POM is published.
 */
function hostOf(url: string | undefined): string {
  if (url === undefined) return 'no <url>';
  try {
    return new URL(url).host || url;
  } catch {
    return url;
  }
}

/** Central itself, declared again: consumers ask it anyway. */
const centralHosts = new Set(['repo.maven.apache.org', 'repo1.maven.org', 'central.maven.org']);

function label(r: DeclaredRepository): string {
  const what = r.kind === 'repository' ? '<repository>' : '<pluginRepository>';
  return `${what}${r.id === undefined ? '' : ` ${r.id}`}${r.profile === undefined ? '' : ` (profile ${r.profile}, active by default)`}`;
}

export const mavenPublishedRepositories: Check = {
  id: 'maven-published-repositories',
  codes: ['published-repositories', 'legacy-staging-host'],
  title: 'published POMs declare no <repositories> or <pluginRepositories>',
  appliesTo: isMaven,
  run(facts) {
    const central = centralRulesApply(facts);
    const findings: Finding[] = [];
    for (const module of publishedModules(facts)) {
      // Past an unresolved parent the publishing route is not known (a Jenkins plugin's parent sends
      // it to repo.jenkins-ci.org, whose repositories its users need).
      const general = central && module.parentUnresolved !== true;
      for (const r of module.raw.repositories) {
        if (r.profile !== undefined && r.activeByDefault !== true) continue;
        if (r.url !== undefined && centralHosts.has(hostOf(r.url).toLowerCase())) continue;
        const where = { file: module.file, line: r.line, module: module.effective.coords };
        const legacy = r.url === undefined ? undefined : legacyHostOf(r.url);
        const asks = r.snapshotsOnly === true ? 'for SNAPSHOT dependencies' : 'for dependencies';
        if (legacy !== undefined) {
          // It does not route the upload (distributionManagement does), so not the error of a
          // distribution URL: but every consumer resolving this POM asks a host that is gone.
          findings.push({
            code: 'legacy-staging-host',
            severity: 'warning',
            message: `${module.file} publishes the ${label(r)} at ${r.url}, on the retired OSSRH host ${legacy}; it does not route the upload, but every build that depends on ${module.effective.coords} would ask that host ${asks}.`,
            ...where,
            fix: `Remove the ${r.kind === 'repository' ? '<repository>' : '<pluginRepository>'} from ${module.file} (snapshots of Central live at https://central.sonatype.com/repository/maven-snapshots/; keep such a repository in ~/.m2/settings.xml or a profile you activate with -P).`,
          });
          continue;
        }
        if (!general) continue;
        findings.push({
          code: 'published-repositories',
          severity: 'warning',
          message: `${module.file} publishes the ${label(r)} (${hostOf(r.url)}) with ${module.effective.coords}: every build that depends on it would also ask ${hostOf(r.url)} ${asks}, while what Central hosts should resolve from Central alone.`,
          ...where,
          fix: `Move the ${r.kind === 'repository' ? '<repository>' : '<pluginRepository>'} to ~/.m2/settings.xml or to a profile activated with -P, or remove it if its artifacts are on Central.`,
        });
      }
    }
    return findings;
  },
};
