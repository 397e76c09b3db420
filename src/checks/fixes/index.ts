import type { FixRule } from './types.js';

/** Every mechanical fix, in the order their edits are planned (DESIGN §4, Fixes). */
export const fixRules: readonly FixRule[] = [];
