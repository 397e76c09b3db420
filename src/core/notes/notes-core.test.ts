import { describe, expect, it } from 'vitest';
import { releaseTagCandidates, releaseTagVersion } from '../tag-forms.js';
import { isReleaseToolCommit, noteEntries } from './commits.js';
import { lineDiff } from './diff.js';
import { rangeStart, releaseTags, tagOf, tagsBelow } from './range.js';
import { groupSections, renderMarkdown } from './sections.js';
import { repoFromRemoteUrl, trackerFindings, trackerRefs } from './tracker.js';

const c = (sha: string, message: string) => ({ sha: sha.padEnd(40, '0'), message });

describe('noteEntries', () => {
  it('reads type, scope, breaking marks and references; leaves out release-tool commits and merges', () => {
    const entries = noteEntries(
      [
        c('a1', 'feat(api)!: drop the v1 greeting\n\nCloses #12'),
        c('a2', 'fix: null name\n\nlong body line one\nline two\n\nBREAKING CHANGE: names are required now\nRefs UP-7, acme/other#3'),
        c('a3', 'docs(readme): explain notes'),
        c('a4', 'Update the logo for the pre-release page (UTF-8, SHA-256)'),
        c('a5', '[maven-release-plugin] prepare release demo-1.0.1'),
        c('a6', '[Gradle Release Plugin] - pre tag commit:  \'demo-1.0.1\'.'),
        c('a7', '[Gradle Release Plugin] - new version commit:  \'demo-1.0.2-SNAPSHOT\'.'),
        c('a8', 'chore: pre-release prep'),
        c('a9', "Merge branch 'feature'"),
        c('b1', 'fix(i18n): Grüße für naïve Nutzer 🎉'),
      ],
      { jiraProjects: ['UP'] },
    );
    expect(entries.map((e) => [e.sha.slice(0, 2), e.type, e.scope, e.subject, e.breaking, e.refs])).toEqual([
      ['a1', 'feat', 'api', 'drop the v1 greeting', true, ['#12']],
      ['a2', 'fix', null, 'null name', true, ['UP-7', 'acme/other#3']],
      ['a3', 'docs', 'readme', 'explain notes', false, []],
      ['a4', null, null, 'Update the logo for the pre-release page (UTF-8, SHA-256)', false, []],
      ['b1', 'fix', 'i18n', 'Grüße für naïve Nutzer 🎉', false, []],
    ]);
  });

  it('without configured Jira projects, upper-case KEY-N references count, standards do not', () => {
    const [e] = noteEntries([c('a1', 'fix: encode as UTF-8 per RFC-7231 (JIRA-42, see ISO-8859)')]);
    expect(e!.refs).toEqual(['JIRA-42']);
  });

  it('knows the release tools\' commit subjects', () => {
    expect(isReleaseToolCommit('[maven-release-plugin] prepare for next development iteration')).toBe(true);
    expect(isReleaseToolCommit('chore: pre-release prep\n\nnotices')).toBe(true);
    expect(isReleaseToolCommit('chore: pre-release preparation of docs is a normal commit')).toBe(false);
    expect(isReleaseToolCommit('fix: mention [maven-release-plugin] in docs')).toBe(false);
  });
});

describe('sections and markdown', () => {
  it('orders sections, omits empty ones, lists breaking changes once and names the orphan first', () => {
    const entries = noteEntries([
      c('a1', 'chore: tidy'),
      c('a2', 'untyped change'),
      c('a3', 'fix(core): one'),
      c('a4', 'feat!: two'),
      c('a5', 'feat(ui): three #4'),
    ]);
    const sections = groupSections(entries);
    expect(sections.map((s) => s.title)).toEqual(['Breaking changes', 'Features', 'Fixes', 'Chores', 'Other']);
    expect(sections[0]!.entries.map((e) => e.subject)).toEqual(['two']);
    const md = renderMarkdown({ version: '1.0.2', previous: '1.0.0', skipped: ['1.0.1'], sections });
    expect(md.split('\n')[0]).toBe('1.0.1 was prepared but not published; this release supersedes it.');
    expect(md).toContain('## Features\n\n- **ui:** three #4 (a500000)\n');
    expect(md).toContain('## Chores\n\n- **chore:** tidy (a100000)\n');
    expect(md).toContain('## Breaking changes\n\n- **feat:** two (a400000)\n');
    expect(renderMarkdown({ previous: '1.0.0', skipped: [], sections: [] })).toBe('No changes since 1.0.0.\n');
  });
});

describe('tag forms and the range', () => {
  it('knows the four forms and reads them back', () => {
    expect(releaseTagCandidates('demo', '1.2.3', 'release-$version')).toEqual(['release-1.2.3', 'demo-1.2.3', 'v1.2.3', '1.2.3']);
    expect(releaseTagVersion('demo-1.2.3', 'demo')).toBe('1.2.3');
    expect(releaseTagVersion('v1.2.3', 'demo')).toBe('1.2.3');
    expect(releaseTagVersion('release-1.2.3', 'demo', 'release-$version')).toBe('1.2.3');
    expect(releaseTagVersion('demo-core-1.2.3', 'demo')).toBeUndefined();
    expect(releaseTagVersion('v1.2.3-SNAPSHOT', 'demo')).toBeUndefined();
  });

  it('starts after the newest published release; orphans in between are skipped, oldest first', () => {
    const tags = releaseTags(['demo-1.0.0', 'v1.0.0', 'demo-1.0.1', 'demo-1.0.2', 'demo-1.0.3', 'other-9.9.9'], 'demo');
    expect(tags.map((t) => t.tag)).toEqual(['demo-1.0.3', 'demo-1.0.2', 'demo-1.0.1', 'demo-1.0.0']);
    expect(tagOf(['v1.0.3', 'demo-1.0.3'], 'demo', '1.0.3')).toBe('demo-1.0.3');
    const below = tagsBelow(tags, '1.0.3');
    const published = new Map([['1.0.2', false], ['1.0.1', false], ['1.0.0', true]]);
    expect(rangeStart(below, (v) => published.get(v))).toEqual({ start: { tag: 'demo-1.0.0', version: '1.0.0' }, skipped: ['1.0.1', '1.0.2'] });
    // Unknown counts as published: a shorter range rather than a claimed orphan.
    expect(rangeStart(below, () => undefined)).toEqual({ start: { tag: 'demo-1.0.2', version: '1.0.2' }, skipped: [] });
    expect(rangeStart([], () => true)).toEqual({ skipped: [] });
    // Nothing below is published: never released there; the newest tag starts, no orphan claimed.
    expect(rangeStart(below, () => false)).toEqual({ start: { tag: 'demo-1.0.2', version: '1.0.2' }, skipped: [] });
    // ...but an orphan the journal knows is never the start.
    expect(rangeStart(below, () => false, new Set(['1.0.2']))).toEqual({ start: { tag: 'demo-1.0.1', version: '1.0.1' }, skipped: ['1.0.2'] });
    expect(rangeStart(below.slice(0, 1), () => undefined, new Set(['1.0.2']))).toEqual({ skipped: ['1.0.2'] });
  });
});

describe('tracker', () => {
  it('reads owner/name from remote URLs of any host', () => {
    expect(repoFromRemoteUrl('git@github.com:Jasig/uPortal.git')).toEqual({ owner: 'Jasig', name: 'uPortal' });
    expect(repoFromRemoteUrl('https://git.example.org/scm/apereo/uPortal-start.git/')).toEqual({ owner: 'apereo', name: 'uPortal-start' });
    expect(repoFromRemoteUrl('ssh://git@host:2222/o/n')).toEqual({ owner: 'o', name: 'n' });
    expect(repoFromRemoteUrl('/just-one')).toBeUndefined();
  });

  it('classifies references and turns answers into findings (errors with --strict)', () => {
    const refs = trackerRefs(['#1', 'o/r#2', 'UP-3', '#1'], { owner: 'a', name: 'b' });
    expect(refs).toEqual([
      { kind: 'github', ref: '#1', repo: { owner: 'a', name: 'b' }, number: 1 },
      { kind: 'github', ref: 'o/r#2', repo: { owner: 'o', name: 'r' }, number: 2 },
      { kind: 'jira', ref: 'UP-3', key: 'UP-3' },
    ]);
    const results = [
      { ref: '#1', outcome: 'resolved' as const },
      { ref: 'o/r#2', outcome: 'unresolved' as const, status: 'open' },
      { ref: 'UP-3', outcome: 'unknown' as const, where: 'Jira' },
      { ref: '#4', outcome: 'unreachable' as const, reason: 'connection refused' },
    ];
    expect(trackerFindings(results, false).map((f) => `${f.code}:${f.severity}`)).toEqual(['tracker-unresolved:warning', 'tracker-unknown:warning', 'tracker-unreachable:warning']);
    expect(trackerFindings(results, true).every((f) => f.severity === 'error')).toBe(true);
  });
});

describe('lineDiff', () => {
  it('marks removed and added lines', () => {
    expect(lineDiff('a\nb\nc', 'a\nB\nc\nd')).toEqual(['  a', '- b', '+ B', '  c', '+ d']);
  });
});
