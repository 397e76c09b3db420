import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { KeyCheckFacts, OnlineSections, PortalCheckFacts } from './online-types.js';
import type { CommandContext } from '../io/command-context.js';
import { isRelctlError } from '../core/errors.js';
import { pomCoordinates } from '../core/pom/coordinates.js';
import { PortalClient } from '../portal/client.js';
import { HttpClient } from '../io/http.js';
import { KeyServers } from '../portal/keyservers.js';
import { localAddressOf, tokenOf } from '../portal/session.js';
import { givenNamespace, resolveNamespace, type DeclaredGroupId } from '../portal/namespace.js';
import { groupIdProblem } from '../core/identifiers.js';
import { missingTokenFix } from '../portal/token.js';
import { tokenPageFix } from '../portal/decode.js';
import { gatherKeyFacts } from './check.js';
import { resolveSigningKey, signingKeyInput } from './fingerprint.js';

/**
 * The online facts of preflight: the portal (token accepted? namespace blocked?) and the key
 * servers, gathered concurrently and within a time bound, so a slow service cannot hang the audit.
 */
export async function gatherOnlineFacts(ctx: CommandContext, known: { groupId?: string }): Promise<OnlineSections> {
  const http = new HttpClient({
    timeoutMs: ctx.config.timeout * 1000,
    env: ctx.env,
    retries: 2,
    ...(localAddressOf(ctx) === undefined ? {} : { localAddress: localAddressOf(ctx)! }),
    log: (l) => ctx.out.verbose(l),
    signal: ctx.signal,
  });
  const bound = ctx.config.timeout * 1000 * 3;
  const within = <T>(p: Promise<T>, fallback: T): Promise<T> =>
    Promise.race([p, new Promise<T>((resolve) => setTimeout(() => resolve(fallback), bound).unref())]);
  try {
    const [portal, keys] = await Promise.all([
      within(portalFacts(ctx, http, known), { credentials: 'present', auth: { error: 'timed out' }, portalUrl: ctx.config.portalUrl, missingFix: missingTokenFix, tokenFix: tokenPageFix(ctx.config.portalUrl) }),
      within(keyFacts(ctx, http), keysTimedOut(ctx, http, bound)),
    ]);
    return { portal, ...(keys === undefined ? {} : { keys }) };
  } finally {
    await http.close();
  }
}

/** The groupId the project declares (what gather-facts read, else the top pom.xml's). */
async function declaredGroupId(ctx: CommandContext, known: { groupId?: string }): Promise<DeclaredGroupId | undefined> {
  if (known.groupId !== undefined) return { groupId: known.groupId, from: "the project's groupId" };
  const pom = await readFile(path.join(ctx.cwd, 'pom.xml'), 'utf8').catch(() => undefined);
  const groupId = pom === undefined ? undefined : pomCoordinates(pom).groupId;
  return groupId === undefined || groupIdProblem(groupId) !== undefined ? undefined : { groupId, from: "the project's groupId" };
}

async function portalFacts(ctx: CommandContext, http: HttpClient, known: { groupId?: string }): Promise<PortalCheckFacts> {
  const base = { portalUrl: ctx.config.portalUrl, missingFix: missingTokenFix, tokenFix: tokenPageFix(ctx.config.portalUrl) };
  const token = await tokenOf(ctx).catch(() => undefined);
  if (token === undefined) return { ...base, credentials: 'missing' };
  const declared = await declaredGroupId(ctx, known);
  if (givenNamespace(ctx) === undefined && ctx.config.groupId === undefined && declared === undefined) return { ...base, credentials: 'present' };
  const portal = new PortalClient(http, ctx.config, token);
  // Until the namespace is known, the groupId names it in a message about the token.
  let groupId = ctx.config.namespace ?? ctx.config.groupId ?? declared?.groupId;
  try {
    // The namespace, not the groupId: a FAILED deployment under org.example blocks org.example.lib too.
    groupId = (await resolveNamespace(ctx, portal, declared)).namespace;
    const repos = await portal.search({ namespace: groupId, ip: 'any' });
    const facts: PortalCheckFacts = { ...base, credentials: 'present', groupId, auth: 'accepted' };
    // A FAILED deployment blocks the namespace; only closed repositories can hold one. Newest first, a few at most.
    const candidates = repos.filter((r) => r.portalDeploymentId !== null && r.state !== 'open').reverse().slice(0, 5);
    const statuses = await Promise.all(candidates.map((r) => portal.status(r.portalDeploymentId!).then((s) => ({ r, s })).catch(() => undefined)));
    const failed = statuses.find((x) => x?.s.deploymentState === 'FAILED');
    if (failed !== undefined) facts.blockedBy = { deploymentId: failed.s.deploymentId, repositoryKey: failed.r.key };
    return facts;
  } catch (error) {
    if (isRelctlError(error) && (error.kind === 'token-rejected' || error.kind === 'token-expired')) {
      return { ...base, credentials: 'present', groupId, auth: error.kind === 'token-expired' ? 'expired' : 'rejected' };
    }
    return { ...base, credentials: 'present', groupId, auth: { error: isRelctlError(error) ? error.message : String(error) } };
  }
}

/** Key lookups that did not finish in time: an unanswered lookup, so preflight ends with exit 3. */
function keysTimedOut(ctx: CommandContext, http: HttpClient, boundMs: number): KeyCheckFacts {
  const noAnswer = { error: `no answer from the key servers within ${boundMs / 1000} s` };
  return {
    primaryUrl: ctx.config.keyserverUrl,
    uploadFormUrl: new KeyServers(http, ctx.config).uploadFormUrl(),
    secondaryUrl: ctx.config.secondaryKeyserverUrl,
    primary: noAnswer,
    secondary: noAnswer,
    emails: [],
    checkedAt: new Date().toISOString(),
  };
}

async function keyFacts(ctx: CommandContext, http: HttpClient): Promise<KeyCheckFacts | undefined> {
  const servers = new KeyServers(http, ctx.config);
  const urls = { primaryUrl: ctx.config.keyserverUrl, uploadFormUrl: servers.uploadFormUrl(), secondaryUrl: ctx.config.secondaryKeyserverUrl };
  try {
    const key = await resolveSigningKey(signingKeyInput(ctx));
    return await gatherKeyFacts(key, servers, ctx.config);
  } catch (error) {
    if (!isRelctlError(error)) throw error;
    return {
      ...urls,
      problem: { message: error.message, fix: error.fix ?? 'Configure the signing key (--fingerprint).' },
      primary: 'not-found',
      secondary: 'not-found',
      emails: [],
      checkedAt: new Date().toISOString(),
    };
  }
}
