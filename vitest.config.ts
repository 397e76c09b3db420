import os from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';
import { testMavenOpts } from './test/helpers/maven-opts.js';

/**
 * The real-plugin tests: the release tests (test/e2e/maven-release) and the Nexus 2 staging route's
 * clients (test/e2e/nexus2, issue 28); Maven Central plugins, minutes, not seconds.
 */
const e2eMaven = ['test/e2e/maven-release/**/*.test.ts', 'test/e2e/nexus2/**/*.test.ts'];
/**
 * The rehearsals that run the release plugin (issue 19): real projects of ../shared/realworld-src
 * and the demo, plugins from Maven Central through .cache/m2; minutes, after e2e-maven.
 */
const e2eRehearse = [
  'test/e2e/rehearse-real/**/*.test.ts',
  'test/e2e/rehearse.test.ts',
  'test/e2e/rehearse-post-release.test.ts',
  // rehearse --snapshot: the demo's snapshot deployed by real Maven to the sandbox (issue 42 item 5).
  'test/e2e/rehearse-snapshot.test.ts',
  // fleet rehearse: a parent and a child from the demo, rehearsed parents first (issue 38 item 3).
  'test/e2e/fleet-rehearse.test.ts',
  // Installing relctl from its git URL: a full dependency install and build (issue 23), minutes.
  'test/e2e/install-from-git.test.ts',
];

export default defineConfig({
  test: {
    // Integration suites start real servers, Maven and gpg; two cores, so keep the pool small.
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // The workers' environment: a Maven a test starts, through relctl or not, inherits these JVM
    // options (a test that sets MAVEN_OPTS itself starts from the same constant).
    // XDG_STATE_HOME: relctl's record of publications never the developer's (runCli gives each run its own).
    env: { MAVEN_OPTS: testMavenOpts, XDG_STATE_HOME: path.join(os.tmpdir(), `relctl-test-state-${process.pid}`) },
    projects: [
      {
        extends: true,
        test: { name: 'unit/integration', include: ['src/**/*.test.ts', 'test/**/*.test.ts'], exclude: [...e2eMaven, ...e2eRehearse] },
      },
      {
        extends: true,
        // Runs after the first group, so the two never share the two cores.
        test: { name: 'e2e-maven', include: e2eMaven, testTimeout: 600_000, sequence: { groupOrder: 1 } },
      },
      {
        extends: true,
        // Two files at a time, as e2e-maven: a rehearsal waits on Maven's start and on the sandbox
        // as much as on the CPU (measured: 285 s for the group against about 350 s one at a time).
        test: { name: 'e2e-rehearse', include: e2eRehearse, testTimeout: 600_000, sequence: { groupOrder: 2 } },
      },
    ],
  },
});
