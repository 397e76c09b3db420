import type { Check } from './types.js';
import { mavenDevelopersIncomplete } from './maven-developers-incomplete.js';
import { mavenDuplicateDeclaration } from './maven-duplicate-declaration.js';
import { mavenEmptyEntries } from './maven-empty-entries.js';
import { mavenForeignParent } from './maven-foreign-parent.js';
import { mavenPluginVersionMissing } from './maven-plugin-version-missing.js';
import { mavenPublishedRepositories } from './maven-published-repositories.js';
import { mavenDistributionUrl } from './maven-distribution-url.js';
import { mavenLegacyStagingHost } from './maven-legacy-staging-host.js';
import { mavenLegacyStagingId } from './maven-legacy-staging-id.js';
import { mavenMissingDevelopers } from './maven-missing-developers.js';
import { mavenMissingDistribution } from './maven-missing-distribution.js';
import { mavenMissingPomMetadata } from './maven-missing-pom-metadata.js';
import { mavenPackagingMismatch } from './maven-packaging-mismatch.js';
import { mavenServerIdMismatch } from './maven-server-id-mismatch.js';
import { mavenPublishingPluginsConflict } from './maven-publishing-plugins-conflict.js';
import { mavenUnresolvedProperty } from './maven-unresolved-property.js';
import { mavenInheritedSkips } from './maven-inherited-skips.js';
import { gradleDistributionUrl, gradleLegacyStagingHost } from './gradle-repositories.js';
import { gradlePackagingMismatch } from './gradle-packaging.js';
import { gradleEmptyPomEntries } from './gradle-pom-entries.js';
import { gradlePropertiesMissing, gradleSigningKeyringMissing } from './gradle-properties.js';
import { repoDetachedHead, repoDirtyWorktree } from './repo-git.js';
import { repoNotSnapshot, repoOrphanTag } from './repo-version.js';
import { repoPrereleaseNotice } from './repo-prerelease-notice.js';
import { onlineKeysCheck } from './online-keys.js';
import { signingKeyFormat } from './signing-key-format.js';
import { onlinePortalCheck } from './online-portal.js';
import { snapshotsNeedEnabling } from './snapshots-need-enabling.js';

/** Every preflight check, in the order findings are produced. */
export const checks: readonly Check[] = [
  mavenLegacyStagingHost,
  mavenLegacyStagingId,
  mavenDistributionUrl,
  mavenMissingDistribution,
  mavenPublishingPluginsConflict,
  mavenServerIdMismatch,
  snapshotsNeedEnabling,
  mavenMissingDevelopers,
  mavenDevelopersIncomplete,
  mavenEmptyEntries,
  mavenMissingPomMetadata,
  mavenForeignParent,
  mavenUnresolvedProperty,
  mavenPackagingMismatch,
  mavenPublishedRepositories,
  mavenDuplicateDeclaration,
  mavenPluginVersionMissing,
  mavenInheritedSkips,
  gradleLegacyStagingHost,
  gradleDistributionUrl,
  gradlePropertiesMissing,
  gradleSigningKeyringMissing,
  signingKeyFormat,
  gradlePackagingMismatch,
  gradleEmptyPomEntries,
  repoDirtyWorktree,
  repoDetachedHead,
  repoNotSnapshot,
  repoOrphanTag,
  repoPrereleaseNotice,
  onlinePortalCheck,
  onlineKeysCheck,
];
