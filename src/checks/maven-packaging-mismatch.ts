import type { Finding } from '../core/findings.js';
import type { Check } from './types.js';
import type { MavenModuleFacts } from '../build-tools/maven/facts.js';
import { centralRulesApply } from './route.js';
import { at, isMaven, publishedModules, missingAt } from './maven-support.js';

/**
 * A war without `src/main/webapp` is fine when the build says where its web content is, or that
 * it has none on purpose (annotation-configured servlets, Spring Boot): maven-war-plugin's
 * `warSourceDirectory` / `webResources`, or `failOnMissingWebXml` false.
 */
function webContentElsewhere(module: MavenModuleFacts): boolean {
  const eff = module.effective;
  if (eff.properties.get('failOnMissingWebXml') === 'false') return true;
  return eff.plugins.some(
    (p) => p.artifactId === 'maven-war-plugin' && p.config.some((c) => /^(warSourceDirectory|webResources|failOnMissingWebXml)$/.test(c.path)),
  );
}

/**
 * Packagings that make a plain jar: web content there is a mistake. Others have their own
 * archive that may well carry `src/main/webapp` (a Jenkins plugin's `hpi`/`jpi` holds its help
 * pages there, an `ear` or `nbm` has its own layout), and `pom` is an aggregator.
 */
const jarPackagings = new Set(['jar', 'bundle']);

/** The portal compares each module's packaging with the extension of the artifact it receives. */
export const mavenPackagingMismatch: Check = {
  id: 'maven-packaging-mismatch',
  codes: ['packaging-mismatch'],
  title: 'web modules are packaged as war, and only they',
  appliesTo: isMaven,
  run(facts) {
    if (!centralRulesApply(facts)) return [];
    const findings: Finding[] = [];
    for (const module of publishedModules(facts)) {
      const packaging = module.effective.packaging;
      const line = module.raw.packaging?.line;
      const where = line === undefined ? missingAt(module) : { ...missingAt(module), line };
      const webapp = module.dir === '' ? 'src/main/webapp' : `${module.dir}/src/main/webapp`;
      // A `pom` aggregator's webapp folder serves a dev server, it is not a web archive; past an
      // unresolved parent, an undeclared packaging is not known well enough to judge.
      if (packaging === 'pom' || (line === undefined && module.parentUnresolved === true)) continue;
      if (module.hasWebapp && jarPackagings.has(packaging)) {
        findings.push({
          code: 'packaging-mismatch',
          severity: 'error',
          message: `${module.effective.coords} has web content (${webapp}) but is packaged as ${packaging}${line === undefined ? ' (the default)' : ''}; the portal rejects a web archive declared as ${packaging}.`,
          ...at(where),
          fix: `Set <packaging>war</packaging> in ${module.file}.`,
        });
      } else if (!module.hasWebapp && packaging === 'war' && !webContentElsewhere(module)) {
        // Past an unresolved parent, that parent may well say where the web content is.
        if (module.parentUnresolved === true) continue;
        findings.push({
          code: 'packaging-mismatch',
          severity: 'error',
          message: `${module.effective.coords} is packaged as war but has no web content (${webapp} does not exist).`,
          ...at(where),
          fix: `Add the web content under ${webapp}, or set the packaging ${module.file} really produces (for example jar).`,
        });
      }
    }
    return findings;
  },
};
