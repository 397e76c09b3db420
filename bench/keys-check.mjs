// Benchmark: `relctl keys check` with every key-server answer delayed by 300 ms (sandbox fault
// injection) versus one lookup of the same key, side by side. The lookups of keys check (primary
// by fingerprint, by e-mail, secondary) run concurrently, so they should cost about one lookup.
// Two comparisons: the headline ratio is the work of keys check in one process (gpg key
// resolution, every lookup, openpgp parsing of the served key) against one lookup with the same
// HTTP client; the detail adds the end-to-end CLI against a one-lookup node process (that one
// also counts relctl's start-up, which is not key-checking work). Needs a build and gpg.
// Usage: node bench/keys-check.mjs [runs]   (default 3; the median of each side is compared)
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { median } from './_lib.mjs';

const run = promisify(execFile);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');
const delayMs = 300;

export default async function bench(runs = Number(process.argv[2] ?? process.env.BENCH_RUNS ?? 3)) {
  const { startSandbox } = await import(`${dist}/sandbox/server.js`);
  const gnupgHome = await mkdtemp(path.join(os.tmpdir(), 'relctl-gpg-'));
  const env = { ...process.env, GNUPGHOME: gnupgHome };
  const gpg = (args) => run('gpg', ['--batch', '--no-tty', '--quiet', ...args], { env });
  const sb = await startSandbox();
  try {
    await gpg(['--passphrase', '', '--quick-gen-key', 'relctl bench <keys@example.invalid>', 'ed25519', 'sign', 'never']);
    const { stdout: listing } = await gpg(['--with-colons', '--list-secret-keys']);
    const fpr = listing.split('\n').find((l) => l.startsWith('fpr:')).split(':')[9];
    const { stdout: armored } = await gpg(['--armor', '--export', fpr]);
    await fetch(`${sb.urls.keyserverUrl}/vks/v1/upload`, { method: 'POST', body: JSON.stringify({ keytext: armored }), headers: { 'content-type': 'application/json' } });
    // Every key-server answer (primary /keys and secondary /keys2) waits 300 ms.
    await fetch(`http://127.0.0.1:${sb.port}/sandbox/faults`, {
      method: 'POST',
      body: JSON.stringify({ prefix: '/keys', count: 100000, delayMs }),
      headers: { 'content-type': 'application/json', 'x-sandbox-token': sb.controlToken },
    });
    const cliEnv = {
      ...env,
      CI: 'true',
      RELCTL_KEYSERVER_URL: sb.urls.keyserverUrl,
      RELCTL_SECONDARY_KEYSERVER_URL: sb.urls.secondaryKeyserverUrl,
    };
    const one = `const r = await fetch(${JSON.stringify(`${sb.urls.keyserverUrl}/vks/v1/by-fingerprint/${fpr}`)}); await r.text(); if (r.status !== 200) process.exit(1);`;
    const ours = [];
    const single = [];
    for (let i = 0; i < runs; i++) {
      let t = performance.now();
      await run('node', ['--input-type=module', '-e', one], { env: cliEnv });
      single.push(performance.now() - t);
      t = performance.now();
      const r = await run('node', [path.join(root, 'bin/relctl.js'), 'keys', 'check', '--fingerprint', fpr, '--json'], { env: cliEnv }).catch((e) => e);
      ours.push(performance.now() - t);
      const doc = JSON.parse(r.stdout);
      if (doc.key?.primary !== 'found') throw new Error(`keys check did not find the key: ${r.stdout}`);
    }
    const o = median(ours);
    const s = median(single);
    // In process: fresh HTTP clients on both sides, so connection set-up is counted on both.
    const { resolveSigningKey } = await import(`${dist}/keys/fingerprint.js`);
    const { gatherKeyFacts } = await import(`${dist}/keys/check.js`);
    const { KeyServers } = await import(`${dist}/portal/keyservers.js`);
    const { HttpClient } = await import(`${dist}/io/http.js`);
    const inOurs = [];
    const inOne = [];
    for (let i = 0; i < runs; i++) {
      let http = new HttpClient({ timeoutMs: 10_000 });
      let t = performance.now();
      await new KeyServers(http, sb.urls).primaryByFingerprint(fpr);
      inOne.push(performance.now() - t);
      await http.close();
      http = new HttpClient({ timeoutMs: 10_000 });
      t = performance.now();
      const facts = await gatherKeyFacts(resolveSigningKey({ cwd: os.tmpdir(), env, fingerprint: fpr }), new KeyServers(http, sb.urls), sb.urls, {
        knownFingerprint: fpr,
      });
      inOurs.push(performance.now() - t);
      await http.close();
      if (facts.primary !== 'found' || facts.emails.length !== 1) throw new Error('in-process keys check went wrong');
    }
    const io = median(inOurs);
    const is = median(inOne);
    return {
      name: 'keys check (4 concurrent lookups) vs one lookup, 300 ms key-server delay',
      ratio: io / is,
      detail: `in process ${io.toFixed(0)} ms vs ${is.toFixed(0)} ms; end to end relctl keys check ${o.toFixed(0)} ms vs a one-lookup node process ${s.toFixed(0)} ms = ${(o / s).toFixed(2)}x (median of ${runs}; target <= 1.3x)`,
    };
  } finally {
    await sb.close();
    await run('gpgconf', ['--kill', 'gpg-agent'], { env }).catch(() => undefined);
    await rm(gnupgHome, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const r = await bench();
  console.log(`${r.name}: ${r.ratio.toFixed(2)}x (${r.detail})`);
}
