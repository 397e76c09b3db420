'use strict';
// Loads the bundled CLI (bundle/cli.cjs and the chunks it asks for, CommonJS files built by
// scripts/bundle.mjs) with V8's code caches, so a start compiles almost nothing: node 20 has no compile cache of its own for
// ES modules, and on a small machine compiling relctl's code cost more than running preflight's
// checks. The cache is made at build time (scripts/code-cache.mjs) and only read here; V8 checks
// it against the source, its own version and the flags, and a cache that does not fit is ignored
// (the code is then compiled as usual). Shared by bin/relctl.js and scripts/code-cache.mjs.
const { readFileSync } = require('node:fs');
const Module = require('node:module');
const path = require('node:path');
const v8 = require('node:v8');
const vm = require('node:vm');

const bundleDir = path.join(__dirname, '..', 'bundle');

/**
 * The bundle's `import('undici')` and the like, done here: scripts/bundle.mjs rewrites them to
 * call this. node 20 loses a vm script's own import() handler when its code comes from a code
 * cache, and its main-context loader for vm is experimental (it warns on stderr). This file is
 * an ordinary module: its import() resolves from bin/ to the same node_modules.
 */
const importPackage = (specifier) => import(specifier);
const bundleFile = path.join(bundleDir, 'cli.cjs');

/**
 * The commands that run for a fraction of a second (preflight, --version, --help) start faster
 * without V8's optimizing compiler: its background compiles compete with the command for the
 * cores and the process waits for them at exit, for code that would not run long enough to pay
 * back. Long commands (the release chain, the sandbox, signature checks) keep it.
 */
function profileFor(argv) {
  const words = wordsOf(argv);
  return words.length === 0 || words[0] === 'help' || words.includes('preflight') ? 'short' : 'default';
}

/** The arguments that are not options. Option values are words too (`--cwd preflight`): a wrong guess costs speed, never behaviour. */
const wordsOf = (argv) => argv.filter((a) => !a.startsWith('-'));

const profileFlags = { short: '--no-opt', default: '' };

/**
 * A preflight loads about fifty chunks. Read and compiled one by one, their files, their caches and
 * V8's per-script work cost more than a whole preflight's checks, so the build also writes them as
 * one pack (bundle/preflight.pack.cjs: each chunk a function in one script, with one code cache;
 * scripts/code-cache.mjs). A chunk the pack lacks (SARIF's, GitHub's, --fix's) loads from its file.
 */
function packFor(argv) {
  return wordsOf(argv).includes('preflight') ? 'preflight' : undefined;
}

const packFile = (pack) => path.join(bundleDir, `${pack}.pack.cjs`);

/** A chunk's source as a function of CommonJS's arguments and the two loaders, on the first line so line numbers stay the chunk's. */
function chunkFunction(source) {
  return `(function (exports, require, module, __filename, __dirname, relctlImport, relctlChunk) { ${source}\n})`;
}

/** The pack of these chunks (`cli.cjs`, `c-….cjs` in bundle/): a script whose value maps each file's name to its function. */
function packSource(names) {
  return `new Map([\n${names.map((name) => `[${JSON.stringify(name)}, ${chunkFunction(readFileSync(path.join(bundleDir, name), 'utf8'))}],\n`).join('')}]);\n`;
}

/**
 * node's own modules compile from node's built-in code cache only while V8's flags are the ones it
 * was made with: one loaded after setFlagsFromString compiles from source (about 10 ms of a small
 * preflight for these). The ones the short commands use are loaded first.
 */
const preloadedBuiltins = ['node:child_process', 'node:fs/promises', 'node:os', 'node:tty'];

/** The cache file of a chunk (`cli.cjs`, `c-….cjs`) for a profile. */
function chunkCacheFile(file, profile) {
  return file.replace(/\.cjs$/, `.${profile}.code-cache`);
}

/**
 * Runs bundle/cli.cjs and returns its exports and the scripts compiled so far, by file: the pack's
 * and each chunk's loaded from its own file (scripts/code-cache.mjs asks them for their caches
 * once the warm-up has run). A chunk's `require('./c-….cjs')` and `import('./c-….cjs')` (routed
 * to relctlChunk by scripts/bundle.mjs) run it once, from the pack when it is there, else from its
 * file and code cache; other requires are node's. Set the profile's flags first: they must be in
 * force before anything is compiled, for the cache and the code alike.
 */
function loadBundle(profile, { useCache = true, pack } = {}) {
  const flags = profileFlags[profile];
  if (flags !== '') {
    for (const name of preloadedBuiltins) require(name);
    v8.setFlagsFromString(flags);
  }
  const loaded = new Map();
  const scripts = new Map();
  const nodeRequire = Module.createRequire(bundleFile);
  const chunkRequire = (id) => (id.startsWith('./') ? load(path.join(bundleDir, id)) : nodeRequire(id));
  const relctlChunk = (id) => new Promise((resolve) => resolve(chunkRequire(id)));
  const compile = (source, file) => {
    let cachedData;
    if (useCache) {
      try {
        cachedData = readFileSync(chunkCacheFile(file, profile));
      } catch {
        // no cache (not built, not warmed, or removed): compile as usual
      }
    }
    const script = new vm.Script(source, { filename: file, ...(cachedData === undefined ? {} : { cachedData }) });
    scripts.set(file, script);
    return script.runInThisContext();
  };
  const packed = pack === undefined ? undefined : readPack(packFile(pack), compile);
  function load(file) {
    const known = loaded.get(file);
    if (known !== undefined) return known.exports;
    const fn = packed?.get(path.basename(file)) ?? compile(`${chunkFunction(readFileSync(file, 'utf8'))};`, file);
    const module = { exports: {} };
    // Registered before it runs, as node's require does, so a cycle between chunks sees the
    // exports object being filled instead of loading the chunk twice.
    loaded.set(file, module);
    fn(module.exports, chunkRequire, module, file, bundleDir, importPackage, relctlChunk);
    return module.exports;
  }
  const exports = load(bundleFile);
  return { exports, scripts };
}

/** The pack's map of chunk functions, or undefined when the build wrote none (the chunks' files are then used). */
function readPack(file, compile) {
  let source;
  try {
    source = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  return compile(source, file);
}

module.exports = { bundleFile, chunkCacheFile, loadBundle, packFile, packFor, packSource, profileFor, profileFlags };
