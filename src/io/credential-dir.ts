import { rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { onInterrupt } from './interrupt.js';
import { makeOwnedTempDir } from './owned-temp.js';

/**
 * A private temp folder (mode 0700, from mkdtemp) for a credentials file a child writes or reads
 * (the registry login's auth.json, a signing key imported into a throwaway GNUPGHOME). It is
 * removed on every exit path (DESIGN §2): `remove()` on success and failure (call it from a
 * `finally`), the interrupt clean-ups when relctl has to stop without winding down (the 20 s
 * fallback, a second Ctrl-C), and the process's `exit` event for an uncaught error. After a
 * SIGKILL none of these runs: the folder's owner marker (io/owned-temp.ts) lets the next relctl
 * run remove it.
 */
export interface CredentialDir {
  path: string;
  remove(): Promise<void>;
}

/**
 * What must stop before the folder goes (a gpg-agent serving a GNUPGHOME): `async` on the normal
 * and interrupt paths, `sync` in the `exit` event, where nothing asynchronous runs any more.
 */
export interface BeforeRemove {
  async(dir: string): Promise<void>;
  sync(dir: string): void;
}

/** `base`: where the folder goes, the OS temp folder unless said (a Maven home needs a shell-safe one, temp-base.ts). */
export async function createCredentialDir(prefix: string, beforeRemove?: BeforeRemove, base?: string): Promise<CredentialDir> {
  const dir = await makeOwnedTempDir(prefix, base);
  const stopQuietly = async (): Promise<void> => {
    await beforeRemove?.async(dir).catch(() => undefined);
  };
  const removeNow = (): void => {
    try {
      beforeRemove?.sync(dir);
    } catch {
      // The folder goes regardless.
    }
    rmSync(dir, { recursive: true, force: true });
  };
  // `exit` handlers must be synchronous; this one runs only when nothing else removed the folder.
  process.once('exit', removeNow);
  const unregister = onInterrupt(async () => {
    await stopQuietly();
    await rm(dir, { recursive: true, force: true });
  });
  return {
    path: dir,
    async remove() {
      unregister();
      process.off('exit', removeNow);
      await stopQuietly();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
