import type { Finding } from '../core/findings.js';
import type { Check } from './types.js';
import { at, dedupe, fromWhere, isMaven, mavenModules, originAt } from './maven-support.js';

export const mavenDevelopersIncomplete: Check = {
  id: 'maven-developers-incomplete',
  codes: ['developers-incomplete'],
  title: 'each developer names organization and organizationUrl',
  appliesTo: isMaven,
  run(facts) {
    const findings: Finding[] = [];
    for (const module of mavenModules(facts)) {
      const devs = module.effective.developers;
      if (devs === undefined) continue;
      const inProject = devs.origin.pom.file !== undefined;
      for (const dev of devs.value) {
        const lacking = (['organization', 'organizationUrl'] as const).filter((k) => dev[k] === undefined);
        if (lacking.length === 0) continue;
        const who = dev.name ?? dev.id ?? dev.email ?? 'a developer';
        // Inside the project the developer's own line is known; outside, report at the <parent>.
        const where = originAt(facts, module, inProject ? { ...devs.origin, line: dev.line } : devs.origin);
        findings.push({
          code: 'developers-incomplete',
          severity: 'warning',
          message: `The developer ${who} (${fromWhere(devs.origin, module)}) lacks <${lacking.join('> and <')}>.`,
          ...at(where),
          fix: 'Give each <developer> an <organization> and an <organizationUrl> (the URL of a durable committers list).',
        });
      }
    }
    return dedupe(findings);
  },
};
