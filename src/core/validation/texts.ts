import type { RuleCode } from './types.js';

/**
 * The portal's texts (reference/portal-api.md §B). Checksum, packaging, missing-POM and
 * unparsable-POM texts are not confirmed upstream; they keep the shape of the confirmed ones.
 */
export const ruleText = {
  missingSignature: (name: string) => `Missing signature for file: ${name}`,
  invalidSignature: (name: string) =>
    `Invalid signature for file: ${name}.asc - Failed to verify the PGP signature. Please contact support for assistance.`,
  keyNotFound: (name: string) =>
    `Invalid signature for file: ${name}.asc - Could not find a public key by the key fingerprint. Please ensure it is uploaded to one of the PGP servers we support.`,
  missingChecksum: (algorithm: string, name: string) => `Missing ${algorithm} checksum for file: ${name}`,
  badChecksum: (algorithm: string, name: string) => `Invalid ${algorithm} checksum for file: ${name}`,
  missingJavadoc: () => 'Javadocs must be provided but not found in entries',
  missingSources: () => 'Sources must be provided but not found in entries',
  snapshot: () => 'version cannot be a SNAPSHOT',
  alreadyPublished: (purl: string) => `Component with package url: '${purl}' already exists`,
  missingDevelopers: () => 'Developers information is missing',
  missingLicense: () => 'License information is missing',
  missingUrl: () => 'Project URL is not defined',
  missingDescription: () => 'Project description is missing',
  missingScmUrl: () => 'SCM URL is not defined',
  missingName: () => 'Project name is missing',
  // The 2026 wording, one line per dependency (older answers listed artifactIds after `for: `).
  missingDependencyVersion: (dependency: string) => `Dependency version information is missing for dependency: ${dependency}`,
  missingPom: (expected: string) => `POM file is missing: expected ${expected}`,
  unreadablePom: (name: string, reason: string) => `POM file ${name} could not be parsed: ${reason}`,
  packagingMismatch: (packaging: string, expected: string) =>
    `Packaging '${packaging}' does not match the main artifact of the component: expected ${expected}`,
  invalidPath: (dir: string, name: string) => `File path '${dir}' is not valid for file '${name}'`,
} as const;

// Order matters: the key-not-found signature text must win over the generic invalid one.
const patterns: ReadonlyArray<readonly [RegExp, RuleCode]> = [
  [/^Missing signature for file: /i, 'missing-signature'],
  [/^Invalid signature for file: .*Could not find a public key/is, 'key-not-on-primary'],
  [/^Invalid signature for file: /i, 'invalid-signature'],
  [/^Missing (md5|sha1|sha256|sha512) checksum for file: /i, 'missing-checksum'],
  [/^Invalid (md5|sha1|sha256|sha512) checksum for file: /i, 'bad-checksum'],
  [/^Sources must be provided but not found/i, 'missing-sources'],
  [/^Javadocs must be provided but not found/i, 'missing-javadoc'],
  [/^Packaging '.*' does not match the main artifact/i, 'packaging-mismatch'],
  // A file outside the Maven layout: the deployment's files do not match the component.
  [/^File path '.*' is not valid for file '/i, 'packaging-mismatch'],
  [/^Developers information is missing/i, 'missing-developers'],
  [/^(License information is missing|Project URL is not defined|Project description is missing|SCM URL is not defined|Project name is missing)/i, 'missing-pom-metadata'],
  [/^Dependency version information is missing/i, 'dependency-version-missing'],
  [/^(POM file is missing|POM file .* could not be parsed)/i, 'missing-pom-metadata'],
  [/^version cannot be a SNAPSHOT/i, 'snapshot-version'],
  [/^Component with package url: '.*' already exists/i, 'already-published'],
];

/** Portal text → rule code, so a client can decode the portal's real error lines. */
export function ruleCodeOfText(text: string): RuleCode | undefined {
  const line = text.trim().replace(/^(-\s+)+/, '');
  for (const [pattern, code] of patterns) if (pattern.test(line)) return code;
  return undefined;
}
