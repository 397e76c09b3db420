import { rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { onInterrupt } from './interrupt.js';

/**
 * A private temp folder (mode 0700, from mkdtemp) for a credentials file a child writes or reads
 * (the registry login's auth.json). It is removed on every exit path (DESIGN §2): `remove()` on
 * success and failure (call it from a `finally`), the interrupt clean-ups when relctl has to stop
 * without winding down (the 20 s fallback, a second Ctrl-C), and the process's `exit` event for an
 * uncaught error.
 */
export interface CredentialDir {
  path: string;
  remove(): Promise<void>;
}

export async function createCredentialDir(prefix: string): Promise<CredentialDir> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  const removeNow = (): void => rmSync(dir, { recursive: true, force: true });
  // `exit` handlers must be synchronous; this one runs only when nothing else removed the folder.
  process.once('exit', removeNow);
  const unregister = onInterrupt(() => rm(dir, { recursive: true, force: true }));
  return {
    path: dir,
    async remove() {
      unregister();
      process.off('exit', removeNow);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
