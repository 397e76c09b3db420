// Shared by the bench scripts (run.mjs skips files starting with an underscore).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';

/** BENCH_QUICK=1 (npm run bench:quick): the benches that support it use fewer runs and smaller inputs. */
export const quick = process.env.BENCH_QUICK === '1';

/** Variables that make every node start do work that is neither node's own start nor the program's. */
const startVars = ['NODE_EXTRA_CA_CERTS', 'NODE_OPTIONS'];

/**
 * The environment the benches run node in: the caller's, without startVars. NODE_EXTRA_CA_CERTS
 * (set on this project's machines to the whole system CA bundle) makes node read and parse it
 * before any code runs, about 85 ms of a 120 ms `node -e 0` here: measured with it, a ratio
 * against `node -e 0` mostly compares two certificate loads. NODE_OPTIONS would change V8's flags
 * and so make V8 refuse relctl's code caches. asGiven puts them back for the second figure.
 */
export function benchEnv(extra = {}) {
  const env = { ...process.env, ...extra };
  for (const name of startVars) delete env[name];
  return env;
}

/** `env` with the caller's own startVars put back: the environment as given. */
export function asGiven(env) {
  const out = { ...env };
  for (const name of startVars) if (process.env[name] !== undefined) out[name] = process.env[name];
  return out;
}

/** Whether the caller's environment has any of startVars (then the benches also measure in it). */
export const startTaxed = startVars.some((name) => process.env[name] !== undefined);

/** The middle value (the mean of the two middle ones for an even count). */
export function median(values) {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/**
 * Maven settings that resolve everything from Debian's packaged plugins (file:// mirror, see
 * shared/reference/maven-offline.md) and hold one <server> for the distribution id `central`.
 */
export function debianMirrorSettings(username, password) {
  return `<settings>
  <mirrors><mirror><id>debian</id><mirrorOf>*</mirrorOf><url>file:///usr/share/maven-repo</url></mirror></mirrors>
  <profiles><profile><id>debian-repo</id>
    <repositories><repository><id>central</id><url>file:///usr/share/maven-repo</url>
      <releases><checksumPolicy>ignore</checksumPolicy></releases><snapshots><enabled>false</enabled></snapshots>
    </repository></repositories>
    <pluginRepositories><pluginRepository><id>central</id><url>file:///usr/share/maven-repo</url>
      <releases><checksumPolicy>ignore</checksumPolicy></releases><snapshots><enabled>false</enabled></snapshots>
    </pluginRepository></pluginRepositories>
  </profile></profiles>
  <activeProfiles><activeProfile>debian-repo</activeProfile></activeProfiles>
  <servers><server><id>central</id><username>${username}</username><password>${password}</password></server></servers>
</settings>
`;
}

/** The baseline: answers every PUT 201 after reading it, every GET 404 (Maven's metadata probe). */
export async function startDiscard() {
  const handle = (req, res) => {
    req.on('data', () => undefined);
    req.on('end', () => {
      res.writeHead(req.method === 'PUT' ? 201 : 404, { 'content-length': '0' });
      res.end();
    });
  };
  const server = http.createServer();
  server.on('request', handle);
  server.on('checkContinue', (req, res) => {
    res.writeContinue();
    handle(req, res);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/service/local/staging/deploy/maven2/`,
    close: () => new Promise((resolve) => { server.close(resolve); server.closeAllConnections(); }),
  };
}

/** Runs a command, its output kept for the error; resolves to its wall seconds, rejects on a non-zero exit. */
export function timedRun(command, args, options) {
  const started = process.hrtime.bigint();
  const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve(Number(process.hrtime.bigint() - started) / 1e9);
      else reject(new Error(`${command} ${args.join(' ')} failed (exit ${code}):\n${output.slice(-4000)}`));
    });
  });
}

/**
 * Runs a command and measures it from outside: wall seconds, and the peak resident size (VmHWM,
 * read from /proc while it runs, so a buffer outside the V8 heap counts too). Rejects on a
 * non-zero exit, with the output.
 */
export async function measuredRun(command, args, options = {}) {
  const started = process.hrtime.bigint();
  const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  let peakKiB = 0;
  const poll = setInterval(() => {
    peakKiB = Math.max(peakKiB, vmHighWaterKiB(child.pid) ?? 0);
  }, 25);
  const code = await new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (c) => {
      resolve(c);
    });
  });
  clearInterval(poll);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} failed (exit ${code}):\n${(stdout + stderr).slice(-4000)}`);
  return { seconds, peakMiB: Math.round(peakKiB / 1024), stdout, stderr };
}

/** VmHWM of a live process, KiB (undefined once it is gone). */
export function vmHighWaterKiB(pid) {
  try {
    const m = /^VmHWM:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m === null ? undefined : Number(m[1]);
  } catch {
    return undefined;
  }
}

/**
 * `relctl sandbox` as its own process (its memory measured apart from relctl's): resolves once
 * ready with its URLs, its pid and stop().
 */
export async function startSandboxProcess(root, args = []) {
  const child = spawn('node', [`${root}/bin/relctl.js`, 'sandbox', '--port', '0', '--json', '--accept-unconfirmed-keys', ...args], {
    env: { ...process.env, CI: 'true', NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  const urls = await new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => {
      out += d;
      try {
        resolve(JSON.parse(out));
      } catch {
        // not the whole document yet
      }
    });
    child.on('exit', (code) => reject(new Error(`relctl sandbox exited ${code} before it was ready`)));
  });
  return {
    urls,
    pid: child.pid,
    stop: () => new Promise((resolve) => {
      child.once('exit', resolve);
      child.kill('SIGTERM');
    }),
  };
}

/** The environment that points relctl at a sandbox, with the sandbox's default token. */
export function sandboxCliEnv(urls) {
  return {
    ...process.env,
    CI: 'true',
    RELCTL_STAGING_API_URL: urls.stagingApiUrl,
    RELCTL_PORTAL_URL: urls.portalUrl,
    RELCTL_PUBLIC_REPO_URL: urls.publicRepoUrl,
    RELCTL_KEYSERVER_URL: urls.keyserverUrl,
    RELCTL_SECONDARY_KEYSERVER_URL: urls.secondaryKeyserverUrl,
    RELCTL_TOKEN_USERNAME: 'sandbox',
    RELCTL_TOKEN_PASSWORD: 'sandbox',
  };
}

/** A throwaway gpg home with one ed25519 signing key; gpg(args) runs in it, cleanup() removes it. */
export async function throwawayGpg(tmpRoot) {
  const { mkdtemp, rm } = await import('node:fs/promises');
  const gnupgHome = await mkdtemp(`${tmpRoot}/relctl-gpg-`);
  const env = { ...process.env, GNUPGHOME: gnupgHome };
  const gpg = (args) => new Promise((resolve, reject) => {
    const child = spawn('gpg', ['--batch', '--no-tty', '--quiet', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => (code === 0 ? resolve(stdout) : reject(new Error(`gpg ${args.join(' ')}: ${stderr}`))));
  });
  await gpg(['--passphrase', '', '--quick-gen-key', 'relctl bench <bench@example.invalid>', 'ed25519', 'sign', 'never']);
  const armored = await gpg(['--armor', '--export', 'bench@example.invalid']);
  return {
    env,
    gpg,
    armored,
    cleanup: async () => {
      await new Promise((resolve) => spawn('gpgconf', ['--kill', 'gpg-agent'], { env }).on('close', resolve));
      await rm(gnupgHome, { recursive: true, force: true });
    },
  };
}

/** Runs fn over items, `size` at a time. */
export async function pool(items, size, fn) {
  let next = 0;
  await Promise.all(Array.from({ length: size }, async () => {
    while (next < items.length) await fn(items[next++]);
  }));
}

/**
 * The frame of a bench against a `relctl sandbox` process: a work folder, a throwaway signing
 * key published on the sandbox's primary key server, and cleanup of all three whatever happens.
 */
export async function withSandboxAndKey(root, sandboxArgs, fn) {
  const { mkdtemp, rm } = await import('node:fs/promises');
  const os = await import('node:os');
  const work = await mkdtemp(`${os.tmpdir()}/relctl-bench-`);
  const keys = await throwawayGpg(os.tmpdir());
  const sandbox = await startSandboxProcess(root, sandboxArgs(work));
  try {
    await fetch(`${sandbox.urls.keyserverUrl}/vks/v1/upload`, { method: 'POST', body: JSON.stringify({ keytext: keys.armored }), headers: { 'content-type': 'application/json' } });
    return await fn({ work, keys, sandbox });
  } finally {
    await sandbox.stop();
    await keys.cleanup();
    await rm(work, { recursive: true, force: true });
  }
}

/** `sha1sum`, `md5sum` and `gpg --verify` on each file, one process after another: their wall seconds. */
export async function toolsBaseline(files, gpgEnv) {
  let seconds = 0;
  for (const file of files) {
    for (const [command, args] of [['sha1sum', [file]], ['md5sum', [file]], ['gpg', ['--batch', '--no-tty', '--quiet', '--verify', `${file}.asc`, file]]]) {
      seconds += (await measuredRun(command, args, { env: gpgEnv })).seconds;
    }
  }
  return seconds;
}

/** A bench file run on its own (node bench/x.mjs) prints its one line. */
export async function runAlone(moduleUrl, bench) {
  const { pathToFileURL } = await import('node:url');
  if (moduleUrl !== pathToFileURL(process.argv[1] ?? '').href) return;
  const r = await bench();
  console.log(`${r.name}: ${r.ratio.toFixed(2)}x (${r.detail})`);
}
