import type { CommandContext } from '../io/command-context.js';
import { UsageError, isRelctlError } from '../core/errors.js';
import { namespaceCandidates, namespaceText, repositoryHolding, type NamespaceResolution } from '../core/namespace.js';
import type { PortalClient, StagingRepository } from './client.js';
import { requireGroupIdShape } from './urls.js';

export { namespaceFrom, namespaceText, type NamespaceResolution } from '../core/namespace.js';

/** A groupId a caller already knows (the release context's), and how to name where it came from. */
export interface DeclaredGroupId {
  groupId: string;
  from: string;
}

const fileLabel = (key: string): string => `"${key}" in relctl.config.json`;

/** How a user would name where a setting came from. */
function settingLabel(ctx: CommandContext, key: 'namespace' | 'groupId'): string {
  const source = ctx.configSources[key];
  if (source === 'env') return key === 'namespace' ? 'RELCTL_NAMESPACE' : 'RELCTL_GROUP_ID';
  if (source === 'file') return fileLabel(key);
  return key === 'namespace' ? '--namespace' : '--group-id';
}

/**
 * The groupId to resolve a namespace for: --group-id (RELCTL_GROUP_ID, config `groupId`, today's
 * spelling of the same input), else what the caller knows, else what the project in --cwd declares.
 */
export async function groupIdToResolve(ctx: CommandContext, declared?: DeclaredGroupId): Promise<DeclaredGroupId | undefined> {
  if (ctx.config.groupId !== undefined && ctx.config.groupId !== '') return { groupId: ctx.config.groupId, from: settingLabel(ctx, 'groupId') };
  if (declared !== undefined) return declared;
  const { readIdentity } = await import('../io/project.js');
  const groupId = await readIdentity(ctx.cwd).then((p) => p.groupId).catch(() => undefined);
  return groupId === undefined ? undefined : { groupId: requireGroupIdShape(groupId, "The project's groupId"), from: "the project's groupId" };
}

/** The namespace when it was given (--namespace, RELCTL_NAMESPACE, config `namespace`). */
export function givenNamespace(ctx: CommandContext): NamespaceResolution | undefined {
  const ns = ctx.config.namespace;
  return ns === undefined || ns === '' ? undefined : { namespace: ns, source: { kind: 'given', setting: settingLabel(ctx, 'namespace') } };
}

export function noNamespaceError(): UsageError {
  return new UsageError('No namespace given, and no groupId to find it from: none given and no project in --cwd declares one.', {
    kind: 'no-group-id',
    fix: 'Pass --namespace <namespace> (or RELCTL_NAMESPACE, or "namespace" in relctl.config.json), or --group-id <groupId>, or run in the project folder.',
  });
}

/** Before a session is opened: some namespace or groupId to resolve exists, else the usage error naming the flags. */
export async function requireNamespaceInput(ctx: CommandContext, declared?: DeclaredGroupId): Promise<void> {
  if (givenNamespace(ctx) === undefined && (await groupIdToResolve(ctx, declared)) === undefined) throw noNamespaceError();
}

/** A search the service may refuse for its own reasons (a namespace not the caller's, a missing parameter): the resolution goes on. */
function refusedSearch(error: unknown): boolean {
  return isRelctlError(error) && ['namespace-not-authorized', 'portal-rejected', 'not-found'].includes(error.kind);
}

/**
 * The namespace a staging API call names (DESIGN §5a): given, else the staging repository (open
 * first) whose namespace holds the groupId (one `ip=any` search of every repository; the longest
 * namespace wins), else the groupId's dotted prefixes tried longest first, else the groupId itself.
 * Without a portal (a dry run) the groupId stands, unchecked.
 */
export async function resolveNamespace(ctx: CommandContext, portal: PortalClient | undefined, declared?: DeclaredGroupId): Promise<NamespaceResolution> {
  const given = givenNamespace(ctx);
  if (given !== undefined) return given;
  const input = await groupIdToResolve(ctx, declared);
  if (input === undefined) throw noNamespaceError();
  const { groupId } = input;
  const fallback: NamespaceResolution = { namespace: groupId, groupId, source: { kind: 'group-id', groupId, setting: input.from, searched: portal !== undefined } };
  if (portal === undefined) return fallback;
  let listed: StagingRepository[] | undefined;
  try {
    listed = await portal.search({ ip: 'any' });
  } catch (error) {
    if (!refusedSearch(error)) throw error;
    ctx.out.verbose('the staging API did not list every repository; trying the groupId and its prefixes');
  }
  const found = listed === undefined ? await searchPrefixes(ctx, portal, groupId) : holding(groupId, listed);
  return found === undefined ? fallback : { ...found, groupId };
}

function holding(groupId: string, repos: readonly StagingRepository[]): Omit<NamespaceResolution, 'groupId'> | undefined {
  const open = repositoryHolding(groupId, repos, 'open');
  if (open !== undefined) return { namespace: open.namespace, source: { kind: 'open-repository', repositoryKey: open.repository.key } };
  const any = repositoryHolding(groupId, repos);
  return any === undefined ? undefined : { namespace: any.namespace, source: { kind: 'staged', repositoryKey: any.repository.key } };
}

async function searchPrefixes(ctx: CommandContext, portal: PortalClient, groupId: string): Promise<Omit<NamespaceResolution, 'groupId'> | undefined> {
  for (const candidate of namespaceCandidates(groupId)) {
    const repos = await portal.search({ namespace: candidate, ip: 'any' }).catch((error: unknown) => {
      if (refusedSearch(error)) return [];
      throw error;
    });
    const found = holding(groupId, repos);
    if (found !== undefined) return found;
    ctx.out.verbose(`no staging repository under ${candidate}`);
  }
  return undefined;
}

/**
 * An open repository under another namespace that holds `namespace` (a shorter one, when a
 * groupId was given as the namespace): never "nothing is staged" while one is open.
 */
export async function openUnderShorterNamespace(portal: PortalClient, namespace: string): Promise<{ namespace: string; key: string } | undefined> {
  const listed = await portal.search({ ip: 'any', state: 'open' }).catch(() => undefined);
  const open = listed === undefined ? undefined : repositoryHolding(namespace, listed, 'open');
  return open === undefined || open.namespace === namespace ? undefined : { namespace: open.namespace, key: open.repository.key };
}

/** Says the namespace and how it was found (stderr; `--json` carries it in the document). */
export function reportNamespace(ctx: CommandContext, r: NamespaceResolution): void {
  ctx.out.info(namespaceText(r, (k) => ctx.out.redactor.redact(k)));
}
