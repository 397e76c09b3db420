import type { Finding } from '../core/findings.js';
import type { EffectivePlugin } from '../core/pom/index.js';
import type { Check } from './types.js';
import { at, dedupe, isMaven, mavenModules, originAt } from './maven-support.js';

/**
 * Maven's model builder warns "'build.plugins.plugin.version' for G:A is missing" when no POM of a
 * module's lineage gives a build plugin a version, neither where it is declared nor in a
 * `<pluginManagement>` (DefaultModelBuilder.checkPluginVersions). The lineage ends in the super
 * POM, whose pluginManagement versions only these four; the default lifecycle's bindings
 * (compiler, surefire, jar, ...) do not count, which is why Maven warns about a bare
 * maven-compiler-plugin too. The build then uses whatever version the running Maven picks.
 */
const superPomManaged = new Set([
  'org.apache.maven.plugins:maven-antrun-plugin',
  'org.apache.maven.plugins:maven-assembly-plugin',
  'org.apache.maven.plugins:maven-dependency-plugin',
  'org.apache.maven.plugins:maven-release-plugin',
]);

const keyOf = (p: EffectivePlugin): string => `${p.groupId}:${p.artifactId}`;

/**
 * True when some declaration in force gives `p` a version. A profile's plugin also takes one from
 * its own profile; any pluginManagement counts (a profile's too: generous rather than a false alarm).
 */
function versioned(p: EffectivePlugin, plugins: readonly EffectivePlugin[]): boolean {
  const key = keyOf(p);
  if (superPomManaged.has(key)) return true;
  for (const q of plugins) {
    if (q.version === undefined || q.artifactId !== p.artifactId || keyOf(q) !== key) continue;
    if (q.managed || q.profile === undefined || q.profile === p.profile) return true;
  }
  return false;
}

export const mavenPluginVersionMissing: Check = {
  id: 'maven-plugin-version-missing',
  codes: ['plugin-version-missing'],
  title: 'every build plugin has a version (declared or managed)',
  appliesTo: isMaven,
  run(facts) {
    const findings: Finding[] = [];
    for (const module of mavenModules(facts)) {
      // Past an unresolved parent, that parent's pluginManagement may well hold the version.
      if (module.parentUnresolved === true) continue;
      const plugins = module.effective.plugins;
      for (const p of plugins) {
        // Reported where it is declared, in a POM of the project (one outside cannot be edited here).
        if (p.managed || p.version !== undefined || p.origin.pom.file === undefined) continue;
        if (versioned(p, plugins)) continue;
        const key = keyOf(p);
        const inProfile = p.profile === undefined ? '' : ` in the profile ${p.profile} (Maven warns when it is active)`;
        findings.push({
          code: 'plugin-version-missing',
          severity: 'warning',
          message: `'build.plugins.plugin.version' for ${key} is missing: ${p.origin.pom.file} declares the plugin${inProfile} without a <version>, and no <pluginManagement> of it or its parents gives one, so each Maven release may build it with a different plugin version.`,
          ...at(originAt(facts, module, p.origin)),
          fix: `Add <version> to ${key} here, or manage its version once in the top-level POM's <build><pluginManagement>.`,
        });
      }
    }
    return dedupe(findings);
  },
};
