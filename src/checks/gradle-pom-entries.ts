import type { Finding } from '../core/findings.js';
import { isEmptyPomEntry } from '../core/gradle/pom-entries.js';
import type { GradlePomEntryFact } from '../build-tools/gradle/facts.js';
import type { Check } from './types.js';
import { centralRulesApply } from './route.js';
import { gradleProjects, isGradle, skippedForMissingBuildFiles } from './gradle-support.js';

/**
 * The Gradle side of `developer-empty` / `license-empty` (maven-empty-entries.ts is the Maven
 * side): a `developer { }` or `license { }` in a publication's `pom { }` that sets nothing that
 * names someone or something still becomes a `<developer/>` / `<license/>` in the published POM,
 * which Maven Central's POM rules reject. Only literal blanks are judged; a computed value counts
 * as set (its value is not known before Gradle runs).
 */
export const gradleEmptyPomEntries: Check = {
  id: 'gradle-empty-pom-entries',
  codes: ['developer-empty', 'license-empty'],
  title: 'every Gradle POM developer { } and license { } names something',
  appliesTo: isGradle,
  // A project whose script was not found may declare POM entries relctl never saw.
  skipped: (facts) => (centralRulesApply(facts) ? ['developer-empty', 'license-empty'].flatMap((code) => skippedForMissingBuildFiles(code, facts)) : []),
  run(facts) {
    if (!centralRulesApply(facts)) return [];
    const findings: Finding[] = [];
    for (const project of gradleProjects(facts)) {
      for (const entry of project.pomEntries ?? []) {
        if (!isEmptyPomEntry(entry)) continue;
        findings.push(entry.kind === 'developer' ? developerFinding(entry, project.path) : licenseFinding(entry, project.path));
      }
    }
    return findings;
  },
};

/** The file and line are the finding's own; the message names the project and a root block it is written in. */
function where(entry: GradlePomEntryFact, module: string): string {
  return entry.scopeBlock === undefined ? `of project ${module}` : `of project ${module} (written in ${entry.scopeBlock} { }, so every project it configures publishes it)`;
}

function blanks(entry: GradlePomEntryFact): string {
  return entry.blank.length === 0 ? '' : `; ${entry.blank.join(', ')} ${entry.blank.length === 1 ? 'is' : 'are'} set to an empty value`;
}

function developerFinding(entry: GradlePomEntryFact, module: string): Finding {
  const email = entry.email === undefined ? '' : ` (only email ${entry.email})`;
  return {
    code: 'developer-empty',
    severity: 'error',
    message: `The POM developer { } block ${where(entry, module)} sets none of id, name, organization, organizationUrl${email}${blanks(entry)}; Maven Central's POM rules reject a developer that names no one.`,
    file: entry.file,
    line: entry.line,
    module,
    fix: `Set name (or id) in that developer { } block, e.g. ${kotlin(entry) ? 'name.set("Jane Doe")' : "name = 'Jane Doe'"}, and organization with organizationUrl; or remove the empty block.`,
  };
}

function licenseFinding(entry: GradlePomEntryFact, module: string): Finding {
  return {
    code: 'license-empty',
    severity: 'error',
    message: `The POM license { } block ${where(entry, module)} sets neither name nor url${blanks(entry)}; Maven Central's POM rules reject a license that names none.`,
    file: entry.file,
    line: entry.line,
    module,
    fix: `Set the license's name and url in that block, e.g. ${kotlin(entry) ? 'name.set("Apache-2.0") and url.set("https://www.apache.org/licenses/LICENSE-2.0.txt")' : "name = 'Apache-2.0' and url = 'https://www.apache.org/licenses/LICENSE-2.0.txt'"}; or remove the empty block.`,
  };
}

function kotlin(entry: GradlePomEntryFact): boolean {
  return entry.file.endsWith('.kts') || entry.file.endsWith('.kt');
}
