#!/usr/bin/env node
/**
 * Benchmark: preflight's cost by POM shape. The same amount of markup (about 200,000 elements or
 * 3.5 MB) is written as one element per line (the reference), then as one long line, as deep
 * nesting (chains at the nesting limit), as one element with many attributes, and as one long
 * text. Each shape's median time over the reference's, measured alternately in one run: a shape
 * whose cost grew faster than its size (quadratic scans of a long line, per-attribute lookups)
 * shows as a ratio far above 1. Goal: every shape within 2x of the reference.
 * Run alone with `node bench/pom-shapes.mjs` (after `npm run build`), or through bench/run.mjs.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { median, quick } from './_lib.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const relctl = path.join(repoRoot, 'bin', 'relctl.js');
const ELEMENTS = Number(process.env.BENCH_POM_ELEMENTS ?? (quick ? 100_000 : 200_000));
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const GOAL = 2;
const DEPTH = 900; // below the scanner's nesting limit (1000), with room for the POM's own levels

const pom = (body) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<project><modelVersion>4.0.0</modelVersion><groupId>org.example.bench</groupId>` +
  `<artifactId>shape</artifactId><version>1.0.0-SNAPSHOT</version>${body}</project>\n`;

const shapes = {
  'separate lines': () => `<properties>\n${Array.from({ length: ELEMENTS }, (_, i) => `<p${i}>v</p${i}>`).join('\n')}\n</properties>`,
  'one line': () => `<properties>${Array.from({ length: ELEMENTS }, (_, i) => `<p${i}>v</p${i}>`).join('')}</properties>`,
  'deep nesting': () => {
    const chain = `${'<a>'.repeat(DEPTH)}v${'</a>'.repeat(DEPTH)}`;
    return `<build><plugins><plugin><artifactId>x</artifactId><version>1</version><configuration>${chain.repeat(Math.ceil(ELEMENTS / DEPTH))}</configuration></plugin></plugins></build>`;
  },
  'many attributes': () => `<properties><p ${Array.from({ length: ELEMENTS }, (_, i) => `a${i}="v"`).join(' ')}/></properties>`,
  'long text': () => `<description>${'word '.repeat(ELEMENTS * 3)}</description>`,
};

function timeOnce(dir) {
  const start = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [relctl, 'preflight', '--offline', '--json', '--cwd', dir], { encoding: 'utf8', env: { ...process.env, CI: 'true', NO_COLOR: '1' }, maxBuffer: 64 << 20 });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.error || r.stdout === '') throw new Error(`relctl preflight on ${dir} produced no report: ${String(r.stderr).slice(0, 300)}`);
  const report = JSON.parse(r.stdout);
  if (report.findings?.some((f) => f.code === 'xml-malformed')) throw new Error(`${path.basename(dir)} was not read: ${report.findings.find((f) => f.code === 'xml-malformed').message}`);
  return ms;
}

export default async function benchPomShapes() {
  const work = mkdtempSync(path.join(os.tmpdir(), 'relctl-bench-shapes-'));
  try {
    const dirs = Object.entries(shapes).map(([name, body], i) => {
      const dir = path.join(work, `s${i}`);
      mkdirSync(dir);
      const text = pom(body());
      writeFileSync(path.join(dir, 'pom.xml'), text);
      return { name, dir, bytes: text.length, ms: [] };
    });
    for (const d of dirs) timeOnce(d.dir); // warm the file cache
    for (let i = 0; i < RUNS; i++) for (const d of i % 2 === 0 ? dirs : [...dirs].reverse()) d.ms.push(timeOnce(d.dir));
    const reference = median(dirs[0].ms);
    return dirs.slice(1).map((d) => {
      const ratio = median(d.ms) / reference;
      return {
        name: `pom-shape: ${d.name}`,
        ratio,
        goal: `<= ${GOAL}x`,
        detail: `${(d.bytes / 1e6).toFixed(1)} MB: median ${median(d.ms).toFixed(0)} ms (${d.ms.map((x) => x.toFixed(0)).join('/')}) vs ${reference.toFixed(0)} ms for ${ELEMENTS} elements on separate lines; goal <= ${GOAL}x: ${ratio <= GOAL ? 'met' : 'MISSED'}`,
      };
    });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  for (const r of await benchPomShapes()) console.log(`${r.name}: ${r.ratio.toFixed(2)}x  ${r.detail}`);
}
