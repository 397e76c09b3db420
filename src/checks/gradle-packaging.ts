import type { Check } from './types.js';
import { centralRulesApply } from './route.js';
import { appliesWar, gradle, gradleProjects, isGradle } from './gradle-support.js';

/** A project with web content (src/main/webapp) publishes a jar unless the war plugin is applied. */
export const gradlePackagingMismatch: Check = {
  id: 'gradle-packaging-mismatch',
  codes: ['packaging-mismatch'],
  title: 'Gradle web projects apply the war plugin',
  appliesTo: isGradle,
  run(facts) {
    if (!centralRulesApply(facts)) return [];
    const settingsFile = gradle(facts).settingsFile;
    return gradleProjects(facts)
      .filter((p) => p.hasWebapp && !appliesWar(p))
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
