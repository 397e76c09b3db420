#!/usr/bin/env node
// Thin shim: the compiled CLI lives in dist/ (built by `npm install` through the prepare script),
// and `npm run build` bundles it into bundle/ (scripts/bundle.mjs) for a faster start. A bundle
// older than dist/ (tsc was run alone since) is stale and not used.
import { statSync } from 'node:fs';

const mtime = (rel) => statSync(new URL(rel, import.meta.url), { throwIfNoEntry: false })?.mtimeMs ?? -1;
const entry = mtime('../bundle/cli.js') >= mtime('../dist/cli.js') ? '../bundle/cli.js' : '../dist/cli.js';
const { runFromProcess } = await import(entry);

await runFromProcess();
