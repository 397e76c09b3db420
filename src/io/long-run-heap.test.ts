import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { youngGenerationFlag } from './long-run-heap.js';

/**
 * The fleet's peak memory rests on V8 reading the growth factor when it grows the young
 * generation, after start-up. A node that stopped doing so would bring back a peak that grows
 * with the number of repositories: this says so before a benchmark does.
 */
function youngGenerationMiB(flag: string | undefined): number {
  const script = `
    const v8 = require('node:v8');
    if (process.env.FLAG) v8.setFlagsFromString(process.env.FLAG);
    // A long run's shape: steady allocation, a little of it alive at each scavenge.
    let kept = [];
    for (let i = 0; i < 2e6; i++) { kept.push({ i, s: 'x' + i }); if (kept.length > 20000) kept = []; }
    const space = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
    process.stdout.write(String(space.space_size / 1048576));`;
  // In the environment, not the arguments: node would take a V8 flag there as its own, at start-up.
  return Number(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', ...(flag === undefined ? {} : { FLAG: flag }) } }));
}

describe('the young generation of a long run', () => {
  it('stays at its starting size once the flag is set at run time, where it would otherwise grow', () => {
    const grown = youngGenerationMiB(undefined);
    const kept = youngGenerationMiB(youngGenerationFlag);
    expect(grown).toBeGreaterThanOrEqual(8);
    expect(kept).toBeLessThanOrEqual(4);
  });
});
