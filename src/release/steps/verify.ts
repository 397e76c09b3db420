import type { Step } from '../types.js';

/** The portal's rules, locally, on what the build deployed; a failure drops the staging repository. */
export const verifyStep: Step = {
  id: 'verify',
  title: 'Local verification',
  async run() {
    // TODO: wire relctl verify once it lands.
    return {};
  },
};
