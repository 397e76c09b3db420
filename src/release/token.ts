import path from 'node:path';
import { tokenOf } from '../portal/session.js';
import { distributionRepositoryId, type PortalToken } from '../portal/token.js';
import type { CommandContext } from '../io/command-context.js';
import { descriptorText } from '../io/descriptor.js';

export function tokenFromEnvironment(token: PortalToken): boolean {
  return token.source.startsWith('RELCTL_TOKEN_');
}

/**
 * What Maven needs to authenticate: nothing when the token already sits in the user's settings
 * (Maven reads the same file), else the token for a generated private settings copy.
 */
export async function mavenTokenFor(ctx: CommandContext): Promise<{ username: string; password: string; serverId: string } | undefined> {
  const token = await tokenOf(ctx);
  if (token === undefined || !tokenFromEnvironment(token)) return undefined;
  const pom = descriptorText(path.join(ctx.cwd, 'pom.xml')) ?? '';
  return { username: token.username, password: token.password, serverId: distributionRepositoryId(pom) ?? 'central' };
}
