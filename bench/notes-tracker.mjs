// Benchmark: the tracker check of `relctl notes` with every GitHub answer delayed by 100 ms
// (sandbox fault injection): 12 issue references looked up with relctl's bound of 4 at once
// versus one after another, side by side on the same HTTP client and octokit. The ratio is
// relctl's (bounded) time over the one-at-a-time time (about 0.25 when the delay dominates).
// Needs a build.
// Usage: node bench/notes-tracker.mjs [runs]   (default 3; the median of each side is compared)
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { median } from './_lib.mjs';

const dist = path.join(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..'), 'dist');
const delayMs = 100;
const count = 12;

export default async function bench(runs = Number(process.argv[2] ?? process.env.BENCH_RUNS ?? 3)) {
  const { startSandbox } = await import(`${dist}/sandbox/server.js`);
  const { HttpClient } = await import(`${dist}/io/http.js`);
  const { githubClient } = await import(`${dist}/github/client.js`);
  const { lookUpRefs } = await import(`${dist}/tracker/check.js`);
  const { trackerRefs } = await import(`${dist}/core/notes/tracker.js`);
  const sb = await startSandbox();
  const http = new HttpClient({ timeoutMs: 10_000, retries: 1 });
  try {
    const octokit = await githubClient({ baseUrl: sb.urls.githubApiUrl, http });
    const refs = trackerRefs(Array.from({ length: count }, (_, i) => `#${i + 1}`), { owner: 'bench', name: 'demo' });
    const time = async (concurrency) => {
      await fetch(`http://127.0.0.1:${sb.port}/sandbox/faults`, {
        method: 'POST',
        body: JSON.stringify({ prefix: '/github/api/repos/bench/demo/issues/', count, delayMs }),
        headers: { 'content-type': 'application/json', 'x-sandbox-token': sb.controlToken },
      });
      const t = performance.now();
      const results = await lookUpRefs(refs, { github: async () => octokit, http, concurrency });
      if (results.some((r) => r.outcome !== 'unknown')) throw new Error(`unexpected lookup results: ${JSON.stringify(results)}`);
      return performance.now() - t;
    };
    const bounded = [];
    const sequential = [];
    for (let i = 0; i < runs; i++) {
      sequential.push(await time(1));
      bounded.push(await time(4));
    }
    const b = median(bounded);
    const s = median(sequential);
    return {
      name: `notes tracker check, ${count} references, ${delayMs} ms GitHub delay: 4 at once vs one at a time`,
      ratio: b / s,
      detail: `4 at once ${b.toFixed(0)} ms vs one at a time ${s.toFixed(0)} ms (median of ${runs}; target < 0.5x)`,
    };
  } finally {
    await http.close();
    await sb.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const r = await bench();
  console.log(`${r.name}: ${r.ratio.toFixed(2)}x (${r.detail})`);
}
