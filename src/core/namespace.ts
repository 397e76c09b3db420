/**
 * Namespace is not groupId (DESIGN §5a). The staging API's upload and search take the portal
 * namespace, the verified root (`org.example`), while a project's groupId may lie below it
 * (`org.example.lib`). Pure: which namespaces can hold a groupId, and which one a list of staging
 * repositories shows; portal/namespace.ts asks the staging API.
 */
import { parseRepositoryKey } from './identifiers.js';

/** True when `groupId` is the namespace itself or lies below it, on a dot boundary. */
export function inNamespace(groupId: string, namespace: string): boolean {
  return groupId === namespace || groupId.startsWith(`${namespace}.`);
}

// Code-hosting namespaces hand out one more label per user or organisation (io.github.jane).
const hostingRoots = new Set(['io.github', 'com.github', 'io.gitlab', 'com.gitlab', 'io.bitbucket', 'org.bitbucket', 'com.bitbucket', 'org.codeberg', 'io.codeberg']);

/**
 * The namespace the portal would verify for a groupId: its reverse domain (two labels), or three
 * under a code-hosting root. A guess, never a substitute for what the account owns.
 */
export function namespaceRootOf(groupId: string): string {
  const labels = groupId.split('.');
  const two = labels.slice(0, 2).join('.');
  return hostingRoots.has(two.toLowerCase()) ? labels.slice(0, 3).join('.') : two;
}

/**
 * The namespaces that can hold `groupId`, longest first: the groupId itself, then each shorter
 * dotted prefix down to two labels (a single label such as `org` is a top-level domain, never a
 * namespace, unless the groupId is that one label).
 */
export function namespaceCandidates(groupId: string): string[] {
  const labels = groupId.split('.');
  const shortest = Math.min(2, labels.length);
  const out: string[] = [];
  for (let n = labels.length; n >= shortest; n--) out.push(labels.slice(0, n).join('.'));
  return out;
}

export interface ListedRepository {
  key: string;
  state: string;
}

/**
 * Among listed staging repositories, the one whose namespace holds `groupId` (a dot-boundary
 * prefix or the groupId itself); the longest namespace wins, then the newest listed. Only `state`
 * repositories count when given.
 */
export function repositoryHolding<T extends ListedRepository>(groupId: string, repos: readonly T[], state?: string): { namespace: string; repository: T } | undefined {
  let best: { namespace: string; repository: T } | undefined;
  for (const repository of repos) {
    if (state !== undefined && repository.state !== state) continue;
    const parsed = parseRepositoryKey(repository.key);
    if (!parsed.ok || !inNamespace(groupId, parsed.key.namespace)) continue;
    if (best === undefined || parsed.key.namespace.length >= best.namespace.length) best = { namespace: parsed.key.namespace, repository };
  }
  return best;
}

/** Where the namespace came from, in the order relctl tries (DESIGN §5a). */
export type NamespaceSource =
  | { kind: 'given'; setting: string }
  | { kind: 'open-repository'; repositoryKey: string }
  | { kind: 'staged'; repositoryKey: string }
  /** The groupId itself: nothing staged under it or a shorter namespace (`searched`), or not looked up (a dry run). */
  | { kind: 'group-id'; groupId: string; setting: string; searched: boolean };

export interface NamespaceResolution {
  namespace: string;
  /** The groupId the namespace was resolved for, when one was known. */
  groupId?: string;
  source: NamespaceSource;
}

/** One line for the user: the namespace used and how it was found (keys shown as the caller masks them). */
export function namespaceText(r: NamespaceResolution, showKey: (key: string) => string = (k) => k): string {
  const s = r.source;
  const below = r.groupId !== undefined && r.groupId !== r.namespace ? ` (groupId ${r.groupId} lies below it)` : '';
  switch (s.kind) {
    case 'given':
      return `namespace ${r.namespace}: from ${s.setting}${below}`;
    case 'open-repository':
      return `namespace ${r.namespace}: the open staging repository ${showKey(s.repositoryKey)} holds groupId ${r.groupId ?? r.namespace}`;
    case 'staged':
      return `namespace ${r.namespace}: the staging repository ${showKey(s.repositoryKey)} holds groupId ${r.groupId ?? r.namespace}`;
    case 'group-id':
      return `namespace ${r.namespace}: the groupId (${s.setting})${s.searched ? '; no staging repository is under it or a shorter namespace' : ', not looked up'}`;
  }
}

/** The JSON form of the source: `{ "namespace": …, "namespaceFrom": … }`. */
export function namespaceFrom(s: NamespaceSource): string {
  switch (s.kind) {
    case 'given':
      return s.setting;
    case 'open-repository':
      return 'open staging repository';
    case 'staged':
      return 'staging repository';
    case 'group-id':
      return 'groupId';
  }
}
