import { describe, expect, it } from 'vitest';
import { chosenVersionsProblem, isAbove, nextVersionProblem, planChosenRelease, suggestedNext } from './chosen-versions.js';
import { parseVersion } from './version.js';

const input = (tags: string[], published: Record<string, boolean> = {}) => ({ current: parseVersion('1.3.0-SNAPSHOT')!, artifactId: 'demo', existingTags: tags, published });

describe('chosen versions (--release-version / --next-version)', () => {
  it('accepts a snapshot above the release, in Maven order', () => {
    expect(chosenVersionsProblem({ release: '2.0.0', next: '2.0.1-SNAPSHOT' })).toBeUndefined();
    expect(chosenVersionsProblem({ release: '2.0.0.Final', next: '2.0.1.Final-SNAPSHOT' })).toBeUndefined();
    expect(isAbove('2.0.0-SNAPSHOT', '2.0.0')).toBe(false);
    expect(isAbove('2.0.1-SNAPSHOT', '2.0.0')).toBe(true);
    expect(isAbove('2.0-SNAPSHOT', '2.0.0')).toBe(false);
  });

  it('names the cause and a fix for every bad pair', () => {
    expect(chosenVersionsProblem({ release: '2.0.0', next: '1.0.0-SNAPSHOT' })).toEqual({
      message: '--next-version 1.0.0-SNAPSHOT is not above --release-version 2.0.0: the development version after a release must be a later snapshot.',
      fix: 'Name a snapshot above 2.0.0, e.g. --next-version 2.0.1-SNAPSHOT.',
    });
    expect(chosenVersionsProblem({ release: '2.0.0-SNAPSHOT' })?.message).toContain('it is a snapshot');
    expect(chosenVersionsProblem({ next: '2.0.1' })?.message).toContain('it is not a snapshot');
    expect(nextVersionProblem(' 2.0.1-SNAPSHOT')).toBe('it contains white space');
    expect(nextVersionProblem('latest')).toBe('it is not a version X.Y.Z-SNAPSHOT');
    expect(suggestedNext('2.0')).toBe('2.1-SNAPSHOT');
  });

  it('counts from X instead of the snapshot, with Y as the development version', () => {
    expect(planChosenRelease(input([]), { release: '2.0.0', next: '2.1.0-SNAPSHOT' })).toEqual({ release: '2.0.0', tag: 'demo-2.0.0', nextDevelopment: '2.1.0-SNAPSHOT', skipped: [] });
    expect(planChosenRelease(input([]), { release: '2.0.0' }).nextDevelopment).toBe('2.0.1-SNAPSHOT');
    expect(planChosenRelease(input([]), { next: '1.4.0-SNAPSHOT' })).toMatchObject({ release: '1.3.0', nextDevelopment: '1.4.0-SNAPSHOT' });
  });

  it('keeps the orphan-tag rule: X tagged, never published, releases the next patch and says when Y is then too low', () => {
    const plan = planChosenRelease(input(['demo-2.0.0'], { '2.0.0': false }), { release: '2.0.0', next: '2.0.1-SNAPSHOT' });
    expect(plan).toMatchObject({ release: '2.0.1', tag: 'demo-2.0.1', nextTooLow: true, skipped: [{ version: '2.0.0', tag: 'demo-2.0.0', published: false }] });
    expect(planChosenRelease(input(['v2.0.0'], { '2.0.0': true }), { release: '2.0.0' }).alreadyReleased).toEqual({ version: '2.0.0', tag: 'v2.0.0' });
  });
});
