import { UsageError } from '../core/errors.js';
import { deploymentIdProblem, formatRepositoryKey, groupIdProblem, isMaskedUser, maskedUser, parseRepositoryKey, type RepositoryKey } from '../core/identifiers.js';

export { apiUrl, type PathValue } from '../core/url-builder.js';

/** A repository key from the user (or a server's answer), checked; exit 2 naming the shape. */
export function repositoryKeyOf(input: string, label = '--repository-key'): RepositoryKey {
  const parsed = parseRepositoryKey(input);
  if (!parsed.ok) {
    throw new UsageError(`${label} ${JSON.stringify(input)} is not a staging repository key: ${parsed.problem}.`, {
      kind: 'invalid-repository-key',
      fix: `A key is <user>/<address>/<namespace>--default-repository (relctl prints the user as ${maskedUser}); copy it from relctl search --group-id <namespace> --ip any.`,
    });
  }
  return parsed.key;
}

/** The masked user (`<token user>`, or `***` of earlier versions) replaced by the token's username (so the key works as input). */
export function withUser(key: RepositoryKey, username: string | undefined): RepositoryKey {
  return isMaskedUser(key.user) && username !== undefined ? { ...key, user: username } : key;
}

export function keyText(key: RepositoryKey): string {
  return formatRepositoryKey(key);
}

/** A value checked by `problemOf`; a problem is a usage error (exit 2) naming where the value came from. */
function checked(value: string, label: string, problemOf: (v: string) => string | undefined, kind: string, fix: string): string {
  const problem = problemOf(value);
  if (problem !== undefined) throw new UsageError(`${label} ${JSON.stringify(value)} is ${problem}.`, { kind, fix });
  return value;
}

export function requireDeploymentId(value: string, label = '--deployment'): string {
  return checked(value, label, deploymentIdProblem, 'invalid-deployment-id', 'Pass the deployment id relctl upload printed (or relctl search --group-id <namespace> --ip any shows).');
}

export function requireGroupIdShape(value: string, label: string): string {
  return checked(value, label, groupIdProblem, 'invalid-group-id', 'Pass the namespace verified for your portal account, e.g. --group-id org.example.');
}
