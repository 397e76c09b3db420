#!/usr/bin/env node
// The harness behind `npm run bench`: runs every bench/*.mjs (except itself and files starting
// with `_`) one after another, never in parallel (they measure side by side on a shared machine),
// then prints one table. Each bench's default export resolves to {name, ratio, detail}.
// Usage: node bench/run.mjs [name-filter ...]
// BENCH_QUICK=1 (npm run bench:quick) makes the benches that support it use fewer runs and smaller
// inputs: a check under a minute that the figures still hold, not a measurement to quote.
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const self = path.basename(fileURLToPath(import.meta.url));

export async function benchFiles(filters = []) {
  const names = (await readdir(here))
    .filter((f) => f.endsWith('.mjs') && f !== self && !f.startsWith('_'))
    .sort();
  return filters.length === 0 ? names : names.filter((f) => filters.some((w) => f.includes(w)));
}

function formatRatio(ratio) {
  return typeof ratio === 'number' && Number.isFinite(ratio) ? `${ratio.toFixed(2)}x` : String(ratio ?? '-');
}

export function table(rows) {
  // The goal sits beside each ratio, so a glance at the table tells which figure slipped.
  const header = ['bench', 'ratio', 'goal', 'detail'];
  const cells = rows.map((r) => [r.name, formatRatio(r.ratio), r.goal ?? '-', r.detail ?? '']);
  const width = [0, 1, 2].map((i) => Math.max(header[i].length, ...cells.map((c) => c[i].length)));
  const line = (c) => `${c[0].padEnd(width[0])}  ${c[1].padStart(width[1])}  ${c[2].padEnd(width[2])}  ${c[3]}`;
  return [line(header), line(header.map((h, i) => '-'.repeat(i < 3 ? width[i] : h.length))), ...cells.map(line)].join('\n');
}

async function main() {
  const files = await benchFiles(process.argv.slice(2));
  if (files.length === 0) {
    console.error('no bench matched');
    process.exitCode = 2;
    return;
  }
  const rows = [];
  for (const file of files) {
    const started = Date.now();
    process.stderr.write(`» ${file} ...\n`);
    try {
      const mod = await import(pathToFileURL(path.join(here, file)).href);
      if (typeof mod.default !== 'function') throw new Error('has no default export function');
      const result = await mod.default();
      for (const r of Array.isArray(result) ? result : [result]) rows.push({ name: r.name ?? file, ratio: r.ratio, goal: r.goal, detail: r.detail });
    } catch (error) {
      rows.push({ name: file.replace(/\.mjs$/, ''), ratio: 'failed', detail: error instanceof Error ? error.message : String(error) });
      process.exitCode = 1;
    }
    process.stderr.write(`  ${file} took ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  }
  console.log(table(rows));
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) await main();
