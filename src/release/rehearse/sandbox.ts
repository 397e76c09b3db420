import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { CommandContext } from '../../io/command-context.js';
import { startSandbox, type RunningSandbox, type SandboxUrls } from '../../sandbox/server.js';

/** Where one rehearsal deploys: the sandbox's URLs, its own account there, and the folder its public repository also serves. */
export interface RehearsalSandbox {
  urls: SandboxUrls;
  user: { name: string; password: string };
  /** The build's parents go here (seedParents), so the sandbox portal validates against them. */
  seedRepo: string;
}

/**
 * A sandbox for one rehearsal or for a fleet's: one account per name, each with a random password
 * (redacted from all output). Accounts are separate on purpose: a failed deployment blocks its
 * account's namespace until dropped, as on the real portal, and one repository's failure must not
 * decide another's verdict. Every account may use every namespace (none is listed).
 */
export async function startRehearsalSandbox(
  ctx: CommandContext,
  dir: string,
  names: readonly string[],
  options: { snapshotNamespaces?: string[] } = {},
): Promise<{ running: RunningSandbox; accounts: Map<string, RehearsalSandbox> }> {
  const users = names.map((name) => ({ name, password: randomBytes(12).toString('hex') }));
  for (const u of users) ctx.out.redactor.add(u.password);
  const seedRepo = path.join(dir, 'public-parents');
  await mkdir(seedRepo, { recursive: true });
  const running = await startSandbox({ users, seedRepo, ...options });
  return { running, accounts: new Map(users.map((user) => [user.name, { urls: running.urls, user, seedRepo }])) };
}
