/** Helpers shared by the Gradle checks (pure). */
import type { GradleFacts, GradleProjectFacts } from '../build-tools/gradle/facts.js';
import type { ProjectFacts } from './facts.js';

export function isGradle(facts: ProjectFacts): boolean {
  return facts.gradle !== undefined;
}

export function gradle(facts: ProjectFacts): GradleFacts {
  return facts.gradle!;
}

export function gradleProjects(facts: ProjectFacts): readonly GradleProjectFacts[] {
  return facts.gradle?.projects ?? [];
}

// Third-party plugins that apply the war plugin themselves: Gretty, and the war overlay plugin
// (org.scaldingspoon.gradle:gradle-waroverlay-plugin) the uPortal-start overlays use.
const warApplying = new Set(['org.gretty', 'waroverlay']);

/** Plugin ids that bring the war plugin along (it applies `war` itself). */
export function appliesWar(project: GradleProjectFacts): boolean {
  return project.plugins.some((p) => p.id === 'war' || /(^|[.-])war$/.test(p.id) || warApplying.has(p.id));
}
