import { describe, expect, it } from 'vitest';
import { keyIdMatches, normaliseKeyId } from './fingerprint.js';
import { parseColons } from './gpg.js';
import { refusedKeyserver } from './export.js';
import { pomCoordinates } from '../core/pom/coordinates.js';

// Recorded from gpg 2.2.40 --with-colons --fixed-list-mode --list-secret-keys (one key, one subkey).
const listing = `sec:u:255:22:6F2B3C4D5E6F7A8B:1700000000:1800000000::u:::scESC:::+:::23::0:
fpr:::::::::0123456789ABCDEF0123ABCD6F2B3C4D5E6F7A8B:
grp:::::::::AAAA:
uid:u::::1700000000::HASH::Jane Doe (release) <jane@example.org>::::::::::0:
ssb:u:255:18:1122334455667788:1700000000::::::e:::+:::23:
fpr:::::::::9999999999999999999999991122334455667788:
`;

describe('gpg adapter parsing', () => {
  it('reads fingerprint, key id, user ids, e-mail, expiry and subkeys', () => {
    const [k] = parseColons(listing);
    expect(k).toMatchObject({
      fingerprint: '0123456789ABCDEF0123ABCD6F2B3C4D5E6F7A8B',
      keyId: '6F2B3C4D5E6F7A8B',
      emails: ['jane@example.org'],
      expires: 1800000000,
      subkeys: ['9999999999999999999999991122334455667788'],
    });
    expect(k!.uids[0]).toContain('Jane Doe');
  });
  it('matches short and long key ids against the key and its subkeys; malformed ids are usage errors', () => {
    expect(keyIdMatches('5E6F7A8B', '0123456789ABCDEF0123ABCD6F2B3C4D5E6F7A8B')).toBe(true);
    expect(keyIdMatches('1122334455667788', 'FF', ['9999999999999999999999991122334455667788'])).toBe(true);
    expect(normaliseKeyId('0xabcdef12', 'x')).toBe('ABCDEF12');
    expect(() => normaliseKeyId('xyz', 'signing.keyId')).toThrow(/not a key id/);
  });
  it('refuses the retired SKS pool by name', () => {
    expect(refusedKeyserver('hkps://pool.sks-keyservers.net')).toContain('retired');
    expect(refusedKeyserver('https://keyserver.ubuntu.com')).toBeUndefined();
  });
  it('reads POM coordinates with parent fallback, ignoring dependencies', () => {
    const pom = `<project><parent><groupId>org.p</groupId><artifactId>parent</artifactId><version>3</version></parent>
      <artifactId>child</artifactId><packaging>war</packaging>
      <dependencies><dependency><groupId>x</groupId><artifactId>y</artifactId><version>9</version></dependency></dependencies></project>`;
    expect(pomCoordinates(pom)).toEqual({ groupId: 'org.p', artifactId: 'child', version: '3', packaging: 'war' });
  });
});
