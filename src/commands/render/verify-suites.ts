import { ruleCodes } from '../../core/validation/index.js';
import type { JunitSuite } from '../../ui/render/findings-junit.js';

/** Verify's suites: one per component, each of the portal's rules one test case. */
export function verifySuites(verdicts: readonly { groupId: string; artifactId: string }[]): JunitSuite[] {
  return verdicts.map((v) => {
    const module = `${v.groupId}:${v.artifactId}`;
    return { name: module, codes: ruleCodes, modules: [module] };
  });
}
