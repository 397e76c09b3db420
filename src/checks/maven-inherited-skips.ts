import type { SkippedCheck } from '../core/findings.js';
import type { MavenModuleFacts } from '../build-tools/maven/facts.js';
import type { Check } from './types.js';
import { centralRulesApply } from './route.js';
import { isMaven, publishedModules } from './maven-support.js';

/**
 * The checks that stay quiet past an unresolved parent (DESIGN §4, parent-unresolved): they judge
 * values the missing parent may pass on. packaging-mismatch only where the module declares no packaging.
 */
const inheritedChecks: readonly { code: string; concerns: (m: MavenModuleFacts) => boolean }[] = [
  { code: 'missing-developers', concerns: () => true },
  { code: 'missing-distribution', concerns: () => true },
  { code: 'missing-pom-metadata', concerns: () => true },
  { code: 'unresolved-property', concerns: () => true },
  { code: 'packaging-mismatch', concerns: (m) => m.raw.packaging === undefined },
  // The missing parent's pluginManagement may version the plugins, and its repositories and
  // distribution decide what the published POM carries.
  { code: 'plugin-version-missing', concerns: () => true },
  { code: 'published-repositories', concerns: () => true },
];

/**
 * What an unresolved parent leaves unjudged, once per check and missing parent (a reactor of a
 * hundred modules under one missing parent is one line per check, not a hundred).
 */
export function skippedPastUnresolvedParents(modules: readonly MavenModuleFacts[]): SkippedCheck[] {
  const out: SkippedCheck[] = [];
  for (const { code, concerns } of inheritedChecks) {
    const byParent = new Map<string, MavenModuleFacts[]>();
    for (const m of modules) {
      if (m.parentUnresolved !== true || !concerns(m)) continue;
      const parent = m.missingParent ?? 'a parent';
      byParent.set(parent, [...(byParent.get(parent) ?? []), m]);
    }
    for (const [parent, under] of byParent) {
      const who = under.length === 1 ? 'it passes on' : `it passes on to ${under.length} modules`;
      const skipped: SkippedCheck = { check: code, why: `the parent ${parent} was not found, so the values ${who} are unknown` };
      if (under.length === 1 && under[0]!.effective.coords !== '') skipped.module = under[0]!.effective.coords;
      out.push(skipped);
    }
  }
  return out;
}

/** Reports no findings of its own (parent-unresolved is the gatherer's): it says what the others could not judge. */
export const mavenInheritedSkips: Check = {
  id: 'maven-inherited-skips',
  codes: [],
  title: 'the checks of inherited values say when a missing parent keeps them from judging',
  appliesTo: isMaven,
  run: () => [],
  skipped: (facts) => (isMaven(facts) && centralRulesApply(facts) ? skippedPastUnresolvedParents(publishedModules(facts)) : []),
};
