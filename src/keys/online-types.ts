import type { KeyFormat } from '../core/key-format.js';

/**
 * Facts the online gatherers put under ProjectFacts.online (absent with --offline). Plain data:
 * the checks that read them are pure.
 */
export interface KeyCheckFacts {
  /** Undefined when no key could be resolved (then `problem` says why). */
  fingerprint?: string;
  /** Where the fingerprint came from (flag, config, Gradle signing.keyId, gpg default key). */
  source?: string;
  problem?: { message: string; fix: string };
  /** The signing key id the build is configured with (Gradle signing.keyId), if any. */
  configuredKeyId?: { id: string; source: string; matches: boolean };
  primary: LookupOutcome;
  /** The primary key server's answer when it did not serve the key (404, or 200 without a key). */
  primaryStatus?: number;
  secondary: LookupOutcome;
  /** Primary key server lookups by each e-mail address of the key. */
  emails: { address: string; outcome: LookupOutcome }[];
  /** The key as served (primary, else secondary, else local): user ids and expiry. */
  served?: {
    from: 'primary' | 'secondary' | 'local';
    hasUserIds: boolean;
    /** ISO; null = never expires. */
    expiresAt: string | null;
    signingExpiresAt: string | null;
    /** Packet version and algorithm, when they could be read. */
    format?: KeyFormat;
  };
  primaryUrl: string;
  uploadFormUrl: string;
  secondaryUrl: string;
  /** ISO time of the check (expiry is judged against it). */
  checkedAt: string;
}

/** The signing key's format as preflight states it (verbose facts) and judges it (key-format-unsupported). */
export interface SigningKeyFacts {
  fingerprint: string;
  format: KeyFormat;
  /** Where the key was read: `keys.openpgp.org` (as served), `the local keyring`. */
  from: string;
}

export type LookupOutcome = 'found' | 'not-found' | { error: string };

export interface PortalCheckFacts {
  groupId?: string;
  credentials: 'present' | 'missing';
  /** Result of an authenticated search (undefined when not attempted). */
  auth?: 'accepted' | 'rejected' | 'expired' | { error: string };
  /** A FAILED deployment blocking the namespace, found by search + status. */
  blockedBy?: { deploymentId: string; repositoryKey: string };
  portalUrl: string;
  missingFix: string;
  /** How to make a new token (the portal's /usertoken page), for a refused or expired one. */
  tokenFix: string;
}

export interface OnlineSections {
  keys?: KeyCheckFacts;
  portal?: PortalCheckFacts;
}
