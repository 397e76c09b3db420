import { describe, expect, it } from 'vitest';
import { existingTag, knownTagTemplate, renderTag, tagForms, versionInTag } from './tag-forms.js';

describe('tag forms', () => {
  it('lists the configured form first, then <artifactId>-X.Y.Z, vX.Y.Z and X.Y.Z', () => {
    expect(tagForms('demo', '1.2.3')).toEqual(['demo-1.2.3', 'v1.2.3', '1.2.3']);
    expect(tagForms('demo', '1.2.3', 'release-@{project.version}')).toEqual(['release-1.2.3', 'demo-1.2.3', 'v1.2.3', '1.2.3']);
    expect(tagForms('demo', '1.2.3', 'v$version')).toEqual(['v1.2.3', 'demo-1.2.3', '1.2.3']);
  });

  it('finds whichever form exists', () => {
    expect(existingTag(new Set(['v3.0.0']), 'lib', '3.0.0')).toBe('v3.0.0');
    expect(existingTag(new Set(['lib-3.0.1']), 'lib', '3.0.0')).toBeUndefined();
  });

  it('reads the version back from a tag of any form, and nothing from other tags', () => {
    expect(versionInTag('demo-1.2.3', 'demo')).toBe('1.2.3');
    expect(versionInTag('v1.2.3', 'demo')).toBe('1.2.3');
    expect(versionInTag('1.2.3', 'demo')).toBe('1.2.3');
    expect(versionInTag('release-4.2.8.Final', 'demo', 'release-@{project.version}')).toBe('4.2.8.Final');
    expect(versionInTag('nightly', 'demo')).toBeUndefined();
    expect(versionInTag('rel-2.0', 'demo', 'rel-${version}')).toBe('2.0');
    expect(versionInTag('other-1.0.0', 'demo')).toBeUndefined();
  });

  it('spells the version as a learned format says, and reads it back only when it spells back', () => {
    expect(renderTag('rel_{version|lower|.=_|-=_}', 'demo', '3.30.2-GA')).toBe('rel_3_30_2_ga');
    expect(renderTag('R{version|upper|.=-}', 'demo', '1.0-rc1')).toBe('R1-0-RC1');
    expect(versionInTag('rel_3_30_2_ga', 'demo', 'rel_{version|lower|.=_|-=_}')).toBe('3.30.2-GA');
    expect(versionInTag('rel_3_30_2_GA', 'demo', 'rel_{version|lower|.=_|-=_}')).toBeUndefined();
    expect(versionInTag('rel_3.30.2', 'demo', 'rel_{version|.=_}')).toBeUndefined();
    expect(knownTagTemplate('rel_{version|lower|.=_}')).toBe(true);
  });
});
