#!/usr/bin/env node
// Thin shim: the compiled CLI lives in dist/ (built by `npm install` through the prepare script),
// and `npm run build` bundles it into bundle/cli.cjs with a V8 code cache for a faster start
// (bin/load-bundle.cjs, scripts/bundle.mjs). In a checkout (src/ present), a bundle older than
// dist/ (tsc was run alone since) is stale and not used. An installed package (npm pack, npm i
// from a git URL) has no src/ and always starts from its bundle: unpacking gives its files new
// mtimes in no particular order, so dist/ may look newer there without being so.
import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';

// `relctl --version` alone needs nothing but package.json: no bundle, no commander.
const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  process.stdout.write(`${JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version}\n`);
  process.exit(0);
}

const require = createRequire(import.meta.url);
const bundle = require('./load-bundle.cjs');
const mtime = (rel) => statSync(new URL(rel, import.meta.url), { throwIfNoEntry: false })?.mtimeMs ?? -1;
const checkout = mtime('../src/cli.ts') !== -1;
const useBundle = mtime('../bundle/cli.cjs') !== -1 && (!checkout || mtime('../bundle/cli.cjs') >= mtime('../dist/cli.js'));
const { runFromProcess } = useBundle ? bundle.loadBundle(bundle.profileFor(process.argv.slice(2))).exports : await import('../dist/cli.js');

await runFromProcess();
