#!/usr/bin/env node
/**
 * Benchmark: `relctl preflight --offline` vs `mvn -o -q validate` on the same generated
 * 1000-module reactor, side by side in one run (a few alternating runs each, medians compared).
 * Run alone with `node bench/preflight-maven.mjs` (after `npm run build`), or through bench/run.mjs.
 * Both run in benchEnv (bench/_lib.mjs: no NODE_EXTRA_CA_CERTS, which costs every node start a
 * certificate load, no NODE_OPTIONS); when the caller's environment has them, relctl is also timed
 * in it, interleaved, and that ratio is reported beside.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { asGiven, benchEnv, debianMirrorSettings, median, quick, startTaxed } from './_lib.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const relctl = path.join(repoRoot, 'bin', 'relctl.js');
const MODULES = 1000;
const RUNS = Number(process.env.BENCH_RUNS ?? (quick ? 3 : 5));
const GOAL = 12; // times faster than Maven's model build (issue 30)
const staging = 'https://ossrh-staging-api.central.sonatype.com/service/local/staging/deploy/maven2/';

// The settings from reference/maven-offline.md: Debian's packaged plugins as a file:// mirror.
const settingsXml = debianMirrorSettings('bench-user', 'bench-pass');

function generate(root) {
  const modules = Array.from({ length: MODULES }, (_, i) => `m${String(i + 1).padStart(4, '0')}`);
  writeFileSync(
    path.join(root, 'pom.xml'),
    `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>org.example.bench</groupId>
  <artifactId>bench-parent</artifactId>
  <version>1.0.0-SNAPSHOT</version>
  <packaging>pom</packaging>
  <name>Bench</name>
  <description>A generated ${MODULES}-module reactor.</description>
  <url>https://example.org/bench</url>
  <licenses><license><name>Apache-2.0</name></license></licenses>
  <developers><developer><name>Bench</name><organization>Example</organization><organizationUrl>https://example.org/c</organizationUrl></developer></developers>
  <scm><url>https://example.org/git/bench</url></scm>
  <distributionManagement><repository><id>central</id><url>${staging}</url></repository></distributionManagement>
  <modules>
${modules.map((m) => `    <module>${m}</module>`).join('\n')}
  </modules>
</project>
`,
  );
  for (const m of modules) {
    mkdirSync(path.join(root, m));
    writeFileSync(
      path.join(root, m, 'pom.xml'),
      `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <parent><groupId>org.example.bench</groupId><artifactId>bench-parent</artifactId><version>1.0.0-SNAPSHOT</version></parent>
  <artifactId>${m}</artifactId>
  <name>${m}</name>
</project>
`,
    );
  }
}

function time(cmd, args, options) {
  const start = process.hrtime.bigint();
  const r = spawnSync(cmd, args, { ...options, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  return { ms, status: r.status, stdout: r.stdout, stderr: r.stderr, error: r.error };
}


export default async function benchPreflightMaven() {
  const mvnCheck = spawnSync('mvn', ['-v'], { encoding: 'utf8' });
  if (mvnCheck.error || mvnCheck.status !== 0) throw new Error('mvn is not installed (apt-get install maven); the benchmark compares against it.');
  const work = mkdtempSync(path.join(os.tmpdir(), 'relctl-bench-maven-'));
  try {
    const tree = path.join(work, 'tree');
    mkdirSync(tree);
    generate(tree);
    const settings = path.join(work, 'settings.xml');
    writeFileSync(settings, settingsXml);
    const home = path.join(work, 'home');
    mkdirSync(home);
    const gitEnv = { ...benchEnv(), HOME: home, GIT_CONFIG_NOSYSTEM: '1', GIT_AUTHOR_NAME: 'b', GIT_AUTHOR_EMAIL: 'b@example.invalid', GIT_COMMITTER_NAME: 'b', GIT_COMMITTER_EMAIL: 'b@example.invalid' };
    for (const args of [['init', '-q', '-b', 'main'], ['add', '-A'], ['-c', 'commit.gpgSign=false', 'commit', '-q', '-m', 'bench']]) {
      execFileSync('git', args, { cwd: tree, env: gitEnv });
    }
    const relctlArgs = [relctl, 'preflight', '--offline', '--json', '--cwd', tree, '--settings', settings, '--local-repo', path.join(work, 'm2')];
    const mvnArgs = ['-o', '-q', '-B', '-Daether.offline.protocols=file', '-s', settings, `-Dmaven.repo.local=${path.join(work, 'm2')}`, 'validate'];
    const env = { ...gitEnv, CI: 'true', NO_COLOR: '1' };

    // One warm-up each (file cache, JIT-less JVM class data), then alternating measured runs.
    const warmRelctl = time(process.execPath, relctlArgs, { env });
    const warmMvn = time('mvn', mvnArgs, { cwd: tree, env });
    if (warmMvn.status !== 0) throw new Error(`mvn validate failed:\n${warmMvn.stdout}${warmMvn.stderr}`);
    const report = JSON.parse(warmRelctl.stdout);
    const mavenCodes = report.findings.filter((f) => f.module !== undefined).map((f) => f.code);
    const givenEnv = asGiven(env);
    const relctlMs = [];
    const givenMs = [];
    const mvnMs = [];
    for (let i = 0; i < RUNS; i++) {
      relctlMs.push(time(process.execPath, relctlArgs, { env }).ms);
      mvnMs.push(time('mvn', mvnArgs, { cwd: tree, env }).ms);
      if (startTaxed) givenMs.push(time(process.execPath, relctlArgs, { env: givenEnv }).ms);
    }
    const r = median(relctlMs);
    const m = median(mvnMs);
    const ratio = m / r;
    // On a shared machine single runs swing by 3x; the best runs show the cost without the noise.
    const bestRatio = Math.min(...mvnMs) / Math.min(...relctlMs);
    const detail =
      `${MODULES}-module reactor, ${RUNS} runs each: relctl preflight --offline median ${r.toFixed(0)} ms ` +
      `(${relctlMs.map((x) => x.toFixed(0)).join('/')}), mvn -o -q validate median ${m.toFixed(0)} ms ` +
      `(${mvnMs.map((x) => x.toFixed(0)).join('/')}); relctl is ${ratio.toFixed(1)}x faster by medians, ` +
      `${bestRatio.toFixed(1)}x by best runs (goal ${GOAL}x: ${ratio >= GOAL ? 'met' : 'MISSED'})` +
      (startTaxed ? `; in the environment as given (NODE_EXTRA_CA_CERTS/NODE_OPTIONS set) relctl's median is ${median(givenMs).toFixed(0)} ms, ${(m / median(givenMs)).toFixed(1)}x` : '') +
      (mavenCodes.length > 0 ? `; note: module findings on the generated tree: ${[...new Set(mavenCodes)].join(', ')}` : '');
    return { name: 'preflight-maven', ratio, goal: `>= ${GOAL}x faster`, detail };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const result = await benchPreflightMaven();
  console.log(`${result.name}: ${result.detail}`);
  console.log(`ratio ${result.ratio.toFixed(1)}`);
}
