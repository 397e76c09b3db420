import type { Finding } from '../core/findings.js';
import type { Check } from './types.js';
import { centralRulesApply } from './route.js';
import { at, isMaven, metadataModules, missingAt, ownsInheritedGaps } from './maven-support.js';

export const mavenMissingDevelopers: Check = {
  id: 'maven-missing-developers',
  codes: ['missing-developers'],
  title: 'every module has effective <developers>',
  appliesTo: isMaven,
  run(facts) {
    if (!centralRulesApply(facts)) return [];
    const findings: Finding[] = [];
    for (const module of metadataModules(facts)) {
      const devs = module.effective.developers;
      // Past an unresolved parent the developers may well be inherited: parent-unresolved says so.
      if ((devs !== undefined && devs.value.length > 0) || !ownsInheritedGaps(facts, module) || module.parentUnresolved === true) continue;
      const parent = module.chain[1];
      const inherited = parent === undefined ? 'and it has no parent to inherit them from' : `and its parent ${parent.id} does not provide them`;
      findings.push({
        code: 'missing-developers',
        severity: 'error',
        message: `${module.effective.coords} has no <developers>: ${module.file} declares none ${inherited}; the portal fails the deployment ("developers information is missing").`,
        ...at(missingAt(module)),
        // Advice for any project: no ecosystem's own parent is named (a fleet names its own, fixIn).
        fix: `Declare <developers><developer> with <organization> and <organizationUrl> in ${module.file}, or in a parent POM of yours that it inherits from.`,
      });
    }
    return findings;
  },
};
