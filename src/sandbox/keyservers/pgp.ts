import type { Key } from 'openpgp';

type OpenPgp = typeof import('openpgp');
let openpgpModule: Promise<OpenPgp> | undefined;
/** Loaded on the first key-server request only: the sandbox starts without it. */
export const loadOpenPgp = (): Promise<OpenPgp> => (openpgpModule ??= import('openpgp'));

/** An upload the key server refuses; the message goes back to the client as is. */
export class KeyTextError extends Error {}

/** The identifiers and addresses of a key, as stored in the directory's JSON state. */
export interface KeyFacts {
  /** Primary key fingerprint, uppercase hex. */
  fingerprint: string;
  /** Fingerprints and long key ids of the primary key and every subkey, uppercase hex. */
  ids: string[];
  /** E-mail addresses of the user ids, lowercase, sorted, unique. */
  emails: string[];
}

export function keyFacts(key: Key): KeyFacts {
  const ids = new Set<string>();
  for (const k of [key, ...key.subkeys]) {
    ids.add(k.getFingerprint().toUpperCase());
    ids.add(k.getKeyID().toHex().toUpperCase());
  }
  const emails = new Set<string>();
  for (const user of key.users) {
    const email = user.userID?.email;
    if (email) emails.add(email.toLowerCase());
  }
  return { fingerprint: key.getFingerprint().toUpperCase(), ids: [...ids], emails: [...emails].sort() };
}

/**
 * Reads the `keytext` of an upload: ASCII-armored, or base64 of the binary form (both accepted by
 * keys.openpgp.org). Private keys and anything that is not a public key are refused.
 */
export async function parseKeyText(keytext: unknown): Promise<Key[]> {
  if (typeof keytext !== 'string' || keytext.trim() === '') throw new KeyTextError('Missing keytext: send the armored public key in the "keytext" field.');
  if (/-----BEGIN PGP PRIVATE KEY BLOCK-----/.test(keytext)) throw new KeyTextError('This is a private key. Upload the public key only (gpg --armor --export <fingerprint>).');
  const openpgp = await loadOpenPgp();
  let keys: Key[];
  try {
    if (keytext.includes('-----BEGIN PGP')) {
      keys = await openpgp.readKeys({ armoredKeys: keytext });
    } else {
      const compact = keytext.replace(/\s+/g, '');
      if (!/^[A-Za-z0-9+/]+={0,2}$/.test(compact)) throw new Error('not base64');
      keys = await openpgp.readKeys({ binaryKeys: new Uint8Array(Buffer.from(compact, 'base64')) });
    }
  } catch {
    throw new KeyTextError('Failed to parse the keytext: expected an OpenPGP public key, ASCII-armored or base64-encoded.');
  }
  if (keys.length === 0) throw new KeyTextError('Failed to parse the keytext: it holds no key.');
  if (keys.some((k) => k.isPrivate())) throw new KeyTextError('This is a private key. Upload the public key only (gpg --armor --export <fingerprint>).');
  return keys;
}

export async function readArmoredKey(armored: string): Promise<Key> {
  const openpgp = await loadOpenPgp();
  return openpgp.readKey({ armoredKey: armored });
}

/** Merges a re-upload into the stored key (new user ids, subkeys, a refreshed expiry...). */
export async function mergeKey(storedArmored: string | undefined, incoming: Key): Promise<Key> {
  if (storedArmored === undefined) return incoming;
  const stored = await readArmoredKey(storedArmored);
  return stored.update(incoming);
}

/**
 * The key as keys.openpgp.org serves it: only user ids whose address was confirmed; user ids
 * without an address and user attributes (photos) are never served. A key with no confirmed
 * address goes out with no user id at all.
 */
export async function servedArmor(fullArmored: string, confirmed: readonly string[]): Promise<string> {
  const key = await readArmoredKey(fullArmored);
  const allowed = new Set(confirmed.map((a) => a.toLowerCase()));
  key.users = key.users.filter((u) => u.userID?.email != null && allowed.has(u.userID.email.toLowerCase()));
  return key.armor();
}

/** One line per key in the HKP machine-readable index format (draft-shaw-openpgp-hkp §5.2). */
export async function hkpIndex(armoredKeys: readonly string[]): Promise<string> {
  const openpgp = await loadOpenPgp();
  const algorithmIds = openpgp.enums.publicKey as unknown as Record<string, number>;
  const lines = [`info:1:${armoredKeys.length}`];
  for (const armored of armoredKeys) {
    const key = await readArmoredKey(armored);
    const created = Math.floor(key.getCreationTime().getTime() / 1000);
    const expiration = await key.getExpirationTime().catch(() => null);
    const expires = expiration instanceof Date ? String(Math.floor(expiration.getTime() / 1000)) : '';
    const algorithm = key.getAlgorithmInfo();
    const bits = 'bits' in algorithm && algorithm.bits !== undefined ? String(algorithm.bits) : '';
    lines.push(`pub:${key.getFingerprint().toUpperCase()}:${algorithmIds[algorithm.algorithm] ?? ''}:${bits}:${created}:${expires}:`);
    for (const user of key.users) {
      if (user.userID != null) lines.push(`uid:${encodeURIComponent(user.userID.userID)}:${created}::`);
    }
  }
  return `${lines.join('\n')}\n`;
}
