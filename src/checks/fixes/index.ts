import type { FixRule } from './types.js';
import { gradleStagingUrlFix } from './gradle-staging-url.js';
import { mavenDistributionFix } from './maven-distribution.js';
import { mavenServerFix } from './maven-server-id.js';
import { nextSnapshotFix } from './next-snapshot.js';
import { pomMetadataFix } from './pom-metadata.js';
import { warPackagingFix } from './war-packaging.js';

/**
 * Every mechanical fix, in the order their edits are planned (DESIGN §4, Fixes). The
 * distribution rule comes before the server rule: it decides whether a legacy id moves to
 * `central`, and the server rule adds the `<server>` under the id the POM will have.
 */
export const fixRules: readonly FixRule[] = [mavenDistributionFix, mavenServerFix, gradleStagingUrlFix, warPackagingFix, nextSnapshotFix, pomMetadataFix];
