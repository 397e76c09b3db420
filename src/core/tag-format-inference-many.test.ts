import { describe, expect, it } from 'vitest';
import { chooseTagTemplate, inferTagFormat, type TagFormatInference } from './tag-format-inference.js';

/**
 * Tags at any count (issue 41 item 7): learning the format was quadratic in the tags (every
 * candidate format compared with every other), and is linear now. Not timed (bench/tag-count.mjs
 * measures): the answers for many tags are the ones the quadratic version gave, recorded from it
 * on these very inputs.
 */
const range = (n: number, f: (i: number) => string): string[] => Array.from({ length: n }, (_, i) => f(i + 1));
const build = (n: number): string[] => range(n, (i) => `build-${i}-r${i}`);
const summary = (r: TagFormatInference) => ({ template: r.template, evidence: r.evidence.length, first: r.evidence[0], why: r.why });

describe('inferTagFormat with many tags gives the answers it gave before', () => {
  it('40,000 CI build tags: no format, and says so', () => {
    expect(summary(inferTagFormat(build(40_000), ['7-SNAPSHOT']))).toEqual({
      template: undefined,
      evidence: 0,
      first: undefined,
      why: 'only build-1-r1 spells a version shaped like N; 2 tags in one format are needed',
    });
    expect(chooseTagTemplate(undefined, build(40_000), ['7-SNAPSHOT'], 'lib').note).toBe(
      "No tag format learned from the project's 40000 tags: only build-1-r1 spells a version shaped like N; 2 tags in one format are needed.",
    );
  });

  it('3,000 release tags among 20,000 build tags: the release format', () => {
    const tags = [...build(20_000), ...range(3_000, (i) => `rel_3_${Math.floor(i / 100)}_${i % 100}_ga`)];
    expect(summary(inferTagFormat(tags, ['3.30.2-GA']))).toEqual({
      template: 'rel_{version|lower|.=_|-=_}',
      evidence: 3000,
      first: { tag: 'rel_3_0_1_ga', version: '3.0.1-GA' },
      why: 'tag format rel_{version|lower|.=_|-=_} learned from 3000 tags (3.30.0-GA is tagged rel_3_30_0_ga)',
    });
  });

  it('two formats on 5,000 tags each: ambiguous, the two named', () => {
    const tags = [...range(5_000, (i) => `v1.${Math.floor(i / 100)}.${i % 100}`), ...range(5_000, (i) => `release-1.${Math.floor(i / 100)}.${i % 100}`), ...build(5_000)];
    expect(summary(inferTagFormat(tags, ['1.2.3-SNAPSHOT'])).why).toBe(
      'the tags fit more than one format: v{version} (5000 tags, e.g. v1.0.1) and release-{version} (5000, e.g. release-1.0.1)',
    );
  });

  it('readings of a narrower shape join the one fuller format they agree with (v12 joins v{version|.=_})', () => {
    const tags = [...build(3_000), ...range(2_000, (i) => `v1_${Math.floor(i / 100)}_${i % 100}`), ...range(2_000, (i) => `v${i + 10}`)];
    expect(summary(inferTagFormat(tags, ['7', '1.2.3'])).why).toBe(
      'the tags fit more than one format: v{version|.=_} (4000 tags, e.g. v1_0_1) and v1_1_{version} (100, e.g. v1_1_0)',
    );
  });
});
