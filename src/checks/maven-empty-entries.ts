import type { Finding } from '../core/findings.js';
import type { RawDeveloper } from '../core/pom/index.js';
import type { Check } from './types.js';
import { centralRulesApply } from './route.js';
import { at, dedupe, fromWhere, isBlank, isMaven, metadataModules, originAt } from './maven-support.js';

/**
 * A `<developer>` or `<license>` that is there but says nothing: the element satisfies "has
 * developers/licenses" while naming no one and no license. PomChecker (JReleaser's Maven Central
 * rules) rejects a developer with none of id, name, organization, organizationUrl and a license
 * with neither name nor url; whitespace-only values count as absent (the model trims them away).
 */
export function isEmptyDeveloper(dev: RawDeveloper): boolean {
  return isBlank(dev.id) && isBlank(dev.name) && isBlank(dev.organization) && isBlank(dev.organizationUrl);
}

export const mavenEmptyEntries: Check = {
  id: 'maven-empty-entries',
  codes: ['developer-empty', 'license-empty'],
  title: 'every <developer> and <license> names something',
  appliesTo: isMaven,
  run(facts) {
    if (!centralRulesApply(facts)) return [];
    const findings: Finding[] = [];
    for (const module of metadataModules(facts)) {
      // Past an unresolved parent too: the nearest <developers>/<licenses> found is final.
      const eff = module.effective;
      const devs = eff.developers;
      if (devs !== undefined) {
        // Inside the project the entry's own line is known; outside, report at the <parent>.
        const inProject = devs.origin.pom.file !== undefined;
        devs.value.forEach((dev, index) => {
          if (!isEmptyDeveloper(dev)) return;
          const origin = inProject ? { ...devs.origin, line: dev.line } : devs.origin;
          findings.push({
            code: 'developer-empty',
            severity: 'error',
            message: `The ${ordinal(index)} <developer> of ${eff.coords} (${fromWhere(origin, module)}) has none of <id>, <name>, <organization>, <organizationUrl>${dev.email === undefined ? '' : ` (only <email> ${dev.email})`}; Maven Central's POM rules reject a developer that names no one.`,
            ...at(originAt(facts, module, origin)),
            fix: 'Give the <developer> a <name> (or <id>), and an <organization> with <organizationUrl>; or remove the empty entry.',
          });
        });
      }
      const licenses = eff.licenses;
      if (licenses !== undefined) {
        const inProject = licenses.origin.pom.file !== undefined;
        eff.licenseEntries.forEach((license, index) => {
          if (!isBlank(license.name) || !isBlank(license.url)) return;
          const origin = inProject ? { ...licenses.origin, line: license.line } : licenses.origin;
          findings.push({
            code: 'license-empty',
            severity: 'error',
            message: `The ${ordinal(index)} <license> of ${eff.coords} (${fromWhere(origin, module)}) has neither <name> nor <url>; Maven Central's POM rules reject a license that names none.`,
            ...at(originAt(facts, module, origin)),
            fix: 'Give the <license> its <name> and <url> (for example Apache-2.0 and https://www.apache.org/licenses/LICENSE-2.0.txt), or remove the empty entry.',
          });
        });
      }
    }
    return dedupe(findings);
  },
};

function ordinal(index: number): string {
  const n = index + 1;
  const suffix = n % 100 >= 11 && n % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}
