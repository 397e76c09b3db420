import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { chooseTagTemplate, inferTagFormat } from './tag-format-inference.js';
import { existingTag, renderTag, versionInTag } from './tag-forms.js';
import { parseVersion, planRelease } from './version.js';

const uportalTags = ['rel_3_28_0_ga', 'rel_3_29_0_ga', 'rel_3_30_0_ga', 'rel_3_30_1_ga', 'rel_3_30_2_ga'];

describe('inferTagFormat', () => {
  it('learns rel_3_30_2_ga for 3.30.2-GA: separators replaced, letters lower-cased, a prefix', () => {
    const learned = inferTagFormat(uportalTags, ['3.31.0-GA-SNAPSHOT']);
    expect(learned.template).toBe('rel_{version|lower|.=_|-=_}');
    expect(learned.evidence).toHaveLength(5);
    expect(learned.why).toContain('learned from 5 tags');
    expect(renderTag(learned.template!, 'uPortal', '3.31.0-GA')).toBe('rel_3_31_0_ga');
    expect(versionInTag('rel_3_30_2_ga', 'uPortal', learned.template)).toBe('3.30.2-GA');
  });

  it('learns prefixes, suffixes and upper case too', () => {
    expect(inferTagFormat(['RELEASE-1_0_0-FINAL', 'RELEASE-1_0_1-FINAL', 'junk'], ['1.0.2-final']).template).toBe('RELEASE-{version|upper|.=_}');
    expect(inferTagFormat(['lib_1.4.0_release', 'lib_1.5.0_release', 'lib_1.6.0_release'], ['1.7.0-SNAPSHOT']).template).toBe('lib_{version}_release');
    expect(inferTagFormat(['r1-2-0', 'r1-2-1', 'r1-3-0'], ['1.4.0-SNAPSHOT']).template).toBe('r{version|.=-}');
  });

  it('needs two tags in one format', () => {
    const learned = inferTagFormat(['rel_3_30_2_ga', 'other'], ['3.31.0-GA-SNAPSHOT']);
    expect(learned.template).toBeUndefined();
    expect(learned.why).toMatch(/only rel_3_30_2_ga .* 2 tags in one format are needed/);
  });

  it('learns nothing from tags that fit two formats equally', () => {
    const learned = inferTagFormat(['rel_1_0_0', 'rel_1_1_0', 'REL-1.2.0', 'REL-1.3.0'], ['1.4.0-SNAPSHOT']);
    expect(learned.template).toBeUndefined();
    expect(learned.why).toMatch(/more than one format: .*rel_\{version\|\.=_\}.*REL-\{version\}/);
  });

  it('learns nothing from inconsistent tags', () => {
    const learned = inferTagFormat(['rel_3_30_0_ga', 'rel-3-30-1-ga', 'rel.3.30.2.ga'], ['3.31.0-GA-SNAPSHOT']);
    expect(learned.template).toBeUndefined();
    expect(learned.why).toContain('2 tags in one format are needed');
  });

  it('learns nothing when the spelling cannot be read back (mixed-case words lower-cased)', () => {
    const learned = inferTagFormat(['v_4_2_7_final', 'v_4_2_8_final'], ['4.2.9.Final-SNAPSHOT']);
    expect(learned.template).toBeUndefined();
  });

  it('learns nothing without a version to compare with, or from tags of another shape', () => {
    expect(inferTagFormat(uportalTags, []).template).toBeUndefined();
    expect(inferTagFormat(uportalTags, ['${revision}']).why).toContain('no version');
    expect(inferTagFormat(uportalTags, ['3.31.0-SNAPSHOT']).template).toBe('rel_{version|.=_}_ga');
    expect(inferTagFormat(uportalTags, ['3.31-RC1-SNAPSHOT']).why).toContain('no tag spells a version shaped like N.N-RC');
  });

  it('round-trips any version of the learned shape (property)', () => {
    const part = fc.integer({ min: 0, max: 999 });
    fc.assert(
      fc.property(fc.array(fc.tuple(part, part, part), { minLength: 2, maxLength: 8 }), fc.tuple(part, part, part), (released, next) => {
        const versions = new Set(released.map(([a, b, c]) => `${a}.${b}.${c}-GA`));
        if (versions.size < 2) return;
        const tags = [...versions].map((v) => `rel_${v.replace(/[.-]/g, '_').toLowerCase()}`);
        const learned = inferTagFormat(tags, [`${next.join('.')}-GA-SNAPSHOT`]);
        expect(learned.template).toBe('rel_{version|lower|.=_|-=_}');
        for (const v of versions) expect(versionInTag(renderTag(learned.template!, 'x', v), 'x', learned.template)).toBe(v);
      }),
    );
  });

  it('never learns a format that misreads one of its own evidence tags (property)', () => {
    const tag = fc.stringMatching(/^[a-zA-Z]{0,3}[_.-]?\d{1,2}[_.-]\d{1,2}([_.-][a-zA-Z]{1,3})?$/);
    fc.assert(
      fc.property(fc.array(tag, { maxLength: 10 }), fc.constantFrom('1.0-SNAPSHOT', '2.1-GA-SNAPSHOT', '0.9-rc'), (tags, version) => {
        const learned = inferTagFormat(tags, [version]);
        if (learned.template === undefined) return;
        expect(learned.evidence.length).toBeGreaterThanOrEqual(2);
        for (const e of learned.evidence) expect(renderTag(learned.template, 'x', e.version)).toBe(e.tag);
      }),
    );
  });
});

describe('chooseTagTemplate', () => {
  it('keeps a configured format relctl can fill, and learns nothing', () => {
    expect(chooseTagTemplate('v@{project.version}', uportalTags, ['3.31.0-GA-SNAPSHOT'], 'uPortal')).toEqual({ template: 'v@{project.version}' });
  });

  it('learns when no standard form matches, and says so', () => {
    const choice = chooseTagTemplate(undefined, uportalTags, ['3.31.0-GA-SNAPSHOT'], 'uPortal');
    expect(choice.template).toBe('rel_{version|lower|.=_|-=_}');
    expect(choice.note).toMatch(/own format: tag format rel_\{version\|lower\|\.=_\|-=_\} learned from 5 tags \(3\.30\.2-GA is tagged rel_3_30_2_ga\)/);
  });

  it('learns where the configured format has placeholders relctl cannot fill', () => {
    expect(chooseTagTemplate("${version.replace('.', '_')}", uportalTags, ['3.31.0-GA-SNAPSHOT'], 'uPortal').template).toBe('rel_{version|lower|.=_|-=_}');
  });

  it('does not learn when a standard form already names a version of the component', () => {
    expect(chooseTagTemplate(undefined, [...uportalTags, 'uPortal-3.31.0-GA'], ['3.31.0-GA-SNAPSHOT'], 'uPortal')).toEqual({});
    expect(chooseTagTemplate(undefined, [...uportalTags, 'v3.27.0-GA'], ['3.31.0-GA-SNAPSHOT'], 'uPortal')).toEqual({});
  });

  it('says why nothing was learned', () => {
    const choice = chooseTagTemplate(undefined, ['rel_3_30_2_ga'], ['3.31.0-GA-SNAPSHOT'], 'uPortal');
    expect(choice.template).toBeUndefined();
    expect(choice.note).toMatch(/^No tag format learned from the project's 1 tags: only rel_3_30_2_ga/);
  });

  it('feeds the release plan: the next version after an orphan tag in the learned format', () => {
    const template = chooseTagTemplate(undefined, [...uportalTags, 'rel_3_31_0_ga'], ['3.31.0-GA-SNAPSHOT'], 'uPortal').template!;
    const plan = planRelease({ current: parseVersion('3.31.0-GA-SNAPSHOT')!, artifactId: 'uPortal', tagTemplate: template, existingTags: [...uportalTags, 'rel_3_31_0_ga'], published: {} });
    expect(plan).toMatchObject({ release: '3.31.1-GA', tag: 'rel_3_31_1_ga', skipped: [{ version: '3.31.0-GA', tag: 'rel_3_31_0_ga' }] });
    expect(existingTag(new Set(uportalTags), 'uPortal', '3.30.1-GA', template)).toBe('rel_3_30_1_ga');
  });
});
