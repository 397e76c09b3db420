/**
 * The shapes of the identifiers users hand to relctl and relctl hands to the portal: Maven group
 * ids (namespaces), staging repository keys and deployment ids. Pure; the URL builder
 * (portal/urls.ts) and the configuration use these so a malformed value is a usage error before
 * anything is sent, never a request to another endpoint.
 */

/** Maven's own pattern for groupId, with no empty dot-separated part (`a..b`, `.a`, `a.`). */
const groupIdPattern = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/;

export function groupIdProblem(value: string): string | undefined {
  if (value.length > 255) return 'longer than 255 characters';
  if (groupIdPattern.test(value)) return undefined;
  return 'not a Maven group id: letters, digits, "_" and "-" in parts separated by single dots, e.g. org.example or io.github.jane';
}

export const repositoryKeySuffix = '--default-repository';
/**
 * How relctl prints a key: the token username, its first segment, is a secret and reads
 * `<token user>` (a bare `***` there looked like a fault). Both forms are accepted as input: keys
 * printed (and journaled) by earlier versions carry `***`.
 */
export const maskedUser = '<token user>';
const maskedUsers = new Set([maskedUser, '***']);

/** Whether a key's user segment is the masked form relctl prints, not a username. */
export function isMaskedUser(user: string): boolean {
  return maskedUsers.has(user);
}

export interface RepositoryKey {
  /** The token username, or `<token user>` / `***` when the key was given in the masked form relctl prints. */
  user: string;
  /** The source address the staging API matched (IPv4 or IPv6). */
  address: string;
  /** The namespace (group id) part, without the `--default-repository` suffix. */
  namespace: string;
}

export type ParsedKey = { ok: true; key: RepositoryKey } | { ok: false; problem: string };

const unsafeChars = /[\s\\?#%\u0000-\u001f\u007f]/;

/**
 * `<user>/<address>/<namespace>--default-repository`, raw or percent-encoded once; the masked
 * `***` user is accepted. Dot segments, empty segments and anything else are refused.
 */
export function parseRepositoryKey(input: string): ParsedKey {
  let text = input.trim();
  if (text.includes('%')) {
    try {
      text = decodeURIComponent(text);
    } catch {
      return { ok: false, problem: 'it holds a malformed %-escape' };
    }
  }
  const parts = text.split('/');
  if (parts.some((p) => p === '.' || p === '..')) return { ok: false, problem: 'it holds a "." or ".." segment' };
  if (parts.some((p) => p === '')) return { ok: false, problem: 'it holds an empty segment' };
  if (parts.length !== 3) return { ok: false, problem: `it has ${parts.length} segment${parts.length === 1 ? '' : 's'}, not 3` };
  const [user, address, last] = parts as [string, string, string];
  if (!isMaskedUser(user) && unsafeChars.test(user)) return { ok: false, problem: 'its user segment holds spaces, control characters or URL syntax' };
  if (!/^[0-9A-Fa-f:.]+$/.test(address) || !/[0-9A-Fa-f]/.test(address)) return { ok: false, problem: `"${address}" is not an IP address` };
  if (!last.endsWith(repositoryKeySuffix)) return { ok: false, problem: `its last segment does not end in ${repositoryKeySuffix}` };
  const namespace = last.slice(0, -repositoryKeySuffix.length);
  const nsProblem = groupIdProblem(namespace);
  if (nsProblem !== undefined) return { ok: false, problem: `its namespace "${namespace}" is ${nsProblem}` };
  return { ok: true, key: { user, address, namespace } };
}

export function formatRepositoryKey(key: RepositoryKey): string {
  return `${key.user}/${key.address}/${key.namespace}${repositoryKeySuffix}`;
}

/** Portal deployment ids are UUIDs; anything id-like is accepted, nothing that could leave its path segment. */
export function deploymentIdProblem(value: string): string | undefined {
  if (/^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/.test(value)) return undefined;
  return 'not a deployment id (a UUID such as 6c1f0c3e-8f43-4b8e-9d59-0f6d3f3f9e11)';
}
