import type { CommandContext } from '../io/command-context.js';
import { UsageError } from '../core/errors.js';
import { askYesNo } from '../ui/ask.js';
import { PortalClient } from './client.js';
import { HttpClient, type HttpOptions } from '../io/http.js';
import { KeyServers, PublicRepository } from './keyservers.js';
import { findToken, requireToken, type PortalToken, type TokenSources } from './token.js';
import { requireGroupIdShape } from './urls.js';

/**
 * Builds the network adapters for a command from its context. RELCTL_LOCAL_ADDRESS binds the
 * outgoing side of every connection (a second loopback address in tests, a chosen interface on
 * a multi-homed CI runner), which matters because the staging API matches by source address.
 */
export function localAddressOf(ctx: CommandContext): string | undefined {
  const v = ctx.env.RELCTL_LOCAL_ADDRESS;
  return v === undefined || v === '' ? undefined : v;
}

export function httpFor(ctx: CommandContext, tuned: Pick<HttpOptions, 'retries'> = {}): HttpClient {
  const localAddress = localAddressOf(ctx);
  return new HttpClient({
    timeoutMs: ctx.config.timeout * 1000,
    env: ctx.env,
    ...(localAddress === undefined ? {} : { localAddress }),
    log: (line) => ctx.out.verbose(line),
    signal: ctx.signal,
    ...tuned,
  });
}

export interface PortalSession {
  http: HttpClient;
  portal: PortalClient;
  token: PortalToken;
}

/** Where a command's token comes from: its project, environment and --settings (DESIGN §2). */
export function tokenSources(ctx: CommandContext): TokenSources {
  return {
    cwd: ctx.cwd,
    env: ctx.env,
    redactor: ctx.out.redactor,
    ...(ctx.config.settings === undefined ? {} : { settingsFile: ctx.config.settings }),
  };
}

/** The token, if any is configured (registered with the redactor by findToken). */
export function tokenOf(ctx: CommandContext): Promise<PortalToken | undefined> {
  return findToken(tokenSources(ctx));
}

export async function portalSession(ctx: CommandContext): Promise<PortalSession> {
  const token = await requireToken(tokenSources(ctx));
  ctx.out.verbose(`token from ${token.source}`);
  const http = httpFor(ctx);
  return { http, token, portal: new PortalClient(http, ctx.config, token) };
}

export function keyServersFor(ctx: CommandContext, http = httpFor(ctx)): KeyServers {
  return new KeyServers(http, ctx.config);
}

export function publicRepoFor(ctx: CommandContext, http = httpFor(ctx)): PublicRepository {
  return new PublicRepository(http, ctx.config.publicRepoUrl, ctx.config.timeout * 1000);
}

/**
 * The namespace to act on: --group-id is a global setting (flag, RELCTL_GROUP_ID and
 * relctl.config.json all land in ctx.config); else what the project declares, when known.
 */
export function groupIdOf(ctx: CommandContext, declared?: string): string | undefined {
  return ctx.config.groupId ?? declared;
}

/**
 * The namespace a portal command acts on: --group-id (or RELCTL_GROUP_ID, or the config file),
 * else the groupId the project in --cwd declares (docs/configuration.md: "the project's groupId where a command
 * needs one"). Either way it is checked as a Maven group id before it reaches a URL.
 */
export async function requireGroupId(ctx: CommandContext): Promise<string> {
  const given = groupIdOf(ctx);
  if (given !== undefined && given !== '') return given;
  const { readIdentity } = await import('../io/project.js');
  const declared = await readIdentity(ctx.cwd).then((p) => p.groupId).catch(() => undefined);
  if (declared === undefined) {
    throw new UsageError('No group id (namespace) given, and no project in --cwd declares one.', {
      kind: 'no-group-id',
      fix: 'Pass --group-id <namespace> (or set RELCTL_GROUP_ID, or "groupId" in relctl.config.json), or run in the project folder.',
    });
  }
  ctx.out.verbose(`group id ${declared} from the project`);
  return requireGroupIdShape(declared, "The project's groupId");
}

/** Before any work: a mutation without --yes where nobody can be asked is a usage error naming --yes. */
export function requireAnswerable(ctx: CommandContext, yes: boolean, what: string): void {
  if (yes || ctx.canPrompt) return;
  throw new UsageError(`${what} needs a confirmation and no one can be asked here (CI, no terminal, or --json).`, {
    kind: 'confirmation-needed',
    fix: 'Pass --yes to confirm without a prompt (or --dry-run to see what would happen).',
  });
}

/** Mutations need a yes: --yes, or a prompt on a terminal; else a usage error naming the flag. */
export async function confirm(ctx: CommandContext, yes: boolean, question: string): Promise<boolean> {
  if (yes) return true;
  if (!ctx.canPrompt) {
    throw new UsageError(`Confirmation needed: ${question}`, {
      kind: 'confirmation-needed',
      fix: 'Pass --yes to confirm without a prompt (or --dry-run to see what would happen).',
    });
  }
  return askYesNo(question, false);
}
