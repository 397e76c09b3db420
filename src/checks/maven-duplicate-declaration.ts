import type { Finding } from '../core/findings.js';
import type { Check } from './types.js';
import { isMaven, mavenModules } from './maven-support.js';

/**
 * Maven's model validator warns ("must be unique but found duplicate declaration of plugin …",
 * "'dependencies.dependency.(groupId:artifactId:type:classifier)' must be unique") when one
 * section of a POM declares the same plugin or dependency twice: the second silently wins or is
 * merged, and stricter validation levels refuse the POM. Each section is its own scope, as in
 * Maven: the same dependency in `<dependencies>` and `<dependencyManagement>`, or the same plugin
 * in `<plugins>` and `<pluginManagement>`, is the ordinary way to write a POM, not a duplicate.
 * Every module of the reactor counts, published or not: Maven warns for all of them.
 */
export const mavenDuplicateDeclaration: Check = {
  id: 'maven-duplicate-declaration',
  codes: ['duplicate-declaration'],
  title: 'no plugin or dependency is declared twice in one POM section',
  appliesTo: isMaven,
  run(facts) {
    const findings: Finding[] = [];
    for (const module of mavenModules(facts)) {
      // In file order (plugins and dependencies are read section by section).
      for (const d of [...module.raw.duplicates].sort((a, b) => a.line - b.line)) {
        const what = d.kind === 'plugin' ? `the plugin ${d.key}` : `the dependency ${d.key}`;
        findings.push({
          code: 'duplicate-declaration',
          severity: 'warning',
          message: `${module.file} declares ${what} twice in ${d.section} (first at line ${d.firstLine}); Maven warns about it (${d.kind === 'plugin' ? 'it merges the two, so which settings win is easy to misread' : 'one declaration overrides the other'}) and may refuse it in future versions.`,
          file: module.file,
          line: d.line,
          module: module.effective.coords,
          fix: `Merge the two declarations of ${d.key} (lines ${d.firstLine} and ${d.line}) into one.`,
        });
      }
    }
    return findings;
  },
};
