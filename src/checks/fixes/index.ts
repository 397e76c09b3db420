import type { FixRule } from './types.js';
import { gradleStagingUrlFix } from './gradle-staging-url.js';
import { nextSnapshotFix } from './next-snapshot.js';
import { pomMetadataFix } from './pom-metadata.js';
import { warPackagingFix } from './war-packaging.js';

/** Every mechanical fix, in the order their edits are planned (DESIGN §4, Fixes). */
export const fixRules: readonly FixRule[] = [gradleStagingUrlFix, warPackagingFix, nextSnapshotFix, pomMetadataFix];
