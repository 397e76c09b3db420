/**
 * One short title per finding code: the rule names code-scanning views show (SARIF
 * `shortDescription`, DESIGN §3). A finding's own message says what is wrong in this project; the
 * title says what the rule is about, the same on every run. Pure.
 */
const titles: Record<string, string> = {
  // descriptors
  'xml-malformed': 'A POM or settings file cannot be parsed',
  'module-missing': 'A declared module has no POM',
  'parent-unresolved': 'A parent POM cannot be found',
  'unresolved-property': 'A published value still contains ${...}',
  'legacy-staging-host': 'The distribution URL names a retired OSSRH host',
  'legacy-staging-id': 'The distribution repository id is a legacy one',
  'distribution-url': 'The release repository does not point at the staging API service',
  'missing-distribution': 'No release repository is declared',
  'missing-developers': 'The POM declares no developers',
  'developers-incomplete': 'A developer lacks organization or organizationUrl',
  'missing-pom-metadata': 'Required POM metadata is missing',
  'packaging-mismatch': 'The packaging does not match the module content',
  'developer-empty': 'A developer entry is empty',
  'license-empty': 'A license has neither name nor url',
  'published-repositories': 'Repositories are declared in a published POM',
  'duplicate-declaration': 'A plugin or dependency is declared twice',
  'plugin-version-missing': 'A build plugin has no version',
  'metadata-from-foreign-parent': 'Metadata is inherited from a foreign parent',
  'publishing-plugins-conflict': 'Two publishing plugins take over deploy',
  'snapshots-need-enabling': "The portal's snapshot repository needs SNAPSHOTs enabled for the namespace",
  'missing-checksum': 'An artifact has no checksum file',
  'bad-checksum': 'A checksum does not match its artifact',
  'missing-sources': 'The sources jar is missing',
  'missing-javadoc': 'The javadoc jar is missing',
  'dependency-version-missing': 'A dependency of the published POM has no version',
  'snapshot-version': 'A snapshot version is about to be released',
  // credentials
  'server-id-mismatch': 'No credentials for the distribution repository id',
  'gradle-properties-missing': 'Gradle properties lack the staging or signing keys',
  // signing
  'signing-keyring-missing': 'The signing keyring file does not exist',
  'missing-signature': 'An artifact is not signed',
  'invalid-signature': 'A signature does not verify',
  'key-format-unsupported': 'The signing key format is not accepted',
  // repository
  'dirty-worktree': 'The working tree has uncommitted changes',
  'detached-head': 'HEAD is detached',
  'not-snapshot': 'The current version is not a snapshot',
  'orphan-tag': 'A release tag exists for a version that was never published',
  'prerelease-notice-missing': 'No pre-release notice was sent',
  'prerelease-notice-too-recent': 'The pre-release notice was sent too recently',
  // online
  'missing-credentials': 'No portal token is available',
  'token-rejected': 'The portal rejected the token',
  'namespace-blocked': 'A failed deployment blocks the namespace',
  'key-not-published': 'The signing key is not on the primary key server',
  'key-only-secondary': 'The signing key is only on a secondary key server',
  'key-unconfirmed': 'The signing key e-mail address is not confirmed',
  'key-expired': 'The signing key has expired',
  'key-expiring': 'The signing key expires within 30 days',
  'key-mismatch': 'The configured key is not the key being checked',
  'key-not-on-primary': 'The signature key is not on the primary key server',
  'already-published': 'This version is already published',
  'portal-validation': 'The portal failed the deployment validation',
  'tracker-unresolved': 'An issue named in the notes is not resolved',
  'tracker-unknown': 'An issue named in the notes does not exist',
  'tracker-unreachable': 'The issue tracker could not be asked',
};

/** The title written for a code, if any. */
export function knownTitle(code: string): string | undefined {
  return titles[code];
}

/** The title of a code; a code without one (added without a title) reads as its words. */
export function findingTitle(code: string): string {
  const known = titles[code];
  if (known !== undefined) return known;
  const words = code.replace(/-/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** `missing-developers` → `MissingDevelopers`: SARIF's `reportingDescriptor.name` convention. */
export function findingRuleName(code: string): string {
  return code
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w !== '')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');
}
