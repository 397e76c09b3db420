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

/** Plugin ids that bring the war plugin along (it applies `war` itself). */
export function appliesWar(project: GradleProjectFacts): boolean {
  return project.plugins.some((p) => p.id === 'war' || /(^|[.-])war$/.test(p.id) || p.id === 'org.gretty');
}

// Plugins that make a project publish artifacts (applied directly or through a convention).
const publishingPlugins = /^(maven-publish|maven|ivy-publish|com\.vanniktech\.maven\.publish(\.base)?|com\.gradle\.plugin-publish)$/;

/** The project visibly applies a publishing plugin. */
export function publishes(project: GradleProjectFacts): boolean {
  return project.plugins.some((p) => publishingPlugins.test(p.id));
}
