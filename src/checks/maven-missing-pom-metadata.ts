import type { Finding } from '../core/findings.js';
import type { Sourced } from '../core/pom/index.js';
import type { Check } from './types.js';
import { centralRulesApply } from './route.js';
import { at, isBlank, isMaven, metadataModules, missingAt, ownsInheritedGaps } from './maven-support.js';

/**
 * The portal rejects a POM without name, description, url, licenses or scm/url. `name` is never
 * inherited, so every module needs its own; the others are reported once, on the topmost POM of
 * the project that lacks them.
 */
const blank = (value: Sourced<string> | undefined): boolean => isBlank(value?.value);

export const mavenMissingPomMetadata: Check = {
  id: 'maven-missing-pom-metadata',
  codes: ['missing-pom-metadata'],
  title: 'name, description, url, licenses and scm/url are present',
  appliesTo: isMaven,
  run(facts) {
    if (!centralRulesApply(facts)) return [];
    const findings: Finding[] = [];
    for (const module of metadataModules(facts)) {
      const eff = module.effective;
      const missing: string[] = [];
      if (blank(eff.name)) missing.push('<name>');
      // Past an unresolved parent only <name> (never inherited) is known to be missing.
      if (ownsInheritedGaps(facts, module) && module.parentUnresolved !== true) {
        if (blank(eff.description)) missing.push('<description>');
        if (blank(eff.url)) missing.push('<url>');
        if (eff.licenses === undefined || eff.licenses.value === 0) missing.push('<licenses>');
        if (blank(eff.scmUrl)) missing.push('<scm><url>');
      }
      if (missing.length === 0) continue;
      findings.push({
        code: 'missing-pom-metadata',
        severity: 'error',
        message: `${eff.coords} lacks ${missing.join(', ')} (not declared in ${module.file} and not inherited); the portal rejects POMs without them.`,
        ...at(missingAt(module)),
        fix: `Add ${missing.join(', ')} to ${module.file}${missing.length === 1 && missing[0] === '<name>' ? '' : ' (or to a parent POM it inherits from)'}.`,
      });
    }
    return findings;
  },
};
