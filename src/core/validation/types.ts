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
  | 'dependency-version-missing'
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
  'dependency-version-missing',
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

/**
 * One file of a deployment, read when a rule needs it: small files (POMs, checksum sidecars,
 * signatures) whole, artifacts as chunks read once from disk, so a release of any size is checked
 * in memory bounded by the files in flight, not by their sizes.
 */
export interface DeploymentFile {
  /** The whole content; the rules ask it only of small files. */
  bytes(): Promise<Uint8Array>;
  /** The content in chunks from its start; each call reads the file anew. */
  chunks(): AsyncIterable<Uint8Array>;
  /**
   * A checksum sidecar relctl itself derives from its artifact (Maven writes them only while
   * deploying): it matches by construction, so the artifact is not read for it.
   */
  derived?: boolean;
}

/** A deployment file whose size is known before it is read (limits, plans, progress, records). */
export interface SizedDeploymentFile extends DeploymentFile {
  size: number;
}

/** Maven path → file; plain bytes are accepted for deployments held in memory (small ones, tests). */
export type DeploymentFiles = ReadonlyMap<string, DeploymentFile | Uint8Array>;

/** Everything the rules need from outside, injected so the rule set stays pure. */
export interface ValidationEnvironment {
  /** A parent POM that is not part of the deployment, e.g. from the public repository. */
  fetchPom(groupId: string, artifactId: string, version: string): Promise<string | undefined>;
  isPublished(groupId: string, artifactId: string, version: string): Promise<boolean>;
  /**
   * The verdict on a detached signature over `data`, streamed: the verifier reads the chunks (to
   * their end, or not at all) while the rules hash the same chunks, so each file is read once.
   */
  verifySignature(file: string, data: AsyncIterable<Uint8Array>, signature: Uint8Array): Promise<SignatureVerdict>;
}
