#!/usr/bin/env node
// Bundles the compiled CLI (dist/, from tsc) into one CommonJS file, bundle/cli.cjs, then makes
// its V8 code caches (scripts/code-cache.mjs). Run by `npm run build` after tsc. bin/relctl.js
// loads the bundle through bin/load-bundle.cjs unless dist/ is newer.
//
// Why CommonJS in one file: node 20 loads ES modules file by file, asynchronously, and has no
// compile cache for them; one script can be compiled from a cache. Each command's modules stay
// lazy: esbuild turns `await import('./x.js')` into a call that runs x's code only then.
// Packages stay external (node_modules) and are loaded by the commands that need them, except
// commander (on every start) and the ESM-only packages a module imports statically (a CommonJS
// file cannot require them on node 20). Code that finds files relative to its own module must not
// assume its depth (see src/io/package-info.ts): bundle/ sits one level below the package root.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const outdir = path.join(root, 'bundle');
const outfile = path.join(outdir, 'cli.cjs');
const { dependencies } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const bundled = new Set(['commander', 'conventional-commits-parser']);
const external = Object.keys(dependencies).filter((name) => !bundled.has(name));

rmSync(outdir, { recursive: true, force: true });
await build({
  entryPoints: [path.join(root, 'dist', 'cli.js')],
  outfile,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  external,
  // The one module that asks for its own location (package-info) gets the bundle's.
  define: { 'import.meta.url': 'relctlBundleUrl' },
  banner: { js: "const relctlBundleUrl = require('node:url').pathToFileURL(__filename).href;" },
  legalComments: 'none',
  logLevel: 'warning',
});

// import('pkg') calls bin/load-bundle.cjs's import instead (why: see relctlImport there). Any
// other import() (not a package name as a literal) could not be routed: fail the build.
const text = readFileSync(outfile, 'utf8').replace(/\bimport\(("[^"]+")\)/g, (_, name) => `relctlImport(${name})`);
const unrouted = text.match(/.{0,40}\bimport\(.{0,40}/);
if (unrouted !== null) {
  console.error(`scripts/bundle.mjs: a dynamic import that is not a package name cannot be routed: ${unrouted[0]}`);
  process.exit(1);
}
writeFileSync(outfile, text);

// A static import of an ESM-only package became require(), which node 20 refuses at run time,
// and only when that command runs: fail the build instead.
const requireFrom = createRequire(outfile);
const refused = [];
for (const [, name] of text.matchAll(/\brequire\("([^"]+)"\)/g)) {
  if (name.startsWith('node:') || !external.some((e) => name === e || name.startsWith(`${e}/`))) continue;
  if (isEsmOnly(name)) refused.push(name);
}
if (refused.length > 0) {
  console.error(`scripts/bundle.mjs: ${[...new Set(refused)].join(', ')} ${refused.length === 1 ? 'is' : 'are'} ESM-only but imported statically; import ${refused.length === 1 ? 'it' : 'them'} with await import() where used, or add ${refused.length === 1 ? 'it' : 'them'} to the bundled set.`);
  process.exit(1);
}

function isEsmOnly(name) {
  let resolved;
  try {
    resolved = requireFrom.resolve(name);
  } catch {
    return true; // no CommonJS entry at all
  }
  if (resolved.endsWith('.mjs')) return true;
  if (resolved.endsWith('.cjs')) return false;
  for (let dir = path.dirname(resolved); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const pkg = path.join(dir, 'package.json');
    if (existsSync(pkg)) return JSON.parse(readFileSync(pkg, 'utf8')).type === 'module';
  }
  return false;
}

// The code caches: one child per profile, since the V8 flags must be set before anything compiles.
for (const profile of ['short', 'default']) {
  const r = spawnSync(process.execPath, [path.join(root, 'scripts', 'code-cache.mjs'), profile], { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  if (r.status !== 0) {
    console.error(`${r.stderr}scripts/bundle.mjs: making the ${profile} code cache failed (exit ${r.status ?? r.signal}).`);
    process.exit(1);
  }
  // V8 ignores a cache that does not fit (other flags, other source) without a word: check it is taken.
  const check = `const { loadBundle } = require(${JSON.stringify(path.join(root, 'bin', 'load-bundle.cjs'))}); process.exit(loadBundle(${JSON.stringify(profile)}).script.cachedDataRejected === false ? 0 : 3);`;
  const taken = spawnSync(process.execPath, ['-e', check], { stdio: 'ignore' });
  if (taken.status !== 0) {
    console.error(`scripts/bundle.mjs: the ${profile} code cache was made but V8 does not accept it (exit ${taken.status ?? taken.signal}).`);
    process.exit(1);
  }
}
