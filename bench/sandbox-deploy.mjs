#!/usr/bin/env node
/**
 * Benchmark: real Maven deploying a generated 200-module reactor to the sandbox vs to a tiny
 * node:http server that discards every PUT, side by side in one run (alternating runs, medians
 * compared). Target: the sandbox costs at most 1.15x. Run alone with `node bench/sandbox-deploy.mjs`
 * (after `npm run build`), or through bench/run.mjs.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { debianMirrorSettings, median, startDiscard, timedRun } from './_lib.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MODULES = Number(process.env.BENCH_MODULES ?? 200);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const localRepo = path.join(os.tmpdir(), 'relctl-bench-m2');

const settingsXml = debianMirrorSettings('sandbox', 'sandbox');

const pins = [
  ['maven-resources-plugin', '3.3.0'],
  ['maven-compiler-plugin', '3.10.1'],
  ['maven-surefire-plugin', '2.22.3'],
  ['maven-jar-plugin', '3.3.0'],
  ['maven-install-plugin', '3.1.0'],
  ['maven-deploy-plugin', '3.0.0'],
]
  .map(([a, v]) => `<plugin><groupId>org.apache.maven.plugins</groupId><artifactId>${a}</artifactId><version>${v}</version></plugin>`)
  .join('');

function generate(root) {
  const modules = Array.from({ length: MODULES }, (_, i) => `m${String(i + 1).padStart(3, '0')}`);
  writeFileSync(
    path.join(root, 'pom.xml'),
    `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>org.example.bench</groupId><artifactId>bench-parent</artifactId><version>1.0.0</version><packaging>pom</packaging>
  <modules>${modules.map((m) => `<module>${m}</module>`).join('')}</modules>
  <build><pluginManagement><plugins>${pins}</plugins></pluginManagement></build>
</project>
`,
  );
  for (const m of modules) {
    mkdirSync(path.join(root, m));
    writeFileSync(
      path.join(root, m, 'pom.xml'),
      `<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>
  <parent><groupId>org.example.bench</groupId><artifactId>bench-parent</artifactId><version>1.0.0</version></parent>
  <artifactId>${m}</artifactId></project>
`,
    );
  }
}

/** Async on purpose: both servers live in this process, so the event loop must keep serving. */
function deploy(project, settings, url) {
  return timedRun(
    'mvn',
    ['-B', '-q', '-s', settings, `-Dmaven.repo.local=${localRepo}`, `-DaltDeploymentRepository=central::${url}`, 'deploy'],
    { cwd: project, env: { ...process.env, MAVEN_OPTS: '-Xmx768m' } },
  );
}

export default async function bench() {
  const { startSandbox } = await import(pathToFileURL(path.join(repoRoot, 'dist', 'sandbox', 'server.js')).href);
  const work = mkdtempSync(path.join(os.tmpdir(), 'relctl-bench-deploy-'));
  const sandbox = await startSandbox();
  const discard = await startDiscard();
  try {
    const project = path.join(work, 'reactor');
    mkdirSync(project);
    generate(project);
    const settings = path.join(work, 'settings.xml');
    writeFileSync(settings, settingsXml);
    const sandboxUrl = `${sandbox.urls.stagingApiUrl}/service/local/staging/deploy/maven2/`;
    const reset = () => fetch(`${new URL(sandbox.urls.stagingApiUrl).origin}/sandbox/reset`, { method: 'POST', headers: { 'x-sandbox-token': sandbox.controlToken } });
    await deploy(project, settings, discard.url); // warm-up: fills the local repository, compiles once
    const times = { sandbox: [], discard: [] };
    for (let i = 0; i < RUNS; i++) {
      // Alternate which goes first so drift on a shared machine hits both sides alike.
      const order = i % 2 === 0 ? ['sandbox', 'discard'] : ['discard', 'sandbox'];
      for (const side of order) {
        if (side === 'sandbox') await reset();
        times[side].push(await deploy(project, settings, side === 'sandbox' ? sandboxUrl : discard.url));
      }
    }
    const ratio = median(times.sandbox) / median(times.discard);
    const fmt = (xs) => xs.map((x) => x.toFixed(1)).join('/');
    return {
      name: 'sandbox-deploy',
      ratio,
      detail: `mvn deploy of ${MODULES} modules: sandbox ${median(times.sandbox).toFixed(2)} s (${fmt(times.sandbox)}) vs discarding server ${median(times.discard).toFixed(2)} s (${fmt(times.discard)}); target <= 1.15x`,
    };
  } finally {
    await sandbox.close();
    await discard.close();
    rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const r = await bench();
  console.log(`${r.name}: ${r.ratio.toFixed(2)}x  ${r.detail}`);
}
