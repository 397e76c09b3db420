/** Gradle facts for preflight. Filled in by the Gradle model work. */
export interface GradleFacts {
  projects: unknown[];
}
