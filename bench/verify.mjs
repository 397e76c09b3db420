// Benchmark: `relctl verify --dir` (the whole CLI, one process, key fetched from the sandbox's
// primary key server) over a signed 200-module release, versus one `gpg --verify` per signed
// file, side by side. Signing is setup and is not timed. Needs a build (npm run build) and gpg.
// Usage: node bench/verify.mjs [modules]   (default 200; 4 signed files each)
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');

async function pool(items, size, fn) {
  let next = 0;
  await Promise.all(Array.from({ length: size }, async () => {
    while (next < items.length) await fn(items[next++]);
  }));
}

const pomOf = (i) => `<?xml version="1.0"?>
<project><modelVersion>4.0.0</modelVersion><groupId>org.example.bench</groupId><artifactId>m${i}</artifactId><version>1.0.0</version>
<name>Module ${i}</name><description>Benchmark module</description><url>https://example.org</url>
<licenses><license><name>Apache-2.0</name></license></licenses><developers><developer><id>dev</id><organization>x</organization><organizationUrl>https://x</organizationUrl></developer></developers>
<scm><url>https://example.org/scm</url></scm></project>
`;

export default async function bench(modules = Number(process.argv[2] ?? process.env.BENCH_MODULES ?? 200)) {
  const { startSandbox } = await import(`${dist}/sandbox/server.js`);
  const work = await mkdtemp(path.join(os.tmpdir(), 'relctl-bench-verify-'));
  const gnupgHome = await mkdtemp(path.join(os.tmpdir(), 'relctl-gpg-'));
  const env = { ...process.env, GNUPGHOME: gnupgHome };
  const gpg = (args) => run('gpg', ['--batch', '--no-tty', '--quiet', ...args], { env, maxBuffer: 1 << 24 });
  const sb = await startSandbox();
  try {
    await gpg(['--passphrase', '', '--quick-gen-key', 'relctl bench <bench@example.invalid>', 'ed25519', 'sign', 'never']);
    const { stdout: armored } = await gpg(['--armor', '--export', 'bench@example.invalid']);
    await fetch(`${sb.urls.keyserverUrl}/vks/v1/upload`, { method: 'POST', body: JSON.stringify({ keytext: armored }), headers: { 'content-type': 'application/json' } });

    const stageDir = path.join(work, 'staging');
    const signed = [];
    for (let i = 0; i < modules; i++) {
      const dir = path.join(stageDir, 'org/example/bench', `m${i}`, '1.0.0');
      await mkdir(dir, { recursive: true });
      const files = { [`m${i}-1.0.0.pom`]: pomOf(i) };
      for (const s of ['', '-sources', '-javadoc']) files[`m${i}-1.0.0${s}.jar`] = createHash('sha512').update(`${i}${s}`).digest('hex').repeat(64);
      for (const [name, content] of Object.entries(files)) {
        const file = path.join(dir, name);
        await writeFile(file, content);
        await writeFile(`${file}.md5`, createHash('md5').update(content).digest('hex'));
        await writeFile(`${file}.sha1`, createHash('sha1').update(content).digest('hex'));
        signed.push(file);
      }
    }
    await pool(signed, 4, (file) => gpg(['--yes', '--armor', '--detach-sign', '-o', `${file}.asc`, file]));

    const cliEnv = {
      ...process.env,
      CI: 'true',
      RELCTL_STAGING_API_URL: sb.urls.stagingApiUrl,
      RELCTL_PORTAL_URL: sb.urls.portalUrl,
      RELCTL_PUBLIC_REPO_URL: sb.urls.publicRepoUrl,
      RELCTL_KEYSERVER_URL: sb.urls.keyserverUrl,
      RELCTL_SECONDARY_KEYSERVER_URL: sb.urls.secondaryKeyserverUrl,
    };
    const t0 = performance.now();
    const { stdout } = await run('node', [path.join(root, 'bin/relctl.js'), 'verify', '--dir', stageDir, '--json', '--cwd', work], { env: cliEnv, maxBuffer: 1 << 26 });
    const ours = performance.now() - t0;
    const doc = JSON.parse(stdout);
    if (!doc.ok || doc.components.length !== modules) throw new Error(`verify did not pass: ${stdout.slice(0, 500)}`);

    const t1 = performance.now();
    for (const file of signed) await gpg(['--verify', `${file}.asc`, file]);
    const baseline = performance.now() - t1;
    return {
      name: `verify ${modules} modules vs gpg --verify per file`,
      ratio: ours / baseline,
      detail: `relctl verify ${(ours / 1000).toFixed(2)} s (all rules, ${signed.length} signatures) vs ${signed.length}x gpg --verify ${(baseline / 1000).toFixed(2)} s`,
    };
  } finally {
    await sb.close();
    await run('gpgconf', ['--kill', 'gpg-agent'], { env }).catch(() => undefined);
    await rm(gnupgHome, { recursive: true, force: true });
    await rm(work, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const r = await bench();
  console.log(`${r.name}: ${r.ratio.toFixed(2)}x (${r.detail})`);
}
