// Benchmark: validating a signed 200-module deployment with relctl's rule set (openpgp, one
// process) versus checking the same signatures with one `gpg --verify` per .asc, side by side.
// Signing the files is setup and is not timed. Needs a build (npm run build) and gpg.
// Usage: node bench/validate-signatures.mjs [modules]   (default 200; 4 signed files each)
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist');

async function pool(items, size, fn) {
  let next = 0;
  await Promise.all(Array.from({ length: size }, async () => {
    while (next < items.length) await fn(items[next++]);
  }));
}

async function walk(dir, root = dir, out = []) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) await walk(full, root, out);
    else out.push(path.relative(root, full).split(path.sep).join('/'));
  }
  return out;
}

const pomOf = (i) => `<?xml version="1.0"?>
<project><modelVersion>4.0.0</modelVersion><groupId>org.example.bench</groupId><artifactId>m${i}</artifactId><version>1.0.0</version>
<name>Module ${i}</name><description>Benchmark module</description><url>https://example.org</url>
<licenses><license><name>Apache-2.0</name></license></licenses><developers><developer><id>dev</id></developer></developers>
<scm><url>https://example.org/scm</url></scm></project>
`;

export default async function bench(modules = Number(process.env.BENCH_MODULES ?? 200)) {
  const { validateDeployment } = await import(`${dist}/core/validation/index.js`);
  const { createSignatureVerifier } = await import(`${dist}/keys/signature-verifier.js`);
  const work = await mkdtemp(path.join(os.tmpdir(), 'relctl-bench-'));
  const gnupgHome = await mkdtemp(path.join(os.tmpdir(), 'relctl-gpg-'));
  const env = { ...process.env, GNUPGHOME: gnupgHome };
  const gpg = (args) => run('gpg', ['--batch', '--no-tty', '--quiet', ...args], { env, maxBuffer: 1 << 24 });
  try {
    await gpg(['--passphrase', '', '--quick-gen-key', 'relctl bench <bench@example.invalid>', 'ed25519', 'sign', 'never']);
    const { stdout: armoredKey } = await gpg(['--armor', '--export', 'bench@example.invalid']);

    // Setup (not timed): 200 modules × pom, jar, sources, javadoc, each with .md5, .sha1, .asc.
    const artifacts = [];
    for (let i = 0; i < modules; i++) {
      const dir = path.join(work, 'org/example/bench', `m${i}`, '1.0.0');
      await mkdir(dir, { recursive: true });
      const files = { [`m${i}-1.0.0.pom`]: pomOf(i) };
      for (const suffix of ['', '-sources', '-javadoc']) files[`m${i}-1.0.0${suffix}.jar`] = createHash('sha512').update(`${i}${suffix}`).digest().toString('hex').repeat(64);
      for (const [name, content] of Object.entries(files)) {
        const file = path.join(dir, name);
        await writeFile(file, content);
        await writeFile(`${file}.md5`, createHash('md5').update(content).digest('hex'));
        await writeFile(`${file}.sha1`, createHash('sha1').update(content).digest('hex'));
        artifacts.push(file);
      }
    }
    await pool(artifacts, 4, (file) => gpg(['--yes', '--armor', '--detach-sign', '-o', `${file}.asc`, file]));

    // Ours: read the deployment, validate every rule, signatures through openpgp (cold start included).
    const t0 = performance.now();
    const files = new Map();
    for (const rel of await walk(work)) files.set(rel, new Uint8Array(await readFile(path.join(work, rel))));
    const verdicts = await validateDeployment(files, {
      fetchPom: async () => undefined,
      isPublished: async () => false,
      verifySignature: createSignatureVerifier(async () => armoredKey),
    });
    const ours = performance.now() - t0;
    const violations = verdicts.reduce((n, v) => n + v.violations.length, 0);
    if (verdicts.length !== modules || violations !== 0) throw new Error(`unexpected verdicts: ${verdicts.length} components, ${violations} violations`);

    // Baseline: one gpg --verify per signature, one after another, as a shell loop would.
    const t1 = performance.now();
    for (const file of artifacts) await gpg(['--verify', `${file}.asc`, file]);
    const gpgTime = performance.now() - t1;

    const ratio = ours / gpgTime;
    return {
      name: 'validate-signatures',
      ratio,
      detail: `${artifacts.length} signatures in ${modules} modules: validateDeployment (all rules) ${ours.toFixed(0)} ms vs one gpg --verify per file ${gpgTime.toFixed(0)} ms; ours/gpg = ${ratio.toFixed(3)} (target < 1; ${(gpgTime / ours).toFixed(1)}x faster)`,
    };
  } finally {
    await run('gpgconf', ['--kill', 'gpg-agent'], { env }).catch(() => undefined);
    await rm(work, { recursive: true, force: true });
    await rm(gnupgHome, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = await bench(process.argv[2] === undefined ? undefined : Number(process.argv[2]));
  console.log(`${result.name}: ${result.detail}`);
}
