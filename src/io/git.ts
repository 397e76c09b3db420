/** Git facts for preflight. Filled in by the repository checks work. */
export interface GitFacts {
  isRepository: boolean;
}
