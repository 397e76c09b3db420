import type { RuleCode } from '../core/validation/types.js';

/**
 * The next step for each portal validation rule. Shared by `verify` (local findings) and the
 * decoder of the portal's own "Deployment reached an unexpected status: Failed" text.
 */
export const ruleFixes: Record<RuleCode, string> = {
  'missing-signature':
    'Sign every file: enable maven-gpg-plugin (Maven) or the signing plugin (Gradle) for the release, so each file gets an .asc.',
  'invalid-signature':
    'Sign with the key that is published on the primary key server (relctl keys check shows it); the file was signed with another key or changed after signing.',
  'key-not-on-primary':
    'Publish the signing key: relctl keys export, upload the file in the primary key server\'s form, confirm the mailed link, then relctl keys check.',
  'missing-checksum': 'Deploy with Maven or Gradle, which write the .md5 and .sha1 files, or create them for every file.',
  'bad-checksum': 'Regenerate the .md5/.sha1 files from the final file contents (the file changed after its checksum was written).',
  'missing-sources':
    'Attach a -sources.jar: maven-source-plugin (jar-no-fork) or Gradle java { withSourcesJar() }.',
  'missing-javadoc':
    'Attach a -javadoc.jar: maven-javadoc-plugin (jar) or Gradle java { withJavadocJar() }; a placeholder jar is accepted.',
  'packaging-mismatch': 'Make <packaging> match the main artifact (war for a web module with src/main/webapp, jar otherwise).',
  'missing-developers':
    'Declare <developers> (with organization and organizationUrl) in the top-level POM, or in a parent POM of yours that it inherits from.',
  'missing-pom-metadata': 'Declare name, description, url, licenses and scm/url in the POM (or in a parent that is published).',
  'dependency-version-missing':
    'Give the dependency a <version> in the published POM, or manage it in a parent or BOM that is itself published (flatten-maven-plugin with flattenMode ossrh writes resolved versions).',
  'snapshot-version': 'Release a version without -SNAPSHOT (relctl release sets it).',
  'already-published': 'This version is already on Maven Central and cannot be replaced: release the next version.',
};

export const genericValidationFix = 'Fix the cause named by the portal, then release the next version.';

export function fixForRule(code: RuleCode | undefined): string {
  return code === undefined ? genericValidationFix : ruleFixes[code];
}
