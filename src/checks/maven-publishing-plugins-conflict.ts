import type { Finding } from '../core/findings.js';
import { takesOverDeploy, type EffectivePlugin } from '../core/pom/index.js';
import type { Check } from './types.js';
import { at, dedupe, fromWhere, isMaven, publishedModules, originAt } from './maven-support.js';

/**
 * Two publishing plugins that each take over `deploy` in one module (nexus-staging-maven-plugin
 * and central-publishing-maven-plugin, both as build extensions or with bound goals): both upload,
 * so one release becomes two deployments, or the second fails on "already exists". Declarations
 * in two different profiles are alternatives, not a conflict.
 */
export const mavenPublishingPluginsConflict: Check = {
  id: 'maven-publishing-plugins-conflict',
  codes: ['publishing-plugins-conflict'],
  title: 'one publishing plugin takes over deploy',
  appliesTo: isMaven,
  run(facts) {
    const findings: Finding[] = [];
    for (const module of publishedModules(facts)) {
      const portal = module.effective.plugins.filter((p) => p.artifactId === 'central-publishing-maven-plugin' && !p.managed && (p.extensions || p.executes === true));
      const nexus = module.effective.plugins.filter(takesOverDeploy);
      for (const n of nexus) {
        const c = portal.find((p) => together(p, n));
        if (c === undefined) continue;
        const nOrigin = { pom: n.origin.pom, line: n.origin.line };
        const cOrigin = { pom: c.origin.pom, line: c.origin.line };
        findings.push({
          code: 'publishing-plugins-conflict',
          severity: 'error',
          message: `nexus-staging-maven-plugin (${fromWhere(nOrigin, module)}${profileOf(n)}) and central-publishing-maven-plugin (${fromWhere(cOrigin, module)}${profileOf(c)}) both take over deploy in ${module.effective.coords}: each would upload the release.`,
          ...at(originAt(facts, module, nOrigin)),
          fix: 'Keep one publishing plugin: remove the other, or move each into its own profile.',
        });
      }
    }
    return dedupe(findings);
  },
};

function together(a: EffectivePlugin, b: EffectivePlugin): boolean {
  return a.profile === undefined || b.profile === undefined || a.profile === b.profile;
}

function profileOf(p: EffectivePlugin): string {
  return p.profile === undefined ? '' : `, profile ${p.profile}`;
}
