import { algorithmName, type KeyFormat } from '../core/key-format.js';

/**
 * Facts of an armored public key, read with openpgp (lazily imported): user ids and the expiry
 * of the primary key and of the signing subkey. Used on the key AS SERVED, so an expiry that was
 * extended and re-uploaded counts.
 */
export interface ArmoredKeyFacts {
  fingerprint?: string;
  emails: string[];
  hasUserIds: boolean;
  /** ISO; null = never. Undefined when it could not be determined. */
  expiresAt?: string | null;
  signingExpiresAt?: string | null;
  /** Packet version and algorithm of the primary key. */
  format?: KeyFormat;
}

function iso(d: Date | number | null): string | null {
  if (d === null || d === Infinity) return null;
  return (d instanceof Date ? d : new Date(d)).toISOString();
}

export async function readArmoredKey(armored: string): Promise<ArmoredKeyFacts> {
  const openpgp = await import('openpgp');
  let key: Awaited<ReturnType<typeof openpgp.readKey>>;
  try {
    // v5 keys (GnuPG) are read too, so that their version can be stated.
    key = await openpgp.readKey({ armoredKey: armored, config: { enableParsingV5Entities: true } });
  } catch {
    // keys.openpgp.org serves keys without user ids until an address is confirmed; openpgp may refuse those.
    return { emails: [], hasUserIds: false };
  }
  const emails = key.users.map((u) => u.userID?.email).filter((e): e is string => e !== undefined && e !== '');
  const out: ArmoredKeyFacts = {
    fingerprint: key.getFingerprint().toUpperCase(),
    emails,
    hasUserIds: key.users.some((u) => u.userID !== null),
    format: { version: key.keyPacket.version, algorithm: algorithmName(key.getAlgorithmInfo() as { algorithm: string; bits?: number; curve?: string }) },
  };
  try {
    out.expiresAt = iso((await key.getExpirationTime()) as Date | number | null);
  } catch {
    // No valid self-signature: leave the expiry unknown.
  }
  // The expiry of the newest signing-capable subkey; getSigningKey() refuses expired ones, so read the packets.
  const subDates: (string | null)[] = [];
  for (const sub of key.subkeys) {
    try {
      const bind = sub.bindingSignatures[sub.bindingSignatures.length - 1];
      if (bind === undefined || bind.keyFlags === null || bind.keyFlags === undefined) continue;
      const flags = bind.keyFlags[0] ?? 0;
      if ((flags & 0x02) === 0) continue;
      subDates.push(iso((await sub.getExpirationTime()) as Date | number | null));
    } catch {
      // An unreadable subkey: ignore it.
    }
  }
  if (subDates.length > 0) {
    out.signingExpiresAt = subDates.includes(null) ? null : [...subDates].sort().pop()!;
  } else {
    out.signingExpiresAt = out.expiresAt ?? null;
  }
  return out;
}
