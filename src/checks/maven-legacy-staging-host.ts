import type { Finding } from '../core/findings.js';
import type { Check } from './types.js';
import { activateManagedPortalPluginFirst, routeKind } from './route.js';
import { stagingPluginDeployer } from '../core/pom/index.js';
import { at, CENTRAL_SNAPSHOTS_URL, dedupe, expectedDeployUrl, fromWhere, isMaven, legacyHostOf, publishedModules, originAt } from './maven-support.js';

/**
 * Effective distribution URLs that name the retired OSSRH host. Effective values already apply
 * shadowing: a repository the top-level POM redeclares never reaches here. A snapshot repository
 * only counts when it comes from the same `<distributionManagement>` block that is in force (the
 * release procedure treats that block as shadowing everything inherited).
 */
export const mavenLegacyStagingHost: Check = {
  id: 'maven-legacy-staging-host',
  codes: ['legacy-staging-host'],
  title: 'distribution URLs do not name the retired OSSRH host',
  appliesTo: isMaven,
  run(facts) {
    const findings: Finding[] = [];
    const expected = expectedDeployUrl(facts.maven!.stagingApiUrl);
    // A Central Portal plugin does not upload to distributionManagement: only plugin settings count then.
    const distributionUsed = routeKind(facts) !== 'portal-plugin';
    for (const module of publishedModules(facts)) {
      const eff = module.effective;
      for (const p of eff.plugins) {
        if (p.artifactId !== 'nexus-staging-maven-plugin') continue;
        const url = p.config.find((c) => c.path === 'nexusUrl');
        const host = url === undefined ? undefined : legacyHostOf(url.value);
        if (url === undefined || host === undefined) continue;
        const origin = { pom: p.origin.pom, line: p.origin.pom.file === undefined ? p.origin.line : url.line };
        findings.push({
          code: 'legacy-staging-host',
          severity: 'error',
          message: `nexus-staging-maven-plugin's <nexusUrl> ${url.value} (${fromWhere(origin, module)}) names the retired OSSRH host ${host}; uploads there are refused since June 2025.`,
          ...at(originAt(facts, module, origin)),
          fix: activateManagedPortalPluginFirst(facts, `Set <nexusUrl> to ${facts.maven!.stagingApiUrl}/ (the staging API service), or replace the plugin with central-publishing-maven-plugin.`),
        });
      }
      if (!distributionUsed) continue;
      const candidates = [
        { kind: 'release repository', url: eff.repository?.url, target: expected },
        { kind: 'snapshot repository', url: eff.snapshotRepository?.url, target: CENTRAL_SNAPSHOTS_URL },
      ];
      // Where nexus-staging-maven-plugin deploys, the release repository is not used (snapshots still are).
      const releaseUnused = stagingPluginDeployer(eff) !== undefined;
      for (const { kind, url, target } of candidates) {
        if (url === undefined || (kind === 'release repository' && releaseUnused)) continue;
        if (kind === 'snapshot repository' && eff.distributionOrigin !== undefined && url.origin.pom !== eff.distributionOrigin.pom) continue;
        const host = legacyHostOf(url.value);
        if (host === undefined) continue;
        findings.push({
          code: 'legacy-staging-host',
          severity: 'error',
          message: `The ${kind} URL ${url.value} (${fromWhere(url.origin, module)}) names the retired OSSRH host ${host}; uploads there are refused since June 2025.`,
          ...at(originAt(facts, module, url.origin)),
          // Written in the project: change it where it is; inherited from outside: shadow it at the top.
          fix: activateManagedPortalPluginFirst(
            facts,
            url.origin.pom.file !== undefined
              ? `Set the ${kind} <url> in ${url.origin.pom.file} to ${target}.`
              : `Declare <distributionManagement> in the top-level pom.xml with the ${kind} URL ${target} (it shadows inherited values).`,
          ),
        });
      }
    }
    return dedupe(findings);
  },
};
