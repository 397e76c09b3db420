// Benchmark: `relctl verify --dir` on a release of 300 modules (4,800 files: POM, jar, sources and
// javadoc per module, each with .md5, .sha1 and .asc) against `sha1sum`, `md5sum` and
// `gpg --verify` run file by file on the same artifacts (target: at most 1.5x the tools' time;
// issue 20). The key comes from a `relctl sandbox` process's primary key server. Signing is setup
// and is not timed. Needs a build (npm run build) and gpg.
// Usage: node bench/verify-many.mjs [modules]   (default 300)
import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { measuredRun, pool, runAlone, sandboxCliEnv, toolsBaseline, withSandboxAndKey } from './_lib.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const pomOf = (i) => `<?xml version="1.0"?>
<project><modelVersion>4.0.0</modelVersion><groupId>org.example.bench</groupId><artifactId>m${i}</artifactId><version>1.0.0</version>
<name>Module ${i}</name><description>Benchmark module</description><url>https://example.org</url>
<licenses><license><name>Apache-2.0</name></license></licenses><developers><developer><id>dev</id></developer></developers>
<scm><url>https://example.org/scm</url></scm></project>
`;

export default async function bench(modules = Number(process.argv[2] ?? process.env.BENCH_MODULES ?? 300)) {
  return withSandboxAndKey(root, () => [], async ({ work, keys, sandbox }) => {
    const stage = path.join(work, 'staging');
    const artifacts = [];
    for (let i = 0; i < modules; i++) {
      const dir = path.join(stage, 'org/example/bench', `m${i}`, '1.0.0');
      await mkdir(dir, { recursive: true });
      // Jars of a few tens of KiB, as most modules' are.
      const jar = (suffix, times) => createHash('sha512').update(`${i}${suffix}`).digest('hex').repeat(times);
      const files = { [`m${i}-1.0.0.pom`]: pomOf(i), [`m${i}-1.0.0.jar`]: jar('', 400), [`m${i}-1.0.0-sources.jar`]: jar('-sources', 100), [`m${i}-1.0.0-javadoc.jar`]: jar('-javadoc', 100) };
      for (const [name, content] of Object.entries(files)) {
        const file = path.join(dir, name);
        await writeFile(file, content);
        for (const algorithm of ['md5', 'sha1']) await writeFile(`${file}.${algorithm}`, createHash(algorithm).update(content).digest('hex'));
        artifacts.push(file);
      }
    }
    await pool(artifacts, 4, (file) => keys.gpg(['--yes', '--armor', '--detach-sign', '-o', `${file}.asc`, file]));

    const ours = await measuredRun('node', [path.join(root, 'bin/relctl.js'), 'verify', '--dir', stage, '--json', '--cwd', work], { env: sandboxCliEnv(sandbox.urls) });
    const doc = JSON.parse(ours.stdout);
    if (!doc.ok || doc.components.length !== modules) throw new Error(`verify did not pass: ${ours.stdout.slice(0, 500)}`);
    const baseline = await toolsBaseline(artifacts, keys.env);
    return {
      name: `verify ${modules} modules (${artifacts.length * 4} files) vs the tools file by file`,
      ratio: ours.seconds / baseline,
      detail: `relctl verify ${ours.seconds.toFixed(2)} s, peak ${ours.peakMiB} MiB (target <= 1.50x) vs sha1sum + md5sum + gpg --verify per artifact ${baseline.toFixed(2)} s`,
    };
  });
}

await runAlone(import.meta.url, bench);
