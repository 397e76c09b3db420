#!/usr/bin/env node
// Bundles the compiled CLI (dist/, from tsc) into bundle/: about 25 files instead of 60 modules,
// which node's ES module loader fetches and links one by one (preflight's start-up is on the
// benchmark). Run by `npm run build` after tsc; bin/relctl.js prefers bundle/ unless dist/ is newer.
// Packages other than commander stay external (node_modules), so heavy ones are still loaded
// only by the commands that import them. Code that finds files relative to import.meta.url must
// not assume its own depth (see src/io/package-info.ts): bundle/ chunks sit one level below the
// package root.
import { readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const outdir = `${root}bundle`;
const { dependencies } = JSON.parse(readFileSync(`${root}package.json`, 'utf8'));
rmSync(outdir, { recursive: true, force: true });
await build({
  entryPoints: [`${root}dist/cli.js`],
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // commander is on every start, so it goes into the bundle; the rest are loaded lazily by
  // the commands that need them and stay in node_modules.
  external: Object.keys(dependencies).filter((name) => name !== 'commander'),
  // commander is CommonJS: its require('node:events') and the like need a real require in ESM.
  banner: { js: "import { createRequire as relctlCreateRequire } from 'node:module'; const require = relctlCreateRequire(import.meta.url);" },
  legalComments: 'none',
  logLevel: 'warning',
});
