import type { CommandContext } from '../io/command-context.js';
import type { PortalClient } from '../portal/client.js';
import { repositoryKeyOf } from '../portal/urls.js';

/**
 * Drops the staging repositories this address holds open under `namespace` (DESIGN §7): after a
 * failed local verification nothing is handed to the portal, so no failed deployment can block
 * the namespace, and the next release starts clean.
 */
export async function dropOpenStaging(ctx: CommandContext, portal: PortalClient, namespace: string): Promise<string[]> {
  const open = (await portal.search({ namespace, ip: 'client', state: 'open' })).filter((r) => r.state === 'open');
  const dropped: string[] = [];
  for (const repo of open) {
    await portal.dropRepository(repositoryKeyOf(repo.key, 'the staging API listed'));
    dropped.push(ctx.out.redactor.redact(repo.key));
  }
  return dropped;
}
