import { describe, expect, it } from 'vitest';
import type { Journal } from '../io/journal.js';
import { contextFromJournal, startIndex } from './runner.js';
import { stepIds } from './types.js';

const journal = (steps: [string, 'done' | 'failed', Record<string, unknown>?][]): Journal => ({
  version: 1,
  uploads: [],
  steps: steps.map(([id, status, data]) => ({ id, status, at: 'x', ...(data === undefined ? {} : { data }) })),
});

describe('resume', () => {
  it('continues after the last finished step of the chain', () => {
    const j = journal([
      ['preflight', 'done'],
      ['keys', 'done'],
      ['prep', 'done'],
      ['build', 'done'],
      ['verify', 'failed'],
    ]);
    expect(stepIds[startIndex({ command: 'release', steps: stepIds, resume: true }, j)]).toBe('verify');
    expect(startIndex({ command: 'release', steps: stepIds }, j)).toBe(0);
  });

  it('a later failure of a step undoes its "done"', () => {
    const j = journal([
      ['preflight', 'done'],
      ['keys', 'done'],
      ['keys', 'failed'],
    ]);
    expect(startIndex({ command: 'release', steps: stepIds, resume: true }, j)).toBe(1);
  });

  it('--from starts at the named step and refuses one outside the chain', () => {
    expect(startIndex({ command: 'run', steps: ['verify', 'upload', 'status'], from: 'upload' }, journal([]))).toBe(1);
    expect(() => startIndex({ command: 'run', steps: ['verify', 'upload'], from: 'build' }, journal([]))).toThrow(/not a step of this chain/);
  });

  it('rebuilds the context from what each finished step added', () => {
    const j = journal([
      ['preflight', 'done', { groupId: 'org.example', currentVersion: '1.0.0-SNAPSHOT' }],
      ['build', 'done', { version: '1.0.0', tag: 'demo-1.0.0' }],
      ['upload', 'failed'],
    ]);
    expect(contextFromJournal({ ...j, deploymentId: 'd-1' })).toEqual({
      groupId: 'org.example',
      currentVersion: '1.0.0-SNAPSHOT',
      version: '1.0.0',
      tag: 'demo-1.0.0',
      deploymentId: 'd-1',
    });
  });
});
