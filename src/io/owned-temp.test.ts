import { spawnSync } from 'node:child_process';
import { readFileSync, readlinkSync } from 'node:fs';
import { mkdir, readdir, rm, utimes, writeFile } from 'node:fs/promises';
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

/** Read straight from /proc (not through the code under test): what a marker of `pid` on this machine says. */
function identity(pid: number): { boot: string; pidns: string; start: string } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return {
    boot: readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim(),
    pidns: readlinkSync('/proc/self/ns/pid'),
    start: stat.slice(stat.lastIndexOf(')') + 1).trim().split(/\s+/)[19]!,
  };
}

const here = identity(process.pid);

describe('relctl-owned temp folders', () => {
  it('carry a marker naming this process, its boot, PID namespace and start time', async () => {
    const dir = await makeOwnedTempDir('relctl-owned-test-');
    try {
      expect(path.dirname(dir)).toBe(os.tmpdir());
      expect(await ownerOf(dir)).toMatchObject({ pid: process.pid, ...here });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("the sweep removes only marked relctl-* folders of dead processes, after the hook; never unmarked, live or others' folders", async () => {
    await using t = await tempDir('sweep-root-');
    const make = async (name: string, pid?: number): Promise<string> => {
      const dir = path.join(t.path, name);
      await mkdir(dir);
      await writeFile(path.join(dir, 'content'), 'x');
      if (pid !== undefined) await writeFile(path.join(dir, ownerMarker), JSON.stringify({ pid, ...here, ...(pid === process.ppid ? { start: identity(pid).start } : {}) }));
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

describe('the sweep across PID namespaces and boots (issue 37 item 6)', () => {
  const elevenDaysAgo = new Date(Date.now() - 11 * 24 * 3600 * 1000);

  /** Sweeps a folder holding one marked folder per case; returns the names left. */
  async function sweep(cases: Record<string, { marker: Record<string, unknown>; old?: boolean }>): Promise<string[]> {
    await using t = await tempDir('sweep-ns-');
    for (const [name, c] of Object.entries(cases)) {
      const dir = path.join(t.path, `relctl-${name}`);
      await mkdir(dir);
      await writeFile(path.join(dir, ownerMarker), JSON.stringify(c.marker));
      if (c.old === true) {
        await utimes(path.join(dir, ownerMarker), elevenDaysAgo, elevenDaysAgo);
        await utimes(dir, elevenDaysAgo, elevenDaysAgo);
      }
    }
    await removeStaleTempDirs(undefined, t.path);
    return (await readdir(t.path)).map((n) => n.replace(/^relctl-/, '')).sort();
  }

  it('removes a folder only when the same boot and namespace prove its owner gone (dead, or its pid reused)', async () => {
    const dead = deadPid();
    const parent = identity(process.ppid);
    const left = await sweep({
      // A sandbox in a container sharing /tmp: its pid is not alive here, which proves nothing.
      'other-namespace-dead': { marker: { pid: dead, ...here, pidns: 'pid:[4026599999]' } },
      'other-boot-dead': { marker: { pid: dead, ...here, boot: '00000000-0000-4000-8000-000000000000' } },
      'same-namespace-dead': { marker: { pid: dead, ...here } },
      // The pid is alive, but it is another process than the one that wrote the marker.
      'same-namespace-pid-reused': { marker: { pid: process.ppid, ...here, start: String(Number(parent.start) + 1) } },
      'same-namespace-live': { marker: { pid: process.ppid, ...parent } },
      'this-process': { marker: { pid: process.pid, ...here } },
    });
    expect(left).toEqual(['other-boot-dead', 'other-namespace-dead', 'same-namespace-live', 'this-process']);
  });

  it('a marker from another namespace or boot goes after 10 untouched days; a pid-only marker (relctl before 37) too, and only if its pid is dead here', async () => {
    const dead = deadPid();
    const left = await sweep({
      'other-namespace-fresh': { marker: { pid: 1, ...here, pidns: 'pid:[4026599999]' } },
      'other-namespace-old': { marker: { pid: 1, ...here, pidns: 'pid:[4026599999]' }, old: true },
      'other-boot-old': { marker: { pid: dead, ...here, boot: '00000000-0000-4000-8000-000000000000' }, old: true },
      'pid-only-dead-fresh': { marker: { pid: dead } },
      'pid-only-dead-old': { marker: { pid: dead }, old: true },
      'pid-only-live-old': { marker: { pid: process.ppid }, old: true },
    });
    expect(left).toEqual(['other-namespace-fresh', 'pid-only-dead-fresh', 'pid-only-live-old']);
  });
});
