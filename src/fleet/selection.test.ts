import { describe, expect, it } from 'vitest';
import { filterListed, isRepoName, mergeSelections, onlyOne, parseRepoLines } from './selection.js';

describe('parseRepoLines', () => {
  it('reads names, URLs and comments, and keeps a URL fragment', () => {
    const r = parseRepoLines('\uFEFF# the fleet\r\napereo/uPortal\n\n  apereo/cas https://git.example.org/cas.git#main  # moved\nBedework/bw-util ../bw-util.git\n');
    expect(r.problems).toEqual([]);
    expect(r.repos).toEqual([
      { name: 'apereo/uPortal' },
      { name: 'apereo/cas', url: 'https://git.example.org/cas.git#main' },
      { name: 'Bedework/bw-util', url: '../bw-util.git' },
    ]);
  });

  it('names every bad line and a repository listed twice (any case)', () => {
    const r = parseRepoLines('apereo/a\nno-slash\napereo/b url extra\nApereo/A\n../etc/passwd\n', 'repos.txt line');
    expect(r.problems).toEqual([
      'repos.txt line 2: "no-slash" does not start with OWNER/NAME',
      'repos.txt line 3: "apereo/b url extra" has more than a name and a URL',
      'repos.txt line 4: Apereo/A is already listed (repos.txt line 1)',
      'repos.txt line 5: "../etc/passwd" does not start with OWNER/NAME',
    ]);
  });

  it('refuses names a folder could escape with', () => {
    expect(isRepoName('apereo/..')).toBe(false);
    expect(isRepoName('./x')).toBe(false);
    expect(isRepoName('a/b/c')).toBe(false);
    expect(isRepoName('apereo/uPortal-start')).toBe(true);
  });
});

describe('filterListed', () => {
  const listed = [
    { fullName: 'apereo/uPortal', archived: false, fork: false, topics: ['uportal'], cloneUrl: 'https://h/apereo/uPortal.git', defaultBranch: 'master' },
    { fullName: 'apereo/old', archived: true, fork: false, topics: ['uportal'] },
    { fullName: 'apereo/fork', archived: false, fork: true, topics: [] },
    { fullName: 'apereo/cas', archived: false, fork: false, topics: ['cas'] },
  ];

  it('leaves out archived repositories and forks unless asked', () => {
    expect(filterListed(listed, { archived: false, forks: false }).map((r) => r.name)).toEqual(['apereo/uPortal', 'apereo/cas']);
    expect(filterListed(listed, { archived: true, forks: true }).map((r) => r.name)).toHaveLength(4);
  });

  it('filters by topic, include and exclude, and keeps the clone URL and default branch', () => {
    expect(filterListed(listed, { archived: true, forks: false, topic: 'uportal' })).toEqual([
      { name: 'apereo/uPortal', url: 'https://h/apereo/uPortal.git', branch: 'master' },
      { name: 'apereo/old' },
    ]);
    expect(filterListed(listed, { archived: false, forks: false, include: /^apereo\/u/i, exclude: /cas/ }).map((r) => r.name)).toEqual(['apereo/uPortal']);
  });
});

describe('mergeSelections and onlyOne', () => {
  it('keeps the first mention of a name and sorts by name', () => {
    const merged = mergeSelections([{ name: 'b/x', url: '/local/x.git' }], [{ name: 'B/X', url: 'https://h/b/x.git' }, { name: 'a/y' }]);
    expect(merged).toEqual([{ name: 'a/y' }, { name: 'b/x', url: '/local/x.git' }]);
  });

  it('finds one repository by OWNER/NAME or a unique NAME, and says why not', () => {
    const repos = [{ name: 'a/web' }, { name: 'b/web' }, { name: 'a/core' }];
    expect(onlyOne(repos, 'A/WEB')).toEqual({ name: 'a/web' });
    expect(onlyOne(repos, 'core')).toEqual({ name: 'a/core' });
    expect(onlyOne(repos, 'web')).toEqual({ problem: '--only web names 2 repositories (a/web, b/web); give OWNER/NAME' });
    expect(onlyOne(repos, 'nope')).toEqual({ problem: '--only nope is not one of the 3 selected repositories' });
  });
});
