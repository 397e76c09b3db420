import type { Finding } from '../core/findings.js';
import type { Origin, Sourced } from '../core/pom/index.js';
import type { Check } from './types.js';
import { namespaceRootOf } from '../core/namespace.js';
import { centralRulesApply } from './route.js';
import { at, dedupe, isMaven, metadataModules, originAt } from './maven-support.js';

/**
 * A module that takes its url, scm or developers from a parent of another organisation (a
 * spring-boot-starter-parent child) publishes that organisation's values as its own: the portal
 * accepts them, users are sent to the wrong project. "Another organisation" is a groupId in
 * another namespace (its reverse domain: `org.apache.maven` and `org.apache.commons` are one,
 * `io.github.alice` and `io.github.bob` two), so an organisation's shared parent is not foreign.
 * The ecosystem parent provides `<developers>` to its projects on purpose (seed: from version 44).
 */
const ecosystemParents = new Set(['org.jasig.parent:jasig-parent']);

export function namespaceOf(groupId: string): string {
  return namespaceRootOf(groupId.toLowerCase());
}

const groupOf = (id: string): string => id.split(':')[0] ?? '';
const gaOf = (id: string): string => id.split(':').slice(0, 2).join(':');

export const mavenForeignParent: Check = {
  id: 'maven-foreign-parent',
  codes: ['metadata-from-foreign-parent'],
  title: 'url, scm and developers are not inherited from another organisation\'s parent',
  appliesTo: isMaven,
  run(facts) {
    if (!centralRulesApply(facts)) return [];
    const findings: Finding[] = [];
    const modules = metadataModules(facts);
    const topGroup = facts.maven?.modules.find((m) => m.topLevel)?.effective.groupId;
    for (const module of modules) {
      // Past an unresolved parent as well: a value found came from a nearer POM, so it is final.
      const eff = module.effective;
      const own = new Set([eff.groupId, topGroup].filter((g): g is string => g !== undefined && g !== '' && !g.includes('${')).map(namespaceOf));
      if (own.size === 0) continue;
      const foreign = (origin: Origin): boolean => {
        if (origin.pom.file !== undefined) return false;
        const group = groupOf(origin.pom.id);
        return group !== '?' && group !== '' && !own.has(namespaceOf(group)) && !ecosystemParents.has(gaOf(origin.pom.id));
      };
      const parts: { what: string; value: string; origin: Origin }[] = [];
      const value = (s: Sourced<string> | undefined, what: string): void => {
        if (s !== undefined && s.inherited && foreign(s.origin)) parts.push({ what, value: s.value, origin: s.origin });
      };
      value(eff.url, '<url>');
      value(eff.scmUrl, '<scm><url>');
      const devs = eff.developers;
      if (devs !== undefined && devs.inherited && devs.value.length > 0 && foreign(devs.origin)) {
        const names = devs.value.map((d) => d.name ?? d.id ?? d.organization ?? d.email ?? '?');
        const shown = names.length > 3 ? `${names.slice(0, 3).join(', ')} and ${names.length - 3} more` : names.join(', ');
        parts.push({ what: '<developers>', value: shown, origin: devs.origin });
      }
      if (parts.length === 0) continue;
      const parent = module.chain.find((c) => c.file === undefined)?.id;
      const described = parts.map((p) => `${p.what} ${p.value}${p.origin.pom.id === parent ? '' : ` (declared in ${p.origin.pom.id})`}`).join('; ');
      findings.push({
        code: 'metadata-from-foreign-parent',
        severity: 'warning',
        message: `${eff.coords} inherits from the parent ${parent ?? parts[0]!.origin.pom.id}, outside its own groupId, and would publish that project's values as its own: ${described}.`,
        ...at(originAt(facts, module, parts[0]!.origin)),
        fix: `Declare the project's own ${parts.map((p) => p.what).join(', ')} in ${module.exit?.file ?? module.file} (a declaration there shadows the inherited one).`,
      });
    }
    return dedupe(findings);
  },
};
