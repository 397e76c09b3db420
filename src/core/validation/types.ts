/**
 * The portal's validation rule set, shared by the sandbox (which validates deployments the way the
 * portal does) and `relctl verify` (which replays the same rules before the manual upload).
 * The shapes are fixed in briefs/interfaces.md; the codes are a public contract (DESIGN §3).
 */
export type RuleCode =
  | 'missing-signature'
  | 'invalid-signature'
  | 'key-not-on-primary'
  | 'missing-checksum'
  | 'bad-checksum'
  | 'missing-sources'
  | 'missing-javadoc'
  | 'packaging-mismatch'
  | 'missing-developers'
  | 'missing-pom-metadata'
  | 'snapshot-version'
  | 'already-published';

export const ruleCodes: readonly RuleCode[] = [
  'missing-signature',
  'invalid-signature',
  'key-not-on-primary',
  'missing-checksum',
  'bad-checksum',
  'missing-sources',
  'missing-javadoc',
  'packaging-mismatch',
  'missing-developers',
  'missing-pom-metadata',
  'snapshot-version',
  'already-published',
];

export interface RuleViolation {
  code: RuleCode;
  /** The portal's own text for this failure. */
  message: string;
  /** Maven path of the file concerned, when the rule is about one file. */
  file?: string;
}

export interface ComponentVerdict {
  groupId: string;
  artifactId: string;
  version: string;
  packaging: string;
  /** pkg:maven/<g>/<a>@<v> */
  purl: string;
  /** Every file of the component (maven paths, sorted): the "expected artifacts" shown to a person. */
  files: string[];
  violations: RuleViolation[];
}

export type SignatureVerdict =
  | { status: 'valid'; fingerprint: string }
  | { status: 'invalid' }
  | { status: 'no-public-key'; keyId: string };

/** Everything the rules need from outside, injected so the rule set stays pure. */
export interface ValidationEnvironment {
  /** A parent POM that is not part of the deployment, e.g. from the public repository. */
  fetchPom(groupId: string, artifactId: string, version: string): Promise<string | undefined>;
  isPublished(groupId: string, artifactId: string, version: string): Promise<boolean>;
  verifySignature(file: string, data: Uint8Array, signature: Uint8Array): Promise<SignatureVerdict>;
}
