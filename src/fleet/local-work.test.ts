import { describe, expect, it } from 'vitest';
import { statusEntries } from './local-work.js';

describe('statusEntries (git status --porcelain=v2 -z --show-stash)', () => {
  it('names changed, renamed, unmerged and untracked paths (spaces kept), and sees the stash', () => {
    const out = [
      '# stash 2',
      '1 .M N... 100644 100644 100644 aaaa bbbb pom.xml',
      '2 R. N... 100644 100644 100644 aaaa aaaa R100 docs/new name.md',
      'docs/old name.md',
      'u UU N... 100644 100644 100644 100644 aaaa bbbb cccc src/Main.java',
      '? notes.txt',
      '',
    ].join('\u0000');
    expect(statusEntries(out)).toEqual({ modified: ['pom.xml', 'docs/new name.md', 'src/Main.java'], untracked: ['notes.txt'], stash: true });
  });
  it('a clean clone: nothing, and no stash without its header', () => {
    expect(statusEntries('')).toEqual({ modified: [], untracked: [], stash: false });
  });
});
