#!/usr/bin/env node
/**
 * Benchmark: `relctl fleet audit --offline` over warm clones vs the alternative a maintainer has
 * today, `relctl preflight --offline` run once in each of the same clones (one node start each),
 * side by side in one run. Two fleets of generated repositories (a shared parent and children
 * that inherit it, some multi-module): 20 (issue 36's goal: within 10 s on 2 cores) and 500,
 * whose peak memory shows whether memory stays flat in the number of repositories; and each audit
 * against its floor, the git work alone (bench/fleet-floor.mjs). BENCH_FLEET_RUNS sets the runs (3).
 * Run alone with `node bench/fleet.mjs` (after `npm run build`), or through bench/run.mjs.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { benchEnv, measuredRun, median, quick } from './_lib.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const relctl = path.join(repoRoot, 'bin', 'relctl.js');
const SMALL = 20;
const LARGE = Number(process.env.BENCH_FLEET_LARGE ?? (quick ? 100 : 500));
const RUNS = Number(process.env.BENCH_FLEET_RUNS ?? (quick ? 1 : 3));
const staging = 'https://ossrh-staging-api.central.sonatype.com/service/local/staging/deploy/maven2/';

const metadata = `<description>Generated.</description><url>https://example.org/f</url>
  <licenses><license><name>Apache-2.0</name><url>https://www.apache.org/licenses/LICENSE-2.0.txt</url></license></licenses>
  <developers><developer><name>F</name><organization>Example</organization><organizationUrl>https://example.org/c</organizationUrl></developer></developers>
  <scm><url>https://example.org/git/f</url></scm>`;

const parentPom = `<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>
  <groupId>org.example.fleet</groupId><artifactId>fleet-parent</artifactId><version>7-SNAPSHOT</version><packaging>pom</packaging>
  <name>Fleet parent</name>${metadata}
  <distributionManagement><repository><id>central</id><url>${staging}</url></repository></distributionManagement>
</project>
`;

function childPoms(i) {
  const id = `lib${String(i).padStart(4, '0')}`;
  const parent = '<parent><groupId>org.example.fleet</groupId><artifactId>fleet-parent</artifactId><version>7-SNAPSHOT</version></parent>';
  // Every fifth repository is a small reactor: a root and two modules.
  if (i % 5 !== 0) return { 'pom.xml': `<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>${parent}<artifactId>${id}</artifactId><version>1.0.0-SNAPSHOT</version><name>${id}</name></project>\n` };
  const mod = (m) => `<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion><parent><groupId>org.example.fleet</groupId><artifactId>${id}</artifactId><version>1.0.0-SNAPSHOT</version></parent><artifactId>${id}-${m}</artifactId><name>${id} ${m}</name></project>\n`;
  return {
    'pom.xml': `<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>${parent}<artifactId>${id}</artifactId><version>1.0.0-SNAPSHOT</version><packaging>pom</packaging><name>${id}</name><modules><module>core</module><module>web</module></modules></project>\n`,
    'core/pom.xml': mod('core'),
    'web/pom.xml': mod('web'),
  };
}

const gitEnv = (home) => ({ ...benchEnv(), HOME: home, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_AUTHOR_NAME: 'b', GIT_AUTHOR_EMAIL: 'b@example.org', GIT_COMMITTER_NAME: 'b', GIT_COMMITTER_EMAIL: 'b@example.org' });

/** `count` repositories as folders with one commit each (the fleet clones them by local path). */
function generate(root, count, env) {
  const lines = [];
  for (let i = 0; i < count; i++) {
    const name = i === 0 ? 'fleet/fleet-parent' : `fleet/lib${String(i).padStart(4, '0')}`;
    const dir = path.join(root, 'src', name);
    const files = i === 0 ? { 'pom.xml': parentPom } : childPoms(i);
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      writeFileSync(path.join(dir, file), text);
    }
    execFileSync('sh', ['-c', 'git init -q -b main && git add -A && git commit -q -m init'], { cwd: dir, env });
    lines.push(`${name} ${dir}`);
  }
  writeFileSync(path.join(root, 'repos.txt'), lines.join('\n') + '\n');
}

async function measure(count) {
  const root = mkdtempSync(path.join(os.tmpdir(), `relctl-bench-fleet-${count}-`));
  try {
    const home = path.join(root, 'home');
    mkdirSync(home);
    const env = gitEnv(home);
    generate(root, count, env);
    const workdir = path.join(root, 'work');
    const fleetArgs = [relctl, 'fleet', 'audit', '--offline', '--repos', path.join(root, 'repos.txt'), '--workdir', workdir, '--json'];
    const cold = await measuredRun('node', fleetArgs, { env });
    const fleet = [];
    const floor = [];
    const loop = [];
    let loopPeak = 0;
    for (let run = 0; run < RUNS; run++) {
      fleet.push(await measuredRun('node', fleetArgs, { env }));
      // The floor, side by side: the git work alone (fetch, list and read the build files).
      floor.push((await measuredRun('node', [path.join(repoRoot, 'bench', 'fleet-floor.mjs'), path.join(root, 'repos.txt'), workdir], { env })).seconds);
      // The alternative: one `relctl preflight` per clone, one after the other.
      let seconds = 0;
      for (const line of execFileSync('cat', [path.join(root, 'repos.txt')], { encoding: 'utf8' }).trim().split('\n')) {
        const name = line.split(' ')[0];
        const r = await measuredRun('node', [relctl, 'preflight', '--offline', '--skip', 'credentials', 'signing', '--json'], { env, cwd: path.join(workdir, ...name.split('/')) });
        seconds += r.seconds;
        loopPeak = Math.max(loopPeak, r.peakMiB);
      }
      loop.push(seconds);
    }
    const verdicts = JSON.parse(fleet[0].stdout).summary.verdicts;
    return { count, cold: cold.seconds, warm: median(fleet.map((f) => f.seconds)), peakMiB: Math.max(...fleet.map((f) => f.peakMiB)), floor: median(floor), loop: median(loop), loopPeak, verdicts };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

export default async function bench() {
  const small = await measure(SMALL);
  const large = await measure(LARGE);
  const row = (m) => `${m.count} repos: fleet ${m.warm.toFixed(2)} s warm (${m.cold.toFixed(2)} s cold clones), peak ${m.peakMiB} MiB; preflight per repo ${m.loop.toFixed(2)} s, peak ${m.loopPeak} MiB each; ready ${m.verdicts.ready}/${m.count}`;
  return [
    { name: `fleet audit ${SMALL} repos vs ${SMALL} preflights`, ratio: small.warm / small.loop, goal: `< 1x, and within 10 s (${small.warm.toFixed(2)} s)`, detail: row(small) },
    { name: `fleet audit ${LARGE} repos vs ${LARGE} preflights`, ratio: large.warm / large.loop, goal: '< 1x', detail: row(large) },
    { name: `fleet audit ${SMALL} repos vs its floor (the git work alone)`, ratio: small.warm / small.floor, goal: 'as near 1x as the audit allows', detail: `floor ${small.floor.toFixed(2)} s` },
    { name: `fleet audit ${LARGE} repos vs its floor (the git work alone)`, ratio: large.warm / large.floor, goal: 'as near 1x as the audit allows', detail: `floor ${large.floor.toFixed(2)} s` },
    { name: `fleet memory ${LARGE} vs ${SMALL} repos`, ratio: large.peakMiB / small.peakMiB, goal: `within 1.5x (far below ${LARGE / SMALL}x)`, detail: `peak ${large.peakMiB} MiB vs ${small.peakMiB} MiB; one preflight alone peaks at ${small.loopPeak} MiB` },
  ];
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  for (const r of await bench()) console.log(`${r.name}: ${r.ratio.toFixed(2)}x (goal ${r.goal}) ${r.detail}`);
}
