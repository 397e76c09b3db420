import { describe, expect, it } from 'vitest';
import { isProjectCause } from './project-cause.js';

describe('isProjectCause', () => {
  it('claims a real release fails too only for the project\'s own causes', () => {
    for (const code of ['tests', 'jdk-too-new', 'jdk-too-old', 'plugin-classpath', 'gpg-batch']) expect(isProjectCause({ code })).toBe(true);
    // A download, the environment, or nothing decoded (e.g. relctl's throwaway remote): no claim.
    for (const code of ['offline', 'java-home', 'deploy-credentials']) expect(isProjectCause({ code })).toBe(false);
    expect(isProjectCause(undefined)).toBe(false);
  });
});
