#!/usr/bin/env node
// Thin shim: the compiled CLI lives in dist/ (built by `npm install` through the prepare script),
// and `npm run build` bundles it into bundle/cli.cjs with a V8 code cache for a faster start
// (bin/load-bundle.cjs, scripts/bundle.mjs). A bundle older than dist/ (tsc was run alone since)
// is stale and not used.
import { statSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const bundle = require('./load-bundle.cjs');
const mtime = (rel) => statSync(new URL(rel, import.meta.url), { throwIfNoEntry: false })?.mtimeMs ?? -1;
const useBundle = mtime('../bundle/cli.cjs') >= mtime('../dist/cli.js');
const { runFromProcess } = useBundle ? bundle.loadBundle(bundle.profileFor(process.argv.slice(2))).exports : await import('../dist/cli.js');

await runFromProcess();
