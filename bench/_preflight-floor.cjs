'use strict';
// The least any preflight of a project can take in node (bench/startup.mjs measures it beside
// relctl's): start node, load node:child_process, ask git what relctl asks it (the status and the
// tag list, through one shell, as src/io/git.ts does, but synchronously: the cheapest way measured)
// and read the project's pom.xml. No checks, no output. Usage: node bench/_preflight-floor.cjs DIR
const { spawnSync } = require('node:child_process');
const { readFileSync } = require('node:fs');
const path = require('node:path');

const dir = process.argv[2];
const script = "git -c core.quotePath=false status --porcelain=v2 --branch -z --untracked-files=normal; printf '\\000'; git for-each-ref '--format=%(refname:lstrip=2)' refs/tags; printf '\\000'; git for-each-ref --points-at=HEAD '--format=%(refname:lstrip=2)' refs/tags 2>/dev/null";
const git = spawnSync('/bin/sh', ['-c', script], { cwd: dir, encoding: 'utf8', env: { ...process.env, GIT_OPTIONAL_LOCKS: '0', LC_ALL: 'C' } });
const pom = readFileSync(path.join(dir, 'pom.xml'), 'utf8');
if (git.status !== 0 || !git.stdout.startsWith('# branch.oid') || !pom.includes('<project')) {
  process.stderr.write(`preflight floor: git or pom.xml gave no answer in ${dir} (git exit ${git.status})\n`);
  process.exit(1);
}
