import { UsageError } from '../core/errors.js';
import { deploymentIdProblem, formatRepositoryKey, groupIdProblem, maskedUser, parseRepositoryKey, type RepositoryKey } from '../core/identifiers.js';

/**
 * The one place where values reach a URL (DESIGN §5). Path templates are written as tagged
 * templates: the literal text is relctl's own, every interpolated value is one path segment,
 * checked and percent-encoded exactly once (a RepositoryKey is three segments). Query values go
 * through URLSearchParams. Nothing else in relctl concatenates user values into a URL.
 */
export type PathValue = string | { repositoryKey: RepositoryKey };

function segment(value: string): string {
  // The WHATWG URL parser resolves "." and ".." (also as %2e) after encoding: refuse them here.
  if (value === '' || value === '.' || value === '..' || /^(\.|%2e)+$/i.test(value)) {
    throw new UsageError(`"${value}" cannot be one part of a request path.`, { kind: 'invalid-input', fix: 'Pass the id or key relctl printed.' });
  }
  return encodeURIComponent(value);
}

function encode(value: PathValue): string {
  if (typeof value === 'string') return segment(value);
  const k = value.repositoryKey;
  return [k.user, k.address, `${k.namespace}--default-repository`].map(segment).join('/');
}

/** `base` + the template with each value encoded as a path segment + the query. */
export function apiUrl(base: string, query: Record<string, string | undefined> = {}) {
  return (strings: TemplateStringsArray, ...values: PathValue[]): string => {
    let p = strings[0]!;
    values.forEach((v, i) => {
      p += encode(v) + strings[i + 1]!;
    });
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) if (v !== undefined) params.set(k, v);
    const q = params.toString();
    return `${base.replace(/\/+$/, '')}${p}${q === '' ? '' : `?${q}`}`;
  };
}

/** A repository key from the user (or a server's answer), checked; exit 2 naming the shape. */
export function repositoryKeyOf(input: string, label = '--repository-key'): RepositoryKey {
  const parsed = parseRepositoryKey(input);
  if (!parsed.ok) {
    throw new UsageError(`${label} ${JSON.stringify(input)} is not a staging repository key: ${parsed.problem}.`, {
      kind: 'invalid-repository-key',
      fix: 'A key is <user>/<address>/<namespace>--default-repository (relctl prints the user as ***); copy it from relctl search --group-id <namespace> --ip any.',
    });
  }
  return parsed.key;
}

/** The masked `***` user replaced by the token's username (so the key works as input). */
export function withUser(key: RepositoryKey, username: string | undefined): RepositoryKey {
  return key.user === maskedUser && username !== undefined ? { ...key, user: username } : key;
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
