import type { Check } from './types.js';

const shown = 5;

/**
 * The release commits and tag must contain exactly what is committed. Outside a git repository
 * these checks have nothing to say (an exported source tree is a legitimate thing to audit);
 * preflight mentions on stderr that they were skipped.
 */
export const repoDirtyWorktree: Check = {
  id: 'repo-dirty-worktree',
  codes: ['dirty-worktree'],
  title: 'the working tree is clean',
  appliesTo: (facts) => facts.git?.isRepository === true,
  run(facts) {
    const dirty = facts.git!.dirtyFiles;
    if (dirty.length === 0) return [];
    const list = dirty.slice(0, shown).join(', ') + (dirty.length > shown ? ` and ${dirty.length - shown} more` : '');
    return [
      {
        code: 'dirty-worktree',
        severity: 'error',
        message: `The working tree has ${dirty.length} uncommitted change${dirty.length === 1 ? '' : 's'} (${list}); the release would tag a state that is not committed.`,
        fix: 'Commit or stash the changes (git status shows them), then run preflight again.',
      },
    ];
  },
};

export const repoDetachedHead: Check = {
  id: 'repo-detached-head',
  codes: ['detached-head'],
  title: 'HEAD is on a branch',
  appliesTo: (facts) => facts.git?.isRepository === true,
  run(facts) {
    const git = facts.git!;
    if (!git.detached) return [];
    const at = git.headCommit === undefined ? '' : ` at ${git.headCommit.slice(0, 12)}`;
    return [
      {
        code: 'detached-head',
        severity: 'error',
        message: `HEAD is detached${at}; the release commits would belong to no branch and could not be pushed.`,
        fix: 'Check out the branch to release from (git switch main), then run preflight again.',
      },
    ];
  },
};
