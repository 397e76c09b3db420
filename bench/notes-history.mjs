// Benchmark: `relctl notes` on two hostile-sized histories, side by side with `git log --no-merges`
// of the same range (the floor: reading the history at all), in the same run:
//   - one commit whose subject is 1 MB of one letter (target: relctl under 1 s);
//   - 10,000 ordinary conventional commits.
// A third row measures conventional-commits-parser on its own against the bounded view relctl
// gives it, for a subject of one repeated letter: the library's time grows with the cube of the
// length (the super-linear reference pattern, see src/core/notes/parser-view.ts).
// Needs a build. Usage: node bench/notes-history.mjs [runs]   (default 3; medians are compared)
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { median, timedRun } from './_lib.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = path.join(root, 'bin', 'relctl.js');

function gitIn(dir, env, args, input) {
  const r = spawnSync('git', ['-c', 'commit.gpgSign=false', '-c', 'tag.gpgSign=false', '-c', 'gc.auto=0', ...args], { cwd: dir, env, input, maxBuffer: 256 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`git ${args[0]} failed: ${r.stderr}`);
  return String(r.stdout).trim();
}

const pom = `<project><modelVersion>4.0.0</modelVersion><groupId>org.example</groupId><artifactId>demo</artifactId><version>1.0.2-SNAPSHOT</version></project>\n`;

/** A repository with demo-1.0.0, then `messages` as commits (one fast-import), then demo-1.0.1. */
async function history(base, name, env, messages) {
  const dir = path.join(base, name);
  spawnSync('mkdir', ['-p', dir]);
  await writeFile(path.join(dir, 'pom.xml'), pom);
  gitIn(dir, env, ['init', '-q', '-b', 'main']);
  gitIn(dir, env, ['add', '-A']);
  gitIn(dir, env, ['commit', '-q', '-m', 'initial']);
  gitIn(dir, env, ['tag', 'demo-1.0.0']);
  const head = gitIn(dir, env, ['rev-parse', 'HEAD']);
  const parts = messages.map((m, i) => {
    const data = Buffer.from(m);
    return Buffer.concat([Buffer.from(`commit refs/heads/main\ncommitter B <b@example.invalid> ${1700000000 + i} +0000\ndata ${data.length}\n`), data, Buffer.from(`\n${i === 0 ? `from ${head}\n` : ''}\n`)]);
  });
  gitIn(dir, env, ['fast-import', '--quiet'], Buffer.concat(parts));
  gitIn(dir, env, ['reset', '-q', '--hard', 'main']);
  gitIn(dir, env, ['tag', 'demo-1.0.1']);
  return dir;
}

async function sideBySide(dir, env, runs) {
  const relctl = [];
  const gitLog = [];
  for (let i = 0; i < runs; i++) {
    gitLog.push(await timedRun('git', ['log', '--no-merges', '--format=%H%x1f%B%x1e', 'demo-1.0.0..demo-1.0.1', '--'], { cwd: dir, env }));
    relctl.push(await timedRun('node', [bin, 'notes', '--offline', '--cwd', dir, '--release-version', '1.0.1', '--output', path.join(dir, '..', 'notes.md')], { cwd: dir, env }));
  }
  return { relctl: median(relctl), git: median(gitLog) };
}

async function parserAlone() {
  const { CommitParser } = await import('conventional-commits-parser');
  const { noteEntries } = await import(`${root}/dist/core/notes/commits.js`);
  const parser = new CommitParser({ issuePrefixes: ['#', /[A-Z][A-Z0-9]{1,9}-/], issuePrefixesCaseSensitive: true });
  const timed = (f) => {
    const times = [];
    for (let i = 0; i < 3; i++) {
      const t = performance.now();
      f();
      times.push(performance.now() - t);
    }
    return median(times);
  };
  // Warm both up first, so the first length does not pay for compiling the patterns.
  parser.parse('fix: warm up #1');
  noteEntries([{ sha: '0'.repeat(40), message: 'fix: warm up #1' }]);
  return [200, 400, 800].map((n) => {
    const subject = 'a'.repeat(n);
    return { n, alone: timed(() => parser.parse(subject)), bounded: timed(() => noteEntries([{ sha: '0'.repeat(40), message: subject }])) };
  });
}

function runsWanted() {
  // Under bench/run.mjs argv[2] is the name filter, not a count.
  const n = Number(process.argv[2] ?? process.env.BENCH_RUNS);
  return Number.isInteger(n) && n > 0 ? n : 3;
}

export default async function bench(runs = runsWanted()) {
  const base = await mkdtemp(path.join(os.tmpdir(), 'relctl-bench-notes-'));
  const env = { ...process.env, HOME: base, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: path.join(base, 'none'), GIT_AUTHOR_NAME: 'B', GIT_AUTHOR_EMAIL: 'b@example.invalid', GIT_COMMITTER_NAME: 'B', GIT_COMMITTER_EMAIL: 'b@example.invalid', CI: 'true', NO_COLOR: '1' };
  for (const k of Object.keys(env)) if (k.startsWith('RELCTL_')) delete env[k];
  try {
    const big = await history(base, 'one-mb-subject', env, [`feat: ${'a'.repeat(1_000_000)}\n`]);
    const many = await history(base, 'ten-thousand', env, Array.from({ length: 10_000 }, (_, i) => `${i % 3 === 0 ? 'feat' : 'fix'}(part${i % 7}): change ${i} (#${i % 97})\n\nBody of change ${i}.\n`));
    const a = await sideBySide(big, env, runs);
    const b = await sideBySide(many, env, runs);
    const p = await parserAlone();
    return [
      {
        name: 'notes, one commit with a 1 MB subject: relctl vs git log',
        ratio: a.relctl / a.git,
        detail: `relctl ${a.relctl.toFixed(2)} s (target < 1 s: ${a.relctl < 1 ? 'met' : 'MISSED'}) vs git log ${a.git.toFixed(3)} s (median of ${runs}; relctl includes node's start)`,
      },
      {
        name: 'notes, 10,000 commits: relctl vs git log',
        ratio: b.relctl / b.git,
        detail: `relctl ${b.relctl.toFixed(2)} s vs git log ${b.git.toFixed(3)} s (median of ${runs})`,
      },
      {
        name: 'one-letter subject: conventional-commits-parser alone vs relctl\'s bounded view',
        ratio: p[p.length - 1].alone / p[p.length - 1].bounded,
        detail: p.map((r) => `${r.n} chars ${r.alone.toFixed(1)} ms vs ${r.bounded.toFixed(2)} ms`).join('; '),
      },
    ];
  } finally {
    await rm(base, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const r of await bench()) console.log(`${r.name}: ${r.ratio.toFixed(2)}x (${r.detail})`);
}
