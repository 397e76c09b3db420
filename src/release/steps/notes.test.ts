import { describe, expect, it } from 'vitest';
import type { CommandContext } from '../../io/command-context.js';
import type { StepDeps } from '../types.js';
import { notesStep } from './notes.js';

/** When the chain offers the notes step: `release` only after PUBLISHED, and not silently in CI. */
function deps(command: StepDeps['command'], yes: boolean, canPrompt = false): StepDeps {
  return {
    command,
    ctx: { canPrompt } as CommandContext,
    options: { dryRun: false, yes, interactive: false, offline: true, waitTimeout: 1 },
    proc: undefined as never,
  };
}

describe('notes step in the chain', () => {
  it('release skips it until the deployment is PUBLISHED', async () => {
    expect(await notesStep.skip!({ deploymentState: 'VALIDATED' }, deps('release', true))).toMatch(/VALIDATED and not PUBLISHED/);
    expect(await notesStep.skip!({}, deps('release', true))).toMatch(/not yet PUBLISHED/);
  });
  it('after PUBLISHED: runs with --yes, is skipped with the way forward where nobody can be asked', async () => {
    expect(await notesStep.skip!({ deploymentState: 'PUBLISHED' }, deps('release', true))).toBeUndefined();
    expect(await notesStep.skip!({ deploymentState: 'PUBLISHED' }, deps('release', false))).toBe('not asked without a terminal: pass --yes, or run relctl notes --publish');
  });
  it('relctl run notes always runs it', async () => {
    expect(await notesStep.skip!({ deploymentState: 'VALIDATED' }, deps('run', false))).toBeUndefined();
  });
});
