#!/usr/bin/env node
'use strict';
// Thin shim: the compiled CLI lives in dist/ (built by `npm install` through the prepare script),
// and `npm run build` bundles it into bundle/cli.cjs with a V8 code cache for a faster start
// (bin/load-bundle.cjs, scripts/bundle.mjs). In a checkout (src/ present), a bundle older than
// dist/ (tsc was run alone since) is stale and not used. An installed package (npm pack, npm i
// from a git URL) has no src/ and always starts from its bundle: unpacking gives its files new
// mtimes in no particular order, so dist/ may look newer there without being so.
//
// CommonJS (bin/package.json says so): an ES module entry makes node set up its ES module loader
// on every start, `relctl --version` included, which cost more than this file does.
const { readFileSync, statSync } = require('node:fs');
const path = require('node:path');

// `relctl --version` alone needs nothing but package.json: no bundle, no commander.
const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  process.stdout.write(`${JSON.parse(readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8')).version}\n`);
  process.exit(0);
}

const mtime = (rel) => statSync(path.join(__dirname, rel), { throwIfNoEntry: false })?.mtimeMs ?? -1;
const checkout = mtime('../src/cli.ts') !== -1;
const useBundle = mtime('../bundle/cli.cjs') !== -1 && (!checkout || mtime('../bundle/cli.cjs') >= mtime('../dist/cli.js'));

// `relctl --help` to a pipe or a file: the text the build wrote (scripts/bundle.mjs), no CLI
// loaded. On a terminal commander wraps it to the window's width, so the CLI prints it.
const prebuiltHelp = () => {
  try {
    return readFileSync(path.join(__dirname, '..', 'bundle', 'help.txt'), 'utf8');
  } catch {
    return undefined; // not written yet (the build is making it): the CLI prints it
  }
};
const help = useBundle && argv.length === 1 && (argv[0] === '--help' || argv[0] === '-h') && !require('node:tty').isatty(1) ? prebuiltHelp() : undefined;
if (help !== undefined) {
  // A reader that went away (`relctl --help | true`) is no error: there is nothing else to do
  // (DESIGN §3). Without a listener node reports an unhandled 'error' event.
  process.stdout.on('error', () => undefined);
  process.stdout.write(help);
} else if (useBundle) {
  const bundle = require('./load-bundle.cjs');
  void bundle.loadBundle(bundle.profileFor(argv), { pack: bundle.packFor(argv) }).exports.runFromProcess();
} else {
  // dist/ is ES modules: import() loads them from this CommonJS file.
  void import('../dist/cli.js').then((cli) => cli.runFromProcess());
}
