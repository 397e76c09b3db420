import type { Finding } from '../core/findings.js';
import { stagingPluginDeployer } from '../core/pom/index.js';
import type { Check } from './types.js';
import { at, expectedDeployUrl, isMaven, publishedModules, missingAt, ownsInheritedGaps } from './maven-support.js';
import { activateManagedPortalPluginFirst, ignoresDistribution } from './route.js';

export const mavenMissingDistribution: Check = {
  id: 'maven-missing-distribution',
  codes: ['missing-distribution'],
  title: 'a release repository is declared',
  appliesTo: isMaven,
  run(facts) {
    const findings: Finding[] = [];
    // A Central Portal plugin uploads without distributionManagement; `other` is not judged.
    if (ignoresDistribution(facts)) return [];
    const expected = expectedDeployUrl(facts.maven!.stagingApiUrl);
    for (const module of publishedModules(facts)) {
      if (module.effective.repository !== undefined || !ownsInheritedGaps(facts, module) || module.parentUnresolved === true) continue;
      // nexus-staging-maven-plugin deploys releases itself: the release repository is not used.
      if (stagingPluginDeployer(module.effective) !== undefined) continue;
      findings.push({
        code: 'missing-distribution',
        severity: 'error',
        message: `${module.file} declares no release repository and inherits none, so Maven has nowhere to deploy ${module.effective.coords}.`,
        ...at(missingAt(module)),
        fix: activateManagedPortalPluginFirst(facts, `Add <distributionManagement><repository><id>central</id><url>${expected}</url></repository></distributionManagement> to the top-level pom.xml.`),
      });
    }
    return findings;
  },
};
