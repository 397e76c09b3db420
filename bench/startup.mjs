#!/usr/bin/env node
// Cold start: `relctl --version`, `relctl --help` and `relctl preflight --offline` of the small
// bundled example (copied into a git repository of its own, as a user's project is, rather than
// inside this repository, whose whole tree git status would walk), each against a bare `node -e 0`, interleaved so both see the same machine load;
// medians, ratio relctl/node (goal: within 1.4x, issue 30). Both run in benchEnv (bench/_lib.mjs:
// no NODE_EXTRA_CA_CERTS, no NODE_OPTIONS); when the caller's environment has them, each case is
// measured in it too and reported beside (not by bench:quick). A last row, with no goal, is the
// floor of any preflight (bench/_preflight-floor.cjs): what node and git alone take for the same
// project, so the table shows which part of preflight's ratio is relctl's. Needs a build.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { asGiven, benchEnv, median, quick, startTaxed } from './_lib.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = path.join(repoRoot, 'bin', 'relctl.js');
const GOAL = 1.4;
const floorScript = path.join(repoRoot, 'bench', '_preflight-floor.cjs');

const cleanEnv = benchEnv({ CI: 'true' });
const givenEnv = asGiven(cleanEnv);

function timeOnce(args, okStatus = [0], env = cleanEnv) {
  const start = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'], env });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (!okStatus.includes(r.status)) throw new Error(`node ${args.join(' ')} exited ${r.status}: ${String(r.stderr).trim().slice(0, 300)}`);
  return ms;
}

function demoRepository() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'relctl-bench-demo-'));
  cpSync(path.join(repoRoot, 'examples', 'demo'), dir, { recursive: true });
  const env = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_AUTHOR_NAME: 'b', GIT_AUTHOR_EMAIL: 'b@example.invalid', GIT_COMMITTER_NAME: 'b', GIT_COMMITTER_EMAIL: 'b@example.invalid' };
  for (const args of [['init', '-q', '-b', 'main'], ['add', '-A'], ['-c', 'commit.gpgSign=false', 'commit', '-q', '-m', 'demo']]) execFileSync('git', args, { cwd: dir, env });
  return dir;
}

const cases = (demo) => [
  { label: '--version', args: [bin, '--version'] },
  { label: '--help', args: [bin, '--help'] },
  // The demo's findings make preflight exit 1; the time to say so is what counts.
  { label: 'preflight --offline (examples/demo)', args: [bin, 'preflight', '--offline', '--cwd', demo], ok: [0, 1] },
  // Not relctl: what any preflight must do at the least (node, a git child, a read of pom.xml),
  // so the table shows how much of preflight's ratio is relctl's own and how much is the floor.
  { label: 'preflight floor', args: [floorScript, demo], goal: 'reference', name: 'startup: floor of any preflight (node + git status and tags + read pom.xml, no checks)' },
];

function measure(c, runs, env, label) {
  const bare = ['-e', '0'];
  // Warm the file-system cache for both, untimed.
  timeOnce(c.args, c.ok, env);
  timeOnce(bare, [0], env);
  const a = [];
  const b = [];
  for (let i = 0; i < runs; i++) {
    // Alternate which goes first so a drifting machine load hits both sides alike.
    if (i % 2 === 0) {
      a.push(timeOnce(c.args, c.ok, env));
      b.push(timeOnce(bare, [0], env));
    } else {
      b.push(timeOnce(bare, [0], env));
      a.push(timeOnce(c.args, c.ok, env));
    }
  }
  const ma = median(a);
  const mb = median(b);
  const ratio = ma / mb;
  return {
    name: `${c.name ?? `startup: relctl ${c.label}`}${label}`,
    ratio,
    goal: c.goal ?? `<= ${GOAL}x`,
    detail: `${ma.toFixed(0)} ms vs node -e 0 ${mb.toFixed(0)} ms (median of ${runs}, interleaved, spread ${Math.min(...a).toFixed(0)}-${Math.max(...a).toFixed(0)} vs ${Math.min(...b).toFixed(0)}-${Math.max(...b).toFixed(0)} ms${c.goal === undefined ? `; goal <= ${GOAL}x: ${ratio <= GOAL ? 'met' : 'MISSED'}` : ''})`,
  };
}

export default async function benchStartup(runs = Number(process.env.BENCH_RUNS ?? (quick ? 8 : 20))) {
  if (!existsSync(path.join(repoRoot, 'dist', 'cli.js'))) throw new Error('dist/ is missing: run `npm run build` first');
  const rows = [];
  const demo = demoRepository();
  try {
    for (const c of cases(demo)) {
      rows.push(measure(c, runs, cleanEnv, ''));
      // The caller's environment as it is, for comparison (fewer runs: it is the second figure).
      if (startTaxed && !quick && c.goal === undefined) rows.push(measure(c, Math.max(4, runs >> 1), givenEnv, ' [env as given: NODE_EXTRA_CA_CERTS/NODE_OPTIONS set]'));
    }
  } finally {
    rmSync(demo, { recursive: true, force: true });
  }
  return rows;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  for (const r of await benchStartup()) console.log(`${r.name}: ${r.ratio.toFixed(2)}x  ${r.detail}`);
}
