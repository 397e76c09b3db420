import { spawnSync } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { removeStaleTempDirs } from '../../src/io/owned-temp.js';
import { repoRoot } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

/**
 * Issue 37 item 6, for real: a relctl folder made in another PID namespace sharing TMPDIR (what a
 * container bind-mounting /tmp is), by a process that is alive there and whose pid is not alive
 * here. The sweep of a run on this side must leave it alone. The inner process is given a pid that
 * is dead on this side (ns_last_pid, writable by the namespace's own root), so "not alive here" is
 * exactly what the sweep sees. Needs unshare(1) with user namespaces (this project's machines have them): no skip, a machine without them fails here.
 */
const unshare = ['--user', '--map-root-user', '--pid', '--fork', '--mount-proc'];
const canUnshare = spawnSync('unshare', [...unshare, 'true']).status === 0;

/** A pid that was alive and is gone (a finished child). */
function deadPid(): number {
  return Number(String(spawnSync('sh', ['-c', 'echo $$']).stdout).trim());
}

describe('the killed-run sweep and a live folder of another PID namespace', () => {
  it('keeps the folder of a live process of another namespace whose pid is dead here, before and after that process ends', async () => {
    expect(canUnshare, 'unshare --user --map-root-user --pid works here').toBe(true);
    await using t = await tempDir('owned-ns-');
    const script = `
      const { makeOwnedTempDir } = await import(${JSON.stringify(path.join(repoRoot, 'dist', 'io', 'owned-temp.js'))});
      const dir = await makeOwnedTempDir('relctl-sandbox-');
      console.log(JSON.stringify({ dir, pid: process.pid }));
      process.stdin.resume();
      process.stdin.on('end', () => process.exit(0));
    `;
    const wanted = deadPid();
    // The shell is the namespace's pid 1; the node it forks gets the pid after ns_last_pid.
    const inner = `echo ${wanted - 1} > /proc/sys/kernel/ns_last_pid; node --input-type=module -e "$1"; exit $?`;
    const child = execa('unshare', [...unshare, 'sh', '-c', inner, 'sh', script], { env: { TMPDIR: t.path }, stdin: 'pipe', reject: false, timeout: 30_000 });
    try {
      const first = await new Promise<string>((resolve, reject) => {
        createInterface({ input: child.stdout! }).once('line', resolve);
        child.once('exit', () => reject(new Error(`the inner process ended first: ${String(child.stderr?.read() ?? '')}`)));
      });
      const owner = JSON.parse(first) as { dir: string; pid: number };
      expect(path.dirname(owner.dir)).toBe(t.path);
      expect(owner.pid).toBe(wanted);
      expect(() => process.kill(owner.pid, 0), 'the inner pid must be dead on this side').toThrow();

      expect(await removeStaleTempDirs(undefined, t.path)).toEqual([]);
      expect(await readdir(t.path)).toEqual([path.basename(owner.dir)]);
    } finally {
      child.stdin?.end();
      await child;
    }
    // Its process is gone now, in a namespace that is gone too: nothing here can prove it, so the
    // folder stays until it is 10 days old (owned-temp.ts, foreignMarkerMaxAgeMs).
    expect(await removeStaleTempDirs(undefined, t.path)).toEqual([]);
    expect((await readdir(t.path)).length).toBe(1);
  });
});
