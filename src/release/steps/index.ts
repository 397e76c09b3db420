import type { Step, StepId } from '../types.js';
import { buildStep } from './build.js';
import { keysStep } from './keys.js';
import { notesStep } from './notes.js';
import { preflightStep } from './preflight.js';
import { prepStep } from './prep.js';
import { distributeStep, imageStep, notifyStep, smokeStep } from './post-release.js';
import { statusStep } from './status.js';
import { uploadStep } from './upload.js';
import { verifyStep } from './verify.js';

/** The step registry, in chain order: `relctl release` runs all of them. */
export const steps: readonly Step[] = [preflightStep, keysStep, prepStep, buildStep, verifyStep, uploadStep, statusStep, notesStep, distributeStep, smokeStep, imageStep, notifyStep];

export function stepById(id: StepId): Step {
  const step = steps.find((s) => s.id === id);
  if (step === undefined) throw new Error(`unknown step ${id}`);
  return step;
}
