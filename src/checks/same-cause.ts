/**
 * One finding per cause. After `preflight --fix` added a `<server>` whose credentials are
 * `${env.NAME}` references, an environment without those variables is one cause that two checks
 * see: server-id-mismatch (Maven would send no credentials) and missing-credentials (relctl finds
 * no token, as it reads the same `<server>`). The first one says which variables to set; the second
 * only repeats the error. Pure.
 */
import type { Finding } from '../core/findings.js';
import type { ProjectFacts } from './facts.js';

export function oneFindingPerCause(findings: readonly Finding[], facts: ProjectFacts): Finding[] {
  const servers = facts.maven?.settings.servers ?? [];
  const unsetVariables = findings.some(
    (f) => f.code === 'server-id-mismatch' && f.subject !== undefined && servers.some((s) => s.id === f.subject && s.unsetEnv.length > 0),
  );
  return unsetVariables ? findings.filter((f) => f.code !== 'missing-credentials') : [...findings];
}
