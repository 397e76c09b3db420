import type { Finding } from '../core/findings.js';
import { stagingPluginDeployer } from '../core/pom/index.js';
import type { Check } from './types.js';
import { ignoresDistribution } from './route.js';
import { at, dedupe, fromWhere, isMaven, publishedModules, originAt } from './maven-support.js';

const legacyIds = new Set(['sonatype-nexus-staging', 'ossrh']);

export const mavenLegacyStagingId: Check = {
  id: 'maven-legacy-staging-id',
  codes: ['legacy-staging-id'],
  title: 'the distribution repository id is not a legacy OSSRH id',
  appliesTo: isMaven,
  run(facts) {
    if (ignoresDistribution(facts)) return [];
    const findings: Finding[] = [];
    for (const module of publishedModules(facts)) {
      const id = module.effective.repository?.id;
      if (id === undefined || !legacyIds.has(id.value)) continue;
      // nexus-staging-maven-plugin deploys releases itself: the release repository is not used.
      if (stagingPluginDeployer(module.effective) !== undefined) continue;
      findings.push({
        code: 'legacy-staging-id',
        severity: 'warning',
        message: `The distribution repository id "${id.value}" (${fromWhere(id.origin, module)}) is a legacy OSSRH id.`,
        ...at(originAt(facts, module, id.origin)),
        fix: `Use the id "central" in the top-level <distributionManagement> and in settings.xml <server>, or keep a <server> with id "${id.value}" in settings.xml while the POM still inherits it.`,
      });
    }
    return dedupe(findings);
  },
};
