#!/usr/bin/env node
// Cold start: `relctl --version` against a bare `node -e 0`, interleaved so both see the same
// machine load; medians, ratio relctl/node (target: within 2x). Needs a build (npm run bench does it).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { median } from './_lib.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = path.join(repoRoot, 'bin', 'relctl.js');

function timeOnce(args) {
  const start = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, CI: 'true' } });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status !== 0) throw new Error(`node ${args.join(' ')} exited ${r.status}: ${String(r.stderr).trim().slice(0, 300)}`);
  return ms;
}

export default async function benchStartup(runs = Number(process.env.BENCH_RUNS ?? 20)) {
  if (!existsSync(path.join(repoRoot, 'dist', 'cli.js'))) throw new Error('dist/ is missing: run `npm run build` first');
  const relctl = [bin, '--version'];
  const bare = ['-e', '0'];
  // Warm the file-system cache for both, untimed.
  timeOnce(relctl);
  timeOnce(bare);
  const a = [];
  const b = [];
  for (let i = 0; i < runs; i++) {
    // Alternate which goes first so a drifting machine load hits both sides alike.
    if (i % 2 === 0) {
      a.push(timeOnce(relctl));
      b.push(timeOnce(bare));
    } else {
      b.push(timeOnce(bare));
      a.push(timeOnce(relctl));
    }
  }
  const ma = median(a);
  const mb = median(b);
  const ratio = ma / mb;
  return {
    name: 'startup',
    ratio,
    detail: `relctl --version ${ma.toFixed(0)} ms vs node -e 0 ${mb.toFixed(0)} ms (median of ${runs}, interleaved; target <= 2x: ${ratio <= 2 ? 'met' : 'MISSED'})`,
  };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const r = await benchStartup();
  console.log(`${r.name}: ${r.ratio.toFixed(2)}x  ${r.detail}`);
}
