import type { Finding } from '../core/findings.js';
import { hasUnresolved, stagingPluginDeployer } from '../core/pom/index.js';
import type { Check } from './types.js';
import { at, dedupe, expectedDeployUrl, fromWhere, isMaven, legacyHostOf, publishedModules, originAt } from './maven-support.js';
import { activateManagedPortalPluginFirst, ignoresDistribution } from './route.js';
import { pointsAtStagingService, urlTarget } from './publishing-hosts.js';
import type { EffectivePlugin } from '../core/pom/index.js';
import type { MavenModuleFacts } from '../build-tools/maven/facts.js';
import type { ProjectFacts } from './facts.js';

export const mavenDistributionUrl: Check = {
  id: 'maven-distribution-url',
  codes: ['distribution-url'],
  title: 'the release repository URL points at the staging API service',
  appliesTo: isMaven,
  run(facts) {
    if (ignoresDistribution(facts)) return [];
    const findings: Finding[] = [];
    const staging = facts.maven!.stagingApiUrl;
    const expected = expectedDeployUrl(staging);
    for (const module of publishedModules(facts)) {
      // nexus-staging-maven-plugin deploys releases itself: the release repository is not used,
      // its <nexusUrl> is what must name the staging API host.
      const deployer = stagingPluginDeployer(module.effective);
      if (deployer !== undefined) {
        const wrong = nexusUrlFinding(facts, module, deployer);
        if (wrong !== undefined) findings.push(wrong);
        continue;
      }
      const repo = module.effective.repository;
      if (repo === undefined) continue; // missing-distribution
      const url = repo.url;
      if (url === undefined) {
        const id = repo.id!;
        findings.push({
          code: 'distribution-url',
          severity: 'error',
          message: `The release repository "${id.value}" (${fromWhere(id.origin, module)}) has no <url>.`,
          ...at(originAt(facts, module, id.origin)),
          fix: activateManagedPortalPluginFirst(facts, `Add <url>${expected}</url> to that <repository>.`),
        });
        continue;
      }
      // A retired host is reported by legacy-staging-host, with the same fix.
      if (legacyHostOf(url.value) !== undefined || pointsAtStagingService(url.value, staging)) continue;
      // A `${...}` left in the URL is unresolved-property's (or, past an unresolved parent, unknown).
      if (hasUnresolved(url.value)) continue;
      const why = `does not point at the staging API service ${staging}`;
      findings.push({
        code: 'distribution-url',
        severity: 'error',
        message: `The release repository URL ${url.value} (${fromWhere(url.origin, module)}) ${why}.`,
        ...at(originAt(facts, module, url.origin)),
        fix: activateManagedPortalPluginFirst(facts, `Set the release repository <url> to ${expected}.`),
      });
    }
    return dedupe(findings);
  },
};

/**
 * The nexus-staging route's URL rule: the plugin's `<nexusUrl>` is the staging API host (the plugin
 * adds `/service/local/...` itself). A retired host is legacy-staging-host's, a `${...}` is
 * unresolved-property's, a non-Central Nexus is the `other` route's.
 */
function nexusUrlFinding(facts: ProjectFacts, module: MavenModuleFacts, plugin: EffectivePlugin): Finding | undefined {
  const staging = facts.maven!.stagingApiUrl;
  const url = plugin.config.find((c) => c.path === 'nexusUrl');
  const pluginOrigin = { pom: plugin.origin.pom, line: plugin.origin.line };
  if (url === undefined) {
    return {
      code: 'distribution-url',
      severity: 'error',
      message: `nexus-staging-maven-plugin deploys ${module.effective.coords} (${fromWhere(pluginOrigin, module)}) but has no <nexusUrl>, so the deploy fails.`,
      ...at(originAt(facts, module, pluginOrigin)),
      fix: activateManagedPortalPluginFirst(facts, `Add <nexusUrl>${staging}/</nexusUrl> to the plugin's <configuration>.`),
    };
  }
  if (hasUnresolved(url.value) || legacyHostOf(url.value) !== undefined) return undefined;
  const target = urlTarget(url.value, staging);
  if (target === 'staging' || target === 'other') return undefined;
  const origin = url.from ?? { pom: plugin.origin.pom, line: url.line };
  return {
    code: 'distribution-url',
    severity: 'error',
    message: `nexus-staging-maven-plugin's <nexusUrl> ${url.value} (${fromWhere(origin, module)}) is not the staging API service ${staging}.`,
    ...at(originAt(facts, module, origin)),
    fix: activateManagedPortalPluginFirst(facts, `Set <nexusUrl> to ${staging}/.`),
  };
}
