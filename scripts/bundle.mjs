#!/usr/bin/env node
// Bundles the compiled CLI (dist/, from tsc) into CommonJS chunks, bundle/cli.cjs and the
// bundle/c-*.cjs it loads on demand, then makes their V8 code caches (scripts/code-cache.mjs).
// Run by `npm run build` after tsc. bin/relctl.js loads the bundle through bin/load-bundle.cjs
// unless dist/ is newer.
//
// Why CommonJS: node 20 loads ES modules file by file, asynchronously, and has no compile cache
// for them; a script can be compiled from a cache. Why chunks: with one file, every command read
// and deserialised the code of all the others (--version included); a command now loads the
// entry and the chunks its own modules are in, so its start does not grow with the others.
// Packages stay external (node_modules) and are loaded by the commands that need them, except
// commander (on every start) and the ESM-only packages a module imports statically (a CommonJS
// file cannot require them on node 20). Code that finds files relative to its own module must not
// assume its depth (see src/io/package-info.ts): bundle/ sits one level below the package root.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, transform } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const outdir = path.join(root, 'bundle');
const outfile = path.join(outdir, 'cli.cjs');
const { dependencies } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const bundled = new Set(['commander', 'conventional-commits-parser']);
const external = Object.keys(dependencies).filter((name) => !bundled.has(name));

rmSync(outdir, { recursive: true, force: true });
// esbuild splits only ES modules: each command (and each lazily imported part) becomes the chunks
// only it needs, and code shared by several goes into chunks of its own. Each chunk is then
// turned into CommonJS, so it can be compiled from a code cache like the entry.
const result = await build({
  entryPoints: [path.join(root, 'dist', 'cli.js')],
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external,
  chunkNames: 'c-[hash]',
  outExtension: { '.js': '.cjs' },
  // The one module that asks for its own location (package-info) gets the bundle's, computed when
  // asked: every chunk has the banner, and a start loads dozens of chunks.
  define: { 'import.meta.url': 'relctlBundle.url' },
  banner: { js: "const relctlBundle = { get url() { return require('node:url').pathToFileURL(__filename).href; } };" },
  legalComments: 'none',
  logLevel: 'warning',
  metafile: true,
  plugins: [commanderChildProcessOnDemand()],
});

/**
 * commander requires node:child_process when it loads, for executable subcommands relctl never
 * has; node:child_process brings net, streams and dgram with it. Its require is answered with an
 * object that loads the module on first use, so a start that spawns nothing never loads it.
 */
function commanderChildProcessOnDemand() {
  return {
    name: 'commander-child-process-on-demand',
    setup(b) {
      b.onResolve({ filter: /^(node:)?child_process$/ }, (args) =>
        args.importer.includes(`${path.sep}node_modules${path.sep}commander${path.sep}`) ? { path: 'child_process', namespace: 'on-demand' } : undefined,
      );
      b.onLoad({ filter: /.*/, namespace: 'on-demand' }, () => ({
        contents: "let m; const get = () => (m ??= require('node:child_process')); module.exports = new Proxy({}, { get: (_, k) => get()[k], has: (_, k) => k in get() });",
        loader: 'js',
      }));
    },
  };
}

const outputs = Object.keys(result.metafile.outputs).map((f) => path.resolve(root, f));
let text = '';
for (const file of outputs) {
  const esm = readFileSync(file, 'utf8');
  const { code } = await transform(esm, { format: 'cjs', platform: 'node', target: 'node20', logLevel: 'warning' });
  // import('pkg') calls bin/load-bundle.cjs's import instead (why: see relctlImport there), and a
  // chunk's import('./c-….cjs') its chunk loader. Any other import() could not be routed: fail.
  const routed = code
    .replace(/\bimport\(("\.\/[^"]+\.cjs")\)/g, (_, name) => `relctlChunk(${name})`)
    .replace(/\bimport\(("[^".][^"]*")\)/g, (_, name) => `relctlImport(${name})`)
    // esbuild leaves non-ASCII in comments and regular expressions. One such character makes node
    // read the whole file (or the pack it goes into) as a two-byte string, which V8 then hashes and
    // scans at twice the size. A \u escape means the same code unit in a string, a regular
    // expression, a template and an identifier alike, unless a backslash escapes the character.
    .replace(/(\\*)([^\x00-\x7f])/g, (_, slashes, c) => {
      if (slashes.length % 2 === 1) {
        console.error(`scripts/bundle.mjs: ${path.basename(file)} escapes the non-ASCII character ${c} with a backslash; write it as a \\u escape in the source.`);
        process.exit(1);
      }
      return `${slashes}\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
    });
  const unrouted = routed.match(/.{0,40}\bimport\(.{0,40}/);
  if (unrouted !== null) {
    console.error(`scripts/bundle.mjs: a dynamic import that is neither a chunk nor a package name cannot be routed: ${unrouted[0]}`);
    process.exit(1);
  }
  writeFileSync(file, routed);
  text += routed;
}

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

// The top-level help's command list (src/io/command-summary.ts): `relctl --help` then loads no
// command module. Made from the bundle just written, so it cannot disagree with the commands.
const summary = spawnSync(process.execPath, ['-e', `require(${JSON.stringify(path.join(root, 'bin', 'load-bundle.cjs'))}).loadBundle('default', { useCache: false }).exports.commandSummary().then((s) => process.stdout.write(JSON.stringify(s)))`], { encoding: 'utf8' });
if (summary.status !== 0) {
  console.error(`${summary.stderr}scripts/bundle.mjs: listing the commands for the help failed (exit ${summary.status ?? summary.signal}).`);
  process.exit(1);
}
writeFileSync(path.join(outdir, 'commands.json'), `${JSON.stringify(JSON.parse(summary.stdout), null, 1)}\n`);

// `relctl --help` to a pipe or a file (commander wraps it at 80 columns there, whatever the
// environment): the text itself, which bin/relctl.js prints without loading the CLI at all.
// Made by the bundle just written, with stdout a pipe, so it is that help byte for byte.
const help = spawnSync(process.execPath, [path.join(root, 'bin', 'relctl.js'), '--help'], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', NO_COLOR: '1' } });
if (help.status !== 0 || !help.stdout.startsWith('Usage: relctl')) {
  console.error(`${help.stderr}scripts/bundle.mjs: writing the top-level help failed (exit ${help.status ?? help.signal}).`);
  process.exit(1);
}
writeFileSync(path.join(outdir, 'help.txt'), help.stdout);

// The code caches: one child per profile, since the V8 flags must be set before anything compiles;
// the short profile's first child also writes the preflight pack, whose cache a second one makes.
for (const { profile, pack } of [{ profile: 'short' }, { profile: 'short', pack: 'preflight' }, { profile: 'default' }]) {
  const what = `${profile}${pack === undefined ? '' : ` ${pack} pack`} code cache`;
  const r = spawnSync(process.execPath, [path.join(root, 'scripts', 'code-cache.mjs'), profile, ...(pack === undefined ? [] : ['--pack', pack])], { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  if (r.status !== 0) {
    console.error(`${r.stderr}scripts/bundle.mjs: making the ${what} failed (exit ${r.status ?? r.signal}).`);
    process.exit(1);
  }
  // V8 ignores a cache that does not fit (other flags, other source) without a word: check that
  // every script a start loads (the pack, each chunk outside it) takes its cache.
  const check = `const { loadBundle } = require(${JSON.stringify(path.join(root, 'bin', 'load-bundle.cjs'))}); process.exit([...loadBundle(${JSON.stringify(profile)}, ${JSON.stringify({ pack })}).scripts.values()].every((s) => s.cachedDataRejected === false) ? 0 : 3);`;
  const taken = spawnSync(process.execPath, ['-e', check], { stdio: 'ignore' });
  if (taken.status !== 0) {
    console.error(`scripts/bundle.mjs: the ${what} was made but V8 does not accept it (exit ${taken.status ?? taken.signal}).`);
    process.exit(1);
  }
}
