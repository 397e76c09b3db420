/** Maven facts for preflight (reactor, effective models, settings). Filled in by the Maven model work. */
export interface MavenFacts {
  /** Placeholder until the Maven model lands. */
  modules: unknown[];
}
