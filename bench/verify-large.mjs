// Benchmark: `relctl verify --dir` on a release with one 2 GB artifact (sparse, with real bytes at
// its end; every byte is still read), against `sha1sum`, `md5sum` and `gpg --verify` run on the
// same files one after another: the wall-time ratio, and relctl's peak resident memory (target:
// under 200 MB, at most 1.2x the tools' time; DESIGN §9). The key comes from a `relctl sandbox`
// process's primary key server. Setup (sparse file, checksums, signatures) is not timed; each side
// runs twice, alternating, and the faster run counts. Needs a build (npm run build) and gpg.
// Usage: node bench/verify-large.mjs [GiB]   (default 2)
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { appendFile, mkdir, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { measuredRun, runAlone, sandboxCliEnv, toolsBaseline, withSandboxAndKey } from './_lib.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const gib = 1024 * 1024 * 1024;

const pom = `<?xml version="1.0"?>
<project><modelVersion>4.0.0</modelVersion><groupId>org.example.bench</groupId><artifactId>big</artifactId><version>1.0.0</version>
<name>Big</name><description>A release with one big artifact</description><url>https://example.org</url>
<licenses><license><name>Apache-2.0</name></license></licenses><developers><developer><id>dev</id></developer></developers>
<scm><url>https://example.org/scm</url></scm></project>
`;

async function digests(file) {
  const md5 = createHash('md5');
  const sha1 = createHash('sha1');
  for await (const chunk of createReadStream(file, { highWaterMark: 4 << 20 })) {
    md5.update(chunk);
    sha1.update(chunk);
  }
  return { md5: md5.digest('hex'), sha1: sha1.digest('hex') };
}

/** A Maven-layout folder with one component whose main jar is `bytes` long; returns the signed files. */
export async function bigComponent(stage, bytes, gpg) {
  const dir = path.join(stage, 'org/example/bench/big/1.0.0');
  await mkdir(dir, { recursive: true });
  const files = [];
  for (const [name, content] of [['big-1.0.0.pom', pom], ['big-1.0.0-sources.jar', 'sources'], ['big-1.0.0-javadoc.jar', 'javadoc'], ['big-1.0.0.jar', undefined]]) {
    const file = path.join(dir, name);
    if (content === undefined) {
      await writeFile(file, '');
      await truncate(file, bytes);
      await appendFile(file, 'the end of a big jar');
    } else await writeFile(file, content);
    const sums = await digests(file);
    await writeFile(`${file}.md5`, sums.md5);
    await writeFile(`${file}.sha1`, sums.sha1);
    await gpg(['--yes', '--armor', '--detach-sign', '-o', `${file}.asc`, file]);
    files.push(file);
  }
  return files;
}

export default async function bench(size = Number(process.argv[2] ?? process.env.BENCH_GIB ?? 2)) {
  return withSandboxAndKey(root, () => [], async ({ work, keys, sandbox }) => {
    const stage = path.join(work, 'staging');
    const files = await bigComponent(stage, Math.round(size * gib), keys.gpg);
    const ours = async () => {
      const r = await measuredRun('node', [path.join(root, 'bin/relctl.js'), 'verify', '--dir', stage, '--json', '--cwd', work], { env: sandboxCliEnv(sandbox.urls) });
      if (!JSON.parse(r.stdout).ok) throw new Error(`verify did not pass: ${r.stdout.slice(0, 500)}`);
      return r;
    };
    const runs = [];
    const baselines = [];
    for (let i = 0; i < 2; i++) {
      baselines.push(await toolsBaseline(files, keys.env));
      runs.push(await ours());
    }
    const best = runs.reduce((a, b) => (a.seconds <= b.seconds ? a : b));
    const peak = Math.max(...runs.map((r) => r.peakMiB));
    const baseline = Math.min(...baselines);
    return {
      name: `verify a ${size} GiB artifact vs sha1sum + md5sum + gpg --verify`,
      ratio: best.seconds / baseline,
      detail: `relctl verify ${best.seconds.toFixed(2)} s, peak ${peak} MiB (target < 200 MiB, <= 1.20x) vs the tools ${baseline.toFixed(2)} s`,
    };
  });
}

await runAlone(import.meta.url, bench);
