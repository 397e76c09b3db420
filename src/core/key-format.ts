/**
 * A signing key's packet version and public-key algorithm (preflight states them among its facts),
 * and the documented rules that exclude a format (DESIGN §4, key-format-unsupported). Pure.
 *
 * Only a rule someone documented counts: keys.openpgp.org runs Hagrid (its FAQ), which reads keys
 * with Sequoia (Hagrid's Cargo.toml), and Sequoia's documentation states which key versions it
 * reads: 1.x "only supports version 4 keys", 2.x "only supports version 6 and version 4 keys". So
 * whichever Sequoia the server runs, a v3 or a v5 key (GnuPG's format from the withdrawn
 * rfc4880bis draft, not in RFC 9580) cannot be published there. Whether it reads v6 keys depends
 * on that version, which nothing documents: a v6 key gets no finding. Nothing documented by the
 * portal or the key server excludes a public-key algorithm.
 */
export interface KeyFormat {
  /** OpenPGP key packet version: 3, 4, 5 or 6. */
  version: number;
  /** Human name: `RSA 4096`, `EdDSA (Ed25519, legacy encoding)`, `Ed25519`, `ECDSA (nistP256)`. */
  algorithm: string;
}

export interface KeyFormatRule {
  /** Who cannot take the key, for the message. */
  service: string;
  excludes(format: KeyFormat): boolean;
  /** What the rule says and where it is written (URL or document name). */
  citation: string;
}

export const keyFormatRules: readonly KeyFormatRule[] = [
  {
    service: 'keys.openpgp.org',
    excludes: (f) => f.version !== 4 && f.version !== 6,
    citation:
      'keys.openpgp.org runs Hagrid (https://keys.openpgp.org/about/faq), which reads keys with Sequoia; Sequoia documents that it reads only version 4 keys (1.x) or version 4 and version 6 keys (2.x): https://docs.rs/sequoia-openpgp/latest/sequoia_openpgp/packet/key/index.html',
  },
];

/** The first documented rule that excludes this format, if any. */
export function excludingRule(format: KeyFormat): KeyFormatRule | undefined {
  return keyFormatRules.find((r) => r.excludes(format));
}

/** OpenPGP.js's `getAlgorithmInfo()` in words. */
export function algorithmName(info: { algorithm: string; bits?: number; curve?: string }): string {
  const a = info.algorithm;
  if (a.startsWith('rsa')) return `RSA${info.bits === undefined ? '' : ` ${info.bits}`}`;
  if (a === 'dsa') return `DSA${info.bits === undefined ? '' : ` ${info.bits}`}`;
  if (a === 'eddsaLegacy') return info.curve === 'ed25519Legacy' ? 'EdDSA (Ed25519, legacy encoding)' : `EdDSA (${info.curve ?? '?'})`;
  if (a === 'ed25519') return 'Ed25519';
  if (a === 'ed448') return 'Ed448';
  if (a === 'ecdsa') return `ECDSA (${info.curve ?? '?'})`;
  return a;
}

// gpg's --with-colons algorithm numbers (RFC 9580 §9.1).
const gpgAlgorithms: Record<number, string> = { 1: 'RSA', 2: 'RSA', 3: 'RSA', 16: 'Elgamal', 17: 'DSA', 18: 'ECDH', 19: 'ECDSA', 22: 'EdDSA', 27: 'Ed25519', 28: 'Ed448' };

/**
 * The format of a key gpg lists: the algorithm from its colon fields; the version from the
 * fingerprint (40 hex digits: v4; 64: v5, the only 32-byte-fingerprint format GnuPG writes).
 */
export function gpgKeyFormat(fingerprint: string, algorithm: number | undefined, bits: number | undefined, curve: string | undefined): KeyFormat | undefined {
  if (algorithm === undefined) return undefined;
  const version = fingerprint.length === 64 ? 5 : fingerprint.length === 40 ? 4 : fingerprint.length === 32 ? 3 : undefined;
  if (version === undefined) return undefined;
  const name = gpgAlgorithms[algorithm] ?? `algorithm ${algorithm}`;
  const detail = name === 'RSA' || name === 'DSA' || name === 'Elgamal' ? (bits === undefined ? '' : ` ${bits}`) : curve === undefined || curve === '' ? '' : ` (${curve})`;
  return { version, algorithm: `${name}${detail}` };
}
