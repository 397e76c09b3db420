#!/usr/bin/env node
/**
 * Benchmark: a whole `relctl release` of the e2e fixture (parent, jar, war; the REAL
 * maven-release-plugin and maven-gpg-plugin from .cache/m2, see scripts/maven-cache.sh) to the
 * sandbox, against the same Maven release run by hand (the same release-plugin invocations) to a
 * server that discards every PUT, alternating, medians compared. Also reports the share of
 * relctl's wall time spent outside Maven (a PATH wrapper times every mvn relctl starts; the prep's
 * `mvn install` counts as Maven). Target: under 5%. Run alone with `node bench/release-real.mjs`
 * (after `npm run build` and scripts/maven-cache.sh), or through bench/run.mjs.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { median, startDiscard, timedRun } from './_lib.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const cache = path.join(repoRoot, '.cache', 'm2');
const fixture = path.join(repoRoot, 'test', 'fixtures', 'maven-release');
const versions = Object.fromEntries(
  readFileSync(path.join(fixture, 'plugin-versions.properties'), 'utf8')
    .split('\n')
    .filter((l) => /^[A-Z_]+=/.test(l))
    .map((l) => l.split('=').map((x) => x.trim())),
);
const fill = (text, values) => text.replace(/@([A-Z_]+)@/g, (m, k) => values[k] ?? m);

/** A fresh copy of the fixture reactor in a git repository with a bare remote; its env. */
function project(work, name, staging, key) {
  const base = path.join(work, name);
  const home = path.join(base, 'home');
  mkdirSync(path.join(home, '.m2'), { recursive: true });
  const group = `org.example.bench.${name.replace(/[^a-z0-9]/g, '')}`;
  const values = { ...versions, GROUP: group, REMOTE: path.join(base, 'remote.git'), STAGING: staging, BUILD: '' };
  const parentDir = path.join(cache, ...`${group}.eco`.split('.'), 'eco-parent', '7');
  mkdirSync(parentDir, { recursive: true });
  writeFileSync(path.join(parentDir, 'eco-parent-7.pom'), fill(readFileSync(path.join(fixture, 'eco-parent', 'pom.xml'), 'utf8'), values));
  const dir = path.join(base, 'project');
  cpSync(path.join(fixture, 'project'), dir, { recursive: true });
  for (const rel of readdirSync(dir, { recursive: true }).filter((f) => f.endsWith('pom.xml'))) {
    writeFileSync(path.join(dir, rel), fill(readFileSync(path.join(dir, rel), 'utf8'), values));
  }
  writeFileSync(path.join(dir, '.gitignore'), 'target/\n');
  const settings = path.join(home, '.m2', 'settings.xml');
  writeFileSync(settings, '<settings><servers><server><id>central</id><username>sandbox</username><password>sandbox</password></server></servers></settings>\n');
  const env = {
    ...process.env,
    HOME: home,
    GNUPGHOME: key.home,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: path.join(home, 'none'),
    GIT_AUTHOR_NAME: 'Bench',
    GIT_AUTHOR_EMAIL: 'bench@example.invalid',
    GIT_COMMITTER_NAME: 'Bench',
    GIT_COMMITTER_EMAIL: 'bench@example.invalid',
    MAVEN_OPTS: '-Xmx512m',
  };
  const git = (cwd, ...args) => execFileSync('git', args, { cwd, env, stdio: 'ignore' });
  git(work, 'init', '-q', '--bare', '-b', 'main', values.REMOTE);
  git(work, 'init', '-q', '-b', 'main', dir);
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'initial');
  git(dir, 'remote', 'add', 'origin', values.REMOTE);
  git(dir, 'push', '-q', '-u', 'origin', 'main');
  return { dir, env, settings, group };
}

/** A `mvn` first on PATH that appends each run's seconds to a log, then the real Maven's exit code. */
function timingWrapper(work) {
  const bin = path.join(work, 'bin');
  mkdirSync(bin, { recursive: true });
  const real = execFileSync('bash', ['-c', 'command -v mvn'], { encoding: 'utf8' }).trim();
  writeFileSync(
    path.join(bin, 'mvn'),
    `#!/usr/bin/env bash\ns=$(date +%s%N); "${real}" "$@"; rc=$?; e=$(date +%s%N); echo $(( (e - s) / 1000000 )) >> "$BENCH_MVN_LOG"; exit $rc\n`,
  );
  chmodSync(path.join(bin, 'mvn'), 0o755);
  return bin;
}

async function publishKey(sandbox, key) {
  const post = (url, body) => fetch(url, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }).then((r) => r.json());
  const up = await post(`${sandbox.urls.keyserverUrl}/vks/v1/upload`, { keytext: key.armored });
  await post(`${sandbox.urls.keyserverUrl}/vks/v1/request-verify`, { token: up.token, addresses: [key.email] });
  const mails = await (await fetch(`${new URL(sandbox.urls.keyserverUrl).origin}/sandbox/mail`)).json();
  await fetch(mails.filter((m) => m.to === key.email).pop().link);
}

function throwawayKey(work) {
  const home = mkdtempSync(path.join(os.tmpdir(), 'relctl-bgpg-'));
  const email = 'bench@example.invalid';
  const gpg = (...args) => execFileSync('gpg', ['--batch', '--no-tty', ...args], { env: { ...process.env, GNUPGHOME: home }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  gpg('--passphrase', '', '--quick-gen-key', `bench <${email}>`, 'ed25519', 'sign', 'never');
  return { home, email, armored: gpg('--armor', '--export'), cleanup: () => execFileSync('gpgconf', ['--kill', 'gpg-agent'], { env: { ...process.env, GNUPGHOME: home } }) };
}

export default async function bench() {
  const { startSandbox } = await import(pathToFileURL(path.join(repoRoot, 'dist', 'sandbox', 'server.js')).href);
  const work = mkdtempSync(path.join(os.tmpdir(), 'relctl-bench-release-'));
  const seed = path.join(work, 'seed');
  mkdirSync(seed);
  const sandbox = await startSandbox({ seedRepo: seed });
  const discard = await startDiscard();
  const discardBase = discard.url.replace(/\/service\/local\/staging\/deploy\/maven2\/$/, '');
  const key = throwawayKey(work);
  const bin = timingWrapper(work);
  const times = { relctl: [], maven: [], share: [] };
  try {
    await publishKey(sandbox, key);
    for (let i = 0; i < RUNS; i++) {
      for (const side of i % 2 === 0 ? ['relctl', 'maven'] : ['maven', 'relctl']) {
        const p = project(work, `${side}${i}`, side === 'relctl' ? sandbox.urls.stagingApiUrl : discardBase, key);
        if (side === 'relctl') {
          // The ecosystem parent is "published" in the sandbox, as on Central.
          cpSync(path.join(cache, ...`${p.group}.eco`.split('.')), path.join(seed, ...`${p.group}.eco`.split('.')), { recursive: true });
          const log = path.join(work, `mvn-${i}.log`);
          const env = {
            ...p.env,
            CI: 'true',
            PATH: `${bin}:${process.env.PATH}`,
            BENCH_MVN_LOG: log,
            RELCTL_STAGING_API_URL: sandbox.urls.stagingApiUrl,
            RELCTL_PORTAL_URL: sandbox.urls.portalUrl,
            RELCTL_PUBLIC_REPO_URL: sandbox.urls.publicRepoUrl,
            RELCTL_KEYSERVER_URL: sandbox.urls.keyserverUrl,
            RELCTL_SECONDARY_KEYSERVER_URL: sandbox.urls.secondaryKeyserverUrl,
            RELCTL_MAVEN_LOCAL_REPO: cache,
          };
          const total = await timedRun('node', [path.join(repoRoot, 'bin', 'relctl.js'), 'release', '--yes', '--cwd', p.dir], { env });
          const inMaven = readFileSync(log, 'utf8').trim().split('\n').reduce((s, ms) => s + Number(ms) / 1000, 0);
          times.relctl.push(total);
          times.share.push((total - inMaven) / total);
        } else {
          const props = ['-DautoVersionSubmodules=true', '-DreleaseVersion=1.0.0', '-DdevelopmentVersion=1.0.1-SNAPSHOT', '-Dtag=e2e-parent-1.0.0'];
          let total = 0;
          // A first release: the three goals separately, exactly as relctl runs them.
          for (const goal of ['release:clean', 'release:prepare', 'release:perform']) {
            total += await timedRun('mvn', ['-B', goal, ...props, '-s', p.settings, `-Dmaven.repo.local=${cache}`], { cwd: p.dir, env: p.env });
          }
          times.maven.push(total);
        }
      }
    }
    const fmt = (xs) => xs.map((x) => x.toFixed(1)).join('/');
    const share = median(times.share);
    return {
      name: 'release-real',
      ratio: median(times.relctl) / median(times.maven),
      detail:
        `relctl release to the sandbox ${median(times.relctl).toFixed(1)} s (${fmt(times.relctl)}) vs the same release-plugin run to a discarding server ${median(times.maven).toFixed(1)} s (${fmt(times.maven)}); ` +
        `relctl's own share of its wall time ${(share * 100).toFixed(1)}% (${times.share.map((x) => (x * 100).toFixed(1)).join('/')}%), target < 5%`,
    };
  } finally {
    await sandbox.close();
    await discard.close();
    key.cleanup();
    rmSync(key.home, { recursive: true, force: true });
    rmSync(path.join(cache, 'org', 'example', 'bench'), { recursive: true, force: true });
    rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(await bench());
}
