import type { Step } from '../types.js';

/**
 * The signing key is published on the primary key server, confirmed, unexpired (DESIGN §10:
 * checked before anything changes).
 */
export const keysStep: Step = {
  id: 'keys',
  title: 'Signing key check',
  async run() {
    // TODO: wire the keys check of src/keys once it lands.
    return {};
  },
};
