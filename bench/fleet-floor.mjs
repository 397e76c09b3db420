// The fleet audit's floor (issue 43 item 10): the git work alone, as `relctl fleet audit` does it on
// warm clones (a fetch of each repository, `git ls-files`, reading every pom.xml it tracks), the
// same number of repositories at once (the CPU count), in a node process of its own as the audit
// runs in one. `node bench/fleet-floor.mjs REPOS-FILE WORKDIR`; bench/fleet.mjs times it.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const [reposFile, workdir] = process.argv.slice(2);
const names = (await readFile(reposFile, 'utf8')).trim().split('\n').map((l) => l.split(' ')[0]);
const jobs = Math.max(1, os.availableParallelism());
let next = 0;
async function worker() {
  while (next < names.length) {
    const dir = path.join(workdir, ...names[next++].split('/'));
    await run('git', ['fetch', '--quiet', '--prune', '--prune-tags', '--tags', '--force', 'origin', '+refs/heads/*:refs/remotes/origin/*'], { cwd: dir });
    const { stdout } = await run('git', ['ls-files', '-z'], { cwd: dir });
    const poms = stdout.split('\0').filter((f) => f === 'pom.xml' || f.endsWith('/pom.xml'));
    await Promise.all(poms.map((f) => readFile(path.join(dir, f), 'utf8')));
  }
}
await Promise.all(Array.from({ length: jobs }, worker));
