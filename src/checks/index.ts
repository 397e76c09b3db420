import type { Check } from './types.js';

/** Every preflight check, in the order findings are produced. */
export const checks: readonly Check[] = [];
