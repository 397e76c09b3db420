/** Helpers shared by the Gradle checks (pure). */
import type { GradleFacts, GradleProjectFacts } from '../build-tools/gradle/facts.js';
import type { ProjectFacts } from './facts.js';
import type { SkippedCheck } from '../core/findings.js';

export function isGradle(facts: ProjectFacts): boolean {
  return facts.gradle !== undefined;
}

export function gradle(facts: ProjectFacts): GradleFacts {
  return facts.gradle!;
}

export function gradleProjects(facts: ProjectFacts): readonly GradleProjectFacts[] {
  return facts.gradle?.projects ?? [];
}

// Plugins that apply the war plugin themselves: Gretty (and its old org.akhikhl id), the war
// overlay plugin the uPortal-start overlays use, bmuschko's Tomcat plugins (TomcatBasePlugin
// applies WarPlugin), and Gradle's old built-in jetty plugin.
const warApplying = new Set(['org.gretty', 'org.akhikhl.gretty', 'gretty', 'waroverlay', 'com.bmuschko.tomcat', 'com.bmuschko.tomcat-base', 'tomcat', 'jetty']);

/** Plugin ids that bring the war plugin along (it applies `war` itself). */
export function appliesWar(project: GradleProjectFacts): boolean {
  return project.plugins.some((p) => p.id === 'war' || /(^|[.-])war$/.test(p.id) || warApplying.has(p.id));
}

// Plugins that make a project publish artifacts (applied directly or through a convention).
const publishingPlugins = /^(maven-publish|maven|ivy-publish|com\.vanniktech\.maven\.publish(\.base)?|com\.gradle\.plugin-publish)$/;

/** The project visibly applies a publishing plugin. */
export function publishes(project: GradleProjectFacts): boolean {
  return project.plugins.some((p) => publishingPlugins.test(p.id));
}

/** Projects whose build script the settings point at but relctl could not find. */
export function projectsWithoutBuildFile(facts: ProjectFacts): readonly GradleProjectFacts[] {
  return gradleProjects(facts).filter((p) => p.buildFileMissing !== undefined);
}

/** One skipped entry per check and project whose build script was not found (DESIGN §3). */
export function skippedForMissingBuildFiles(check: string, facts: ProjectFacts, concerns: (p: GradleProjectFacts) => boolean = () => true): SkippedCheck[] {
  return projectsWithoutBuildFile(facts)
    .filter(concerns)
    .map((p) => ({ check, why: `no build file for ${p.path}: ${p.buildFileMissing!.why}`, module: p.path }));
}
