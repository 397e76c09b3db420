import type { Branches } from './branches.js';
import { GitBranches } from './git-branches.js';
import type { GithubCall } from './request.js';
import type { RepoRecord } from './state.js';
import { StoreBranches } from './store-branches.js';

/** A repository's record and branches: the git root's repository of that name when there is one. */
export async function repoTarget(call: GithubCall): Promise<{ record: RepoRecord; branches: Branches }> {
  const [, owner, name] = call.segments as [string, string, string];
  const located = await call.gh.gitRoot?.locate(owner, name);
  if (located === undefined) {
    const record = call.gh.repo(owner, name);
    return { record, branches: new StoreBranches(record) };
  }
  // Spelled as the folders are, so full_name is the same whichever spelling a client used first.
  return { record: call.gh.repo(located.owner, located.name), branches: new GitBranches(located.dir) };
}
