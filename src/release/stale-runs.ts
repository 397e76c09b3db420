import path from 'node:path';
import type { CommandContext } from '../io/command-context.js';
import { removeStaleTempDirs } from '../io/owned-temp.js';
import { ownedTempBases } from '../io/temp-base.js';
import { stopAgent } from '../keys/gpg.js';
import { restoreFromJournal } from './rehearse/local-repo-guard.js';

/**
 * What runs killed with SIGKILL left behind (issue 27 items 5, 6), removed before a release or a
 * rehearsal starts: relctl's own marked temp folders whose process is gone (io/owned-temp.ts).
 * A throwaway GNUPGHOME's gpg-agent is stopped first (it may still hold the unlocked key); a
 * rehearsal's copy first puts the local repository back from its backup (local-repo-guard.ts).
 */
export async function removeLeftoversOfKilledRuns(ctx: CommandContext): Promise<void> {
  const removed: string[] = [];
  // The OS temp folder, and the one a private Maven home went to when TMPDIR was not shell-safe.
  for (const base of await ownedTempBases()) {
    const here = await removeStaleTempDirs(async (dir) => {
      if (/^relctl-(gnupg|gpg)-/.test(path.basename(dir))) await stopAgent({ env: ctx.env }, dir);
      await restoreFromJournal(path.join(dir, 'local-repo-backup'));
    }, base);
    removed.push(...here);
  }
  if (removed.length > 0) ctx.out.verbose(`Removed what killed relctl runs left: ${removed.join(', ')}`);
}
