import type { Check } from './types.js';
import type { GradleProjectFacts } from '../build-tools/gradle/facts.js';
import { centralRulesApply } from './route.js';
import { appliesWar, gradle, gradleProjects, isGradle, publishes, skippedForMissingBuildFiles } from './gradle-support.js';

/** A project with web content (src/main/webapp) publishes a jar unless the war plugin is applied. */
export const gradlePackagingMismatch: Check = {
  id: 'gradle-packaging-mismatch',
  codes: ['packaging-mismatch'],
  title: 'Gradle web projects apply the war plugin',
  appliesTo: isGradle,
  // Web content with no script to read: whether it applies the war plugin is unknown.
  skipped: (facts) => (centralRulesApply(facts) ? skippedForMissingBuildFiles('packaging-mismatch', facts, (p) => p.hasWebapp) : []),
  run(facts) {
    if (!centralRulesApply(facts)) return [];
    const settingsFile = gradle(facts).settingsFile;
    // When the build shows which projects publish, a sample or runnable application with web
    // content that publishes nothing is not a web archive anyone releases: not judged.
    const someVisiblyPublish = gradleProjects(facts).some(publishes);
    const unpublishedSample = (p: GradleProjectFacts): boolean =>
      someVisiblyPublish && !publishes(p) && (/(^|[:/-])(samples?|examples?|demos?)([:/-]|$)/i.test(p.path) || p.plugins.some((pl) => /^(application|org\.springframework\.boot)$/.test(pl.id)));
    return gradleProjects(facts)
      .filter((p) => p.hasWebapp && !appliesWar(p) && !unpublishedSample(p))
      .map((p) => {
        const own = p.plugins.find((pl) => pl.scope === 'self');
        const location =
          p.buildFile !== undefined
            ? { file: p.buildFile, line: own?.line ?? 1 }
            : settingsFile !== undefined && p.settingsLine !== undefined
              ? { file: settingsFile, line: p.settingsLine }
              : {};
        return {
          code: 'packaging-mismatch',
          severity: 'error' as const,
          message: `Project ${p.path} has web content (${p.dir === '.' ? '' : `${p.dir}/`}src/main/webapp) but does not apply the war plugin, so it would publish a jar without it.`,
          ...location,
          module: p.path,
          fix: `Apply the war plugin in ${p.buildFile ?? `${p.dir === '.' ? '' : `${p.dir}/`}build.gradle`}: plugins { id 'war' } (Kotlin DSL: plugins { war }).`,
        };
      });
  },
};
