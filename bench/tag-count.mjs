#!/usr/bin/env node
/**
 * Benchmark: tags at any count (issue 41 item 7). The same repository with 40,000 tags vs with 100,
 * side by side in one run: `relctl preflight --offline` in it, and `relctl fleet audit --offline`
 * of a two-repository fleet (it and a child inheriting from it, warm clones). The tags are
 * `build-N-rN`, a CI's build tags: none is a release tag in a form relctl knows, so the tag format
 * is learned from all of them (once quadratic: 10,000 tags made preflight take 31 s, 40,000 a fleet
 * audit 216 s). Goal: 40,000 tags within 2 s of 100.
 * Run alone with `node bench/tag-count.mjs` (after `npm run build`), or through bench/run.mjs.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { benchEnv, measuredRun, median, quick } from './_lib.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const relctl = path.join(repoRoot, 'bin', 'relctl.js');
const FEW = 100;
const MANY = Number(process.env.BENCH_TAGS ?? (quick ? 10_000 : 40_000));
const RUNS = quick ? 1 : 3;
const staging = 'https://ossrh-staging-api.central.sonatype.com/service/local/staging/deploy/maven2/';

const metadata = `<description>Generated.</description><url>https://example.org/t</url>
  <licenses><license><name>Apache-2.0</name><url>https://www.apache.org/licenses/LICENSE-2.0.txt</url></license></licenses>
  <developers><developer><name>T</name><organization>Example</organization><organizationUrl>https://example.org/c</organizationUrl></developer></developers>
  <scm><url>https://example.org/git/t</url></scm>`;

const parentPom = `<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>
  <groupId>org.example.tags</groupId><artifactId>tagged-parent</artifactId><version>7-SNAPSHOT</version><packaging>pom</packaging>
  <name>Tagged parent</name>${metadata}
  <distributionManagement><repository><id>central</id><url>${staging}</url></repository></distributionManagement>
</project>
`;
const childPom = `<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>
  <parent><groupId>org.example.tags</groupId><artifactId>tagged-parent</artifactId><version>7-SNAPSHOT</version></parent>
  <artifactId>tagged-child</artifactId><version>1.0.0-SNAPSHOT</version><name>Tagged child</name>
</project>
`;

const gitEnv = (home) => ({ ...benchEnv(), HOME: home, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_AUTHOR_NAME: 'b', GIT_AUTHOR_EMAIL: 'b@example.org', GIT_COMMITTER_NAME: 'b', GIT_COMMITTER_EMAIL: 'b@example.org' });

function commit(dir, files, env) {
  mkdirSync(dir, { recursive: true });
  for (const [file, text] of Object.entries(files)) writeFileSync(path.join(dir, file), text);
  execFileSync('sh', ['-c', 'git init -q -b main && git add -A && git commit -q -m init'], { cwd: dir, env });
}

/** A parent with `count` tags `build-N-rN` on its one commit (packed, as a clone has them) and a child; their repos file. */
function fleetWith(root, count, env) {
  const parent = path.join(root, 'src', 'tags', 'tagged-parent');
  const child = path.join(root, 'src', 'tags', 'tagged-child');
  commit(parent, { 'pom.xml': parentPom }, env);
  commit(child, { 'pom.xml': childPom }, env);
  const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: parent, env, encoding: 'utf8' }).trim();
  const refs = Array.from({ length: count }, (_, i) => `create refs/tags/build-${i + 1}-r${i + 1} ${head}\n`).join('');
  execFileSync('git', ['update-ref', '--stdin'], { cwd: parent, env, input: refs });
  execFileSync('git', ['pack-refs', '--all'], { cwd: parent, env });
  const repos = path.join(root, 'repos.txt');
  writeFileSync(repos, `tags/tagged-parent ${parent}\ntags/tagged-child ${child}\n`);
  return { parent, repos };
}

export default async function bench() {
  const root = mkdtempSync(path.join(os.tmpdir(), 'relctl-bench-tags-'));
  try {
    const home = path.join(root, 'home');
    mkdirSync(home);
    const env = gitEnv(home);
    const sides = [FEW, MANY].map((count) => ({ count, ...fleetWith(path.join(root, String(count)), count, env), workdir: path.join(root, String(count), 'work'), preflight: [], fleet: [] }));
    const preflightArgs = [relctl, 'preflight', '--offline', '--skip', 'credentials', 'signing', '--json'];
    const fleetArgs = (s) => [relctl, 'fleet', 'audit', '--offline', '--repos', s.repos, '--workdir', s.workdir, '--json'];
    // Clones first (cold), then the warm runs, the two sides interleaved so that the machine's load falls on both.
    for (const s of sides) await measuredRun('node', fleetArgs(s), { env });
    for (let run = 0; run < RUNS; run++) {
      for (const s of sides) {
        s.preflight.push((await measuredRun('node', preflightArgs, { env, cwd: s.parent })).seconds);
        s.fleet.push((await measuredRun('node', fleetArgs(s), { env })).seconds);
      }
    }
    const [few, many] = sides.map((s) => ({ preflight: median(s.preflight), fleet: median(s.fleet) }));
    const row = (what) => `${MANY} tags ${many[what].toFixed(2)} s vs ${FEW} tags ${few[what].toFixed(2)} s: ${(many[what] - few[what]).toFixed(2)} s more (median of ${RUNS})`;
    return [
      { name: `preflight ${MANY} tags vs ${FEW}`, ratio: many.preflight / few.preflight, goal: 'within 2 s', detail: row('preflight') },
      { name: `fleet audit ${MANY} tags vs ${FEW}`, ratio: many.fleet / few.fleet, goal: 'within 2 s', detail: `2 repositories; ${row('fleet')}` },
    ];
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  for (const r of await bench()) console.log(`${r.name}: ${r.ratio.toFixed(2)}x (goal ${r.goal}) ${r.detail}`);
}
