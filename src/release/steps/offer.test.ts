import { describe, expect, it } from 'vitest';
import type { StepDeps } from '../types.js';
import { offeredAfterPublish } from './offer.js';

const deps = (command: StepDeps['command'], yes: boolean, canPrompt = false): StepDeps =>
  ({ command, options: { yes, dryRun: false, interactive: false, offline: false, waitTimeout: 1 }, ctx: { canPrompt } }) as unknown as StepDeps;
const ask = (rc: { deploymentState?: string }, d: StepDeps) => offeredAfterPublish(rc, d, 'Do it?', 'run relctl x');

describe('post-release steps in relctl release', () => {
  it('run and rehearse run what they are told', async () => {
    expect(await ask({}, deps('run', false))).toBeUndefined();
    expect(await ask({ deploymentState: 'VALIDATED' }, deps('rehearse', false))).toBeUndefined();
  });

  it('release offers them only once PUBLISHED; --yes accepts, no terminal skips with the command to run', async () => {
    expect(await ask({ deploymentState: 'VALIDATED' }, deps('release', true))).toBe('the deployment is VALIDATED and not PUBLISHED; run relctl x once it is');
    expect(await ask({}, deps('release', true))).toBe('the deployment is not yet PUBLISHED; run relctl x once it is');
    expect(await ask({ deploymentState: 'PUBLISHED' }, deps('release', true))).toBeUndefined();
    expect(await ask({ deploymentState: 'PUBLISHED' }, deps('release', false))).toBe('not asked without a terminal: pass --yes, or run relctl x');
  });
});
