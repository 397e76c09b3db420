'use strict';
// Loads the bundled CLI (bundle/cli.cjs, one CommonJS file built by scripts/bundle.mjs) with V8's
// code cache, so a start compiles almost nothing: node 20 has no compile cache of its own for
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
  // Option values are words too (`--cwd preflight`): a wrong guess costs speed, never behaviour.
  const words = argv.filter((a) => !a.startsWith('-'));
  return words.length === 0 || words[0] === 'help' || words.includes('preflight') ? 'short' : 'default';
}

const profileFlags = { short: '--no-opt', default: '' };

/** The cache file of a profile (the flags are part of what V8 checks, so each has its own). */
function cacheFileFor(profile) {
  return path.join(bundleDir, `cli.${profile}.code-cache`);
}

/**
 * Runs bundle/cli.cjs and returns its exports and the compiled script (scripts/code-cache.mjs
 * asks it for the cache once the warm-up has run). Set the profile's flags first: they must be
 * in force before anything is compiled, for the cache and the code alike.
 */
function loadBundle(profile, { useCache = true } = {}) {
  const flags = profileFlags[profile];
  if (flags !== '') v8.setFlagsFromString(flags);
  const source = readFileSync(bundleFile, 'utf8');
  let cachedData;
  if (useCache) {
    try {
      cachedData = readFileSync(cacheFileFor(profile));
    } catch {
      // no cache (not built, or removed): compile as usual
    }
  }
  // CommonJS's own wrapper plus relctlImport, on the first line so line numbers stay the file's.
  const wrapped = `(function (exports, require, module, __filename, __dirname, relctlImport) { ${source}\n});`;
  const script = new vm.Script(wrapped, { filename: bundleFile, ...(cachedData === undefined ? {} : { cachedData }) });
  const module = { exports: {} };
  script.runInThisContext()(module.exports, Module.createRequire(bundleFile), module, bundleFile, bundleDir, importPackage);
  return { exports: module.exports, script };
}

module.exports = { bundleFile, cacheFileFor, loadBundle, profileFor, profileFlags };
