import type { Finding } from '../core/findings.js';
import type { RawDeveloper } from '../core/pom/index.js';
import type { Check } from './types.js';
import { centralRulesApply } from './route.js';
import { isEmptyDeveloper } from './maven-empty-entries.js';
import { at, dedupe, fromWhere, isMaven, metadataModules, originAt } from './maven-support.js';

const maxListed = 10;

function nameOf(dev: RawDeveloper): string {
  return dev.name ?? dev.id ?? dev.email ?? 'a developer';
}

export const mavenDevelopersIncomplete: Check = {
  id: 'maven-developers-incomplete',
  codes: ['developers-incomplete'],
  title: 'each developer names organization and organizationUrl',
  appliesTo: isMaven,
  run(facts) {
    if (!centralRulesApply(facts)) return [];
    const findings: Finding[] = [];
    for (const module of metadataModules(facts)) {
      const devs = module.effective.developers;
      if (devs === undefined) continue;
      const inProject = devs.origin.pom.file !== undefined;
      const incomplete = devs.value
        .map((dev) => ({ dev, lacking: (['organization', 'organizationUrl'] as const).filter((k) => dev[k] === undefined) }))
        // A developer with nothing that identifies it is developer-empty's error, not this warning.
        .filter((x) => x.lacking.length > 0 && !isEmptyDeveloper(x.dev));
      // Inside the project the developer's own line is known; outside, report at the <parent>.
      const where = (line: number) => originAt(facts, module, inProject ? { ...devs.origin, line } : devs.origin);
      const fix = 'Give each <developer> an <organization> and an <organizationUrl> (the URL of a durable committers list).';
      if (incomplete.length > maxListed) {
        // A generated or pasted list can hold thousands; one finding says it without flooding the report.
        const first = incomplete[0]!.dev;
        findings.push({
          code: 'developers-incomplete',
          severity: 'warning',
          message: `${incomplete.length} developers (${fromWhere(devs.origin, module)}) lack <organization> or <organizationUrl>, starting with ${nameOf(first)}.`,
          ...at(where(first.line)),
          fix,
        });
        continue;
      }
      for (const { dev, lacking } of incomplete) {
        findings.push({
          code: 'developers-incomplete',
          severity: 'warning',
          message: `The developer ${nameOf(dev)} (${fromWhere(devs.origin, module)}) lacks <${lacking.join('> and <')}>.`,
          ...at(where(dev.line)),
          fix,
        });
      }
    }
    return dedupe(findings);
  },
};
