import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  compareVersions,
  formatVersion,
  isSnapshotVersion,
  nextDevelopmentVersion,
  nextPatch,
  parseVersion,
  planRelease,
  releaseTagName,
  releaseVersionOf,
  renderTag,
  type Version,
} from './version.js';

const versionArb: fc.Arbitrary<Version> = fc.record({
  numbers: fc.array(fc.nat(5000), { minLength: 1, maxLength: 6 }),
  snapshot: fc.boolean(),
});

describe('parseVersion', () => {
  it.each([
    ['1.2.3', { numbers: [1, 2, 3], snapshot: false }],
    ['0.0.0-SNAPSHOT', { numbers: [0, 0, 0], snapshot: true }],
    [' 10.20.30-SNAPSHOT\n', { numbers: [10, 20, 30], snapshot: true }],
    ['4.2.8.Final-SNAPSHOT', { numbers: [4, 2, 8], qualifier: '.Final', snapshot: true }],
    ['1.0.0-M1-SNAPSHOT', { numbers: [1, 0, 0], qualifier: '-M1', snapshot: true }],
    ['1.2.3-RC1', { numbers: [1, 2, 3], qualifier: '-RC1', snapshot: false }],
    // Any count of numeric parts (cas-server-security-filter's 2.0.10.5-SNAPSHOT; parents' 41).
    ['2.0.10.5-SNAPSHOT', { numbers: [2, 0, 10, 5], snapshot: true }],
    ['1.8.16.GA-SNAPSHOT', { numbers: [1, 8, 16], qualifier: '.GA', snapshot: true }],
    ['1.2', { numbers: [1, 2], snapshot: false }],
    ['41-SNAPSHOT', { numbers: [41], snapshot: true }],
  ])('accepts %j', (text, expected) => {
    expect(parseVersion(text)).toEqual(expected);
  });

  it.each(['1..2', '1.2.', '1.2.3-snapshot', '1.2.3.Final-snapshot', '01.2.3', '${revision}', '', 'v1.2.3', '1.2.3-SNAPSHOT-SNAPSHOT'])(
    'rejects %j',
    (text) => {
      expect(parseVersion(text)).toBeUndefined();
    },
  );

  it('round-trips every version it formats', () => {
    fc.assert(
      fc.property(versionArb, (v) => {
        expect(parseVersion(formatVersion(v))).toEqual(v);
      }),
    );
  });

  it('never throws on arbitrary text', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        parseVersion(s);
      }),
    );
  });
});

describe('version steps', () => {
  it('keeps a qualifier through the release and counts a milestone up', () => {
    const final = parseVersion('4.2.8.Final-SNAPSHOT')!;
    expect(formatVersion(releaseVersionOf(final))).toBe('4.2.8.Final');
    expect(formatVersion(nextDevelopmentVersion(final))).toBe('4.2.9.Final-SNAPSHOT');
    const milestone = parseVersion('1.0.0-M1-SNAPSHOT')!;
    expect(formatVersion(releaseVersionOf(milestone))).toBe('1.0.0-M1');
    expect(formatVersion(nextDevelopmentVersion(milestone))).toBe('1.0.0-M2-SNAPSHOT');
    expect(formatVersion(nextPatch(milestone))).toBe('1.0.0-M2');
    expect(isSnapshotVersion('4.2.8.Final-SNAPSHOT')).toBe(true);
    expect(compareVersions(parseVersion('1.0.0-M1')!, parseVersion('1.0.0')!)).toBe(-1);
  });

  it.each([
    ['2.0.10.5-SNAPSHOT', '2.0.10.5', '2.0.10.6-SNAPSHOT'],
    ['1.8.16.GA-SNAPSHOT', '1.8.16.GA', '1.8.17.GA-SNAPSHOT'],
    ['1.0-SNAPSHOT', '1.0', '1.1-SNAPSHOT'],
    ['41-SNAPSHOT', '41', '42-SNAPSHOT'],
    ['5.0.0.1-RC3-SNAPSHOT', '5.0.0.1-RC3', '5.0.0.1-RC4-SNAPSHOT'],
  ])('counts %s on its last number: release %s, next %s', (current, release, next) => {
    const v = parseVersion(current)!;
    expect(formatVersion(releaseVersionOf(v))).toBe(release);
    expect(formatVersion(nextDevelopmentVersion(v))).toBe(next);
  });

  it('orders versions of different lengths as Maven does (1.2 = 1.2.0 < 1.2.0.1 < 1.2.1)', () => {
    const p = (t: string): Version => parseVersion(t)!;
    expect(compareVersions(p('1.2'), p('1.2.0'))).toBe(0);
    expect(compareVersions(p('1.2.0'), p('1.2.0.1'))).toBe(-1);
    expect(compareVersions(p('2.0.10.4'), p('2.0.10.5-SNAPSHOT'))).toBe(-1);
    expect(compareVersions(p('1.2.0.1'), p('1.2.1'))).toBe(-1);
  });

  it('computes the release, next development version and next patch of a snapshot', () => {
    const v = parseVersion('1.4.9-SNAPSHOT')!;
    expect(formatVersion(releaseVersionOf(v))).toBe('1.4.9');
    expect(formatVersion(nextDevelopmentVersion(v))).toBe('1.4.10-SNAPSHOT');
    expect(formatVersion(nextPatch(v))).toBe('1.4.10');
    expect(isSnapshotVersion('1.4.9-SNAPSHOT')).toBe(true);
    expect(isSnapshotVersion('1.4.9')).toBe(false);
  });

  it('orders: release > its snapshot > the previous release, and the next development version is above the release', () => {
    fc.assert(
      fc.property(versionArb, (v) => {
        const release = releaseVersionOf(v);
        const snap = { ...release, snapshot: true };
        expect(compareVersions(snap, release)).toBe(-1);
        expect(compareVersions(release, snap)).toBe(1);
        expect(compareVersions(nextDevelopmentVersion(v), release)).toBe(1);
        expect(compareVersions(nextPatch(v), nextDevelopmentVersion(v))).toBe(1);
        expect(compareVersions(v, v)).toBe(0);
      }),
    );
  });

  it('compare is antisymmetric and consistent with numeric order', () => {
    fc.assert(
      fc.property(versionArb, versionArb, (a, b) => {
        expect(compareVersions(a, b)).toBe(-compareVersions(b, a) || 0);
      }),
    );
  });
});

describe('tags', () => {
  it('names the release tag <artifactId>-X.Y.Z', () => {
    expect(releaseTagName('demo-parent', '1.2.3')).toBe('demo-parent-1.2.3');
    expect(releaseTagName('demo', parseVersion('1.2.3-SNAPSHOT')!)).toBe('demo-1.2.3-SNAPSHOT');
  });

  it("renders the Gradle release plugin's template forms", () => {
    expect(renderTag('v$version', 'lib', '2.0.0')).toBe('v2.0.0');
    expect(renderTag('${name}-${version}', 'lib', '2.0.0')).toBe('lib-2.0.0');
    expect(renderTag('$name-$version', 'lib', '2.0.0')).toBe('lib-2.0.0');
    expect(renderTag('rel-$1', 'a$&b', '1.0.0')).toBe('rel-$1');
  });

  it("renders the Maven release plugin's tagNameFormat", () => {
    expect(renderTag('v@{project.version}', 'lib', '2.0.0')).toBe('v2.0.0');
    expect(renderTag('@{project.artifactId}-@{version}', 'lib', '2.0.0')).toBe('lib-2.0.0');
  });

});

describe('planRelease (orphan-tag rule)', () => {
  const current = parseVersion('1.2.3-SNAPSHOT')!;
  it('plans a four-part version: releases 2.0.10.5 and skips an orphan 2.0.10.5 to 2.0.10.6', () => {
    const four = parseVersion('2.0.10.5-SNAPSHOT')!;
    expect(planRelease({ current: four, artifactId: 'filter', existingTags: [], published: {} })).toEqual({
      release: '2.0.10.5',
      tag: 'filter-2.0.10.5',
      nextDevelopment: '2.0.10.6-SNAPSHOT',
      skipped: [],
    });
    const orphan = planRelease({ current: four, artifactId: 'filter', existingTags: ['filter-2.0.10.5'], published: { '2.0.10.5': false } });
    expect([orphan.release, orphan.nextDevelopment, orphan.skipped.map((s) => s.version)]).toEqual(['2.0.10.6', '2.0.10.7-SNAPSHOT', ['2.0.10.5']]);
  });


  it('releases the current version when its tag does not exist', () => {
    const plan = planRelease({ current, artifactId: 'demo', existingTags: ['demo-1.2.2'], published: {} });
    expect(plan).toEqual({ release: '1.2.3', tag: 'demo-1.2.3', nextDevelopment: '1.2.4-SNAPSHOT', skipped: [] });
  });

  it('skips an orphan tag (tag exists, version not published) and releases the next patch', () => {
    const plan = planRelease({ current, artifactId: 'demo', existingTags: ['demo-1.2.3'], published: { '1.2.3': false } });
    expect(plan.release).toBe('1.2.4');
    expect(plan.tag).toBe('demo-1.2.4');
    expect(plan.nextDevelopment).toBe('1.2.5-SNAPSHOT');
    expect(plan.skipped).toEqual([{ version: '1.2.3', tag: 'demo-1.2.3', published: false }]);
  });

  it('skips a chain of orphans and marks unknown publication as unknown', () => {
    const plan = planRelease({
      current,
      artifactId: 'demo',
      existingTags: new Set(['demo-1.2.3', 'demo-1.2.4']),
      published: new Map([['1.2.3', false]]),
    });
    expect(plan.release).toBe('1.2.5');
    expect(plan.skipped.map((s) => [s.version, s.published])).toEqual([
      ['1.2.3', false],
      ['1.2.4', undefined],
    ]);
  });

  it('finds the release tag in the v-prefixed and bare forms too', () => {
    for (const tag of ['v1.2.3', '1.2.3']) {
      const plan = planRelease({ current, artifactId: 'demo', existingTags: [tag], published: { '1.2.3': false } });
      expect(plan.skipped).toEqual([{ version: '1.2.3', tag, published: false }]);
      expect(plan.release).toBe('1.2.4');
    }
  });

  it('does not call a published version an orphan', () => {
    const plan = planRelease({ current, artifactId: 'demo', existingTags: ['demo-1.2.3'], published: { '1.2.3': true } });
    expect(plan.skipped).toEqual([]);
    expect(plan.alreadyReleased).toEqual({ version: '1.2.3', tag: 'demo-1.2.3' });
  });

  it('always ends on a version whose tag does not exist, or on an already released one', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.nat(30)), fc.dictionary(fc.nat(40).map(String), fc.boolean()), (patches, pub) => {
        const tags = patches.map((p) => `x-1.0.${p}`);
        const published: Record<string, boolean> = {};
        for (const [p, b] of Object.entries(pub)) published[`1.0.${p}`] = b;
        const plan = planRelease({ current: parseVersion('1.0.0-SNAPSHOT')!, artifactId: 'x', existingTags: tags, published });
        if (plan.alreadyReleased === undefined) expect(tags).not.toContain(plan.tag);
        else expect(published[plan.release]).toBe(true);
        for (const s of plan.skipped) expect(published[s.version]).not.toBe(true);
      }),
    );
  });
});
