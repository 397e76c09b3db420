import { spawnSync } from 'node:child_process';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/helpers/temp.js';
import { makeOwnedTempDir, ownerMarker, ownerOf, removeStaleTempDirs } from './owned-temp.js';

/** A pid that was alive and is gone (a finished child). */
function deadPid(): number {
  const r = spawnSync('sh', ['-c', 'echo $$']);
  return Number(String(r.stdout).trim());
}

describe('relctl-owned temp folders', () => {
  it('carry a marker naming this process', async () => {
    const dir = await makeOwnedTempDir('relctl-owned-test-');
    try {
      expect(path.dirname(dir)).toBe(os.tmpdir());
      expect(await ownerOf(dir)).toBe(process.pid);
    } finally {
      await import('node:fs/promises').then((fs) => fs.rm(dir, { recursive: true, force: true }));
    }
  });

  it("the sweep removes only marked relctl-* folders of dead processes, after the hook; never unmarked, live or others' folders", async () => {
    await using t = await tempDir('sweep-root-');
    const make = async (name: string, pid?: number): Promise<string> => {
      const dir = path.join(t.path, name);
      await mkdir(dir);
      await writeFile(path.join(dir, 'content'), 'x');
      if (pid !== undefined) await writeFile(path.join(dir, ownerMarker), JSON.stringify({ pid }));
      return dir;
    };
    const dead = deadPid();
    const stale = await make('relctl-rehearse-stale', dead);
    await make('relctl-gnupg-live', process.ppid);
    await make('relctl-settings-unmarked');
    await make('other-tool-stale', dead);
    const seen: string[] = [];
    const removed = await removeStaleTempDirs(async (dir) => {
      seen.push(dir);
    }, t.path);
    expect(removed).toEqual([stale]);
    expect(seen).toEqual([stale]);
    expect((await readdir(t.path)).sort()).toEqual(['other-tool-stale', 'relctl-gnupg-live', 'relctl-settings-unmarked']);
  });
});
