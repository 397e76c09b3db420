import { describe, expect, it } from 'vitest';
import { algorithmName, excludingRule, gpgKeyFormat } from '../core/key-format.js';
import { readArmoredKey } from '../keys/key-facts.js';
import { parseColons } from '../keys/gpg.js';
import type { ProjectFacts } from './facts.js';
import { signingKeyFormat } from './signing-key-format.js';

function factsWith(signingKey: ProjectFacts['signingKey']): ProjectFacts {
  return { root: '/p', buildTool: 'maven', gatherFindings: [], ...(signingKey === undefined ? {} : { signingKey }) };
}

describe('the signing key format', () => {
  it('reads the packet version and algorithm of real OpenPGP.js keys: v6 Ed25519 and v4 RSA, neither excluded by a documented rule', async () => {
    const openpgp = await import('openpgp');
    const v6 = await openpgp.generateKey({ userIDs: [{ name: 'v6', email: 'v6@example.invalid' }], config: { v6Keys: true }, format: 'armored' });
    const six = await readArmoredKey(v6.publicKey);
    expect(six.format).toEqual({ version: 6, algorithm: 'Ed25519' });
    expect(six.fingerprint).toHaveLength(64);
    const rsa = await openpgp.generateKey({ type: 'rsa', rsaBits: 2048, userIDs: [{ name: 'rsa', email: 'rsa@example.invalid' }], format: 'armored' });
    expect((await readArmoredKey(rsa.publicKey)).format).toEqual({ version: 4, algorithm: 'RSA 2048' });
    // Nothing documented excludes a v6 key: stated among the facts, no finding.
    expect(signingKeyFormat.run(factsWith({ fingerprint: six.fingerprint!, format: six.format!, from: 'keys.openpgp.org (as served)' }))).toEqual([]);
  });

  it('reads the format gpg lists: a 40-hex fingerprint is v4, a 64-hex one (GnuPG) is v5', () => {
    const listing = [
      'sec:u:255:22:AAAABBBBCCCCDDDD:1700000000:::u:::scSC:::+::ed25519:::0:',
      'fpr:::::::::0123456789ABCDEF0123456789ABCDEF01234567:',
      'uid:u::::1700000000::X::Dev <dev@example.invalid>::::::::::0:',
    ].join('\n');
    const [key] = parseColons(listing);
    expect(gpgKeyFormat(key!.fingerprint, key!.algorithm, key!.bits, key!.curve)).toEqual({ version: 4, algorithm: 'EdDSA (ed25519)' });
    expect(gpgKeyFormat('A'.repeat(64), 1, 3072, undefined)).toEqual({ version: 5, algorithm: 'RSA 3072' });
    expect(algorithmName({ algorithm: 'eddsaLegacy', curve: 'ed25519Legacy' })).toBe('EdDSA (Ed25519, legacy encoding)');
  });

  it('reports key-format-unsupported only where the documented rule excludes the version (v3, v5), citing it and giving the gpg command', () => {
    expect(excludingRule({ version: 4, algorithm: 'RSA 4096' })).toBeUndefined();
    expect(excludingRule({ version: 6, algorithm: 'Ed25519' })).toBeUndefined();
    const [finding] = signingKeyFormat.run(factsWith({ fingerprint: 'A'.repeat(64), format: { version: 5, algorithm: 'EdDSA (ed25519)' }, from: 'the local keyring' }));
    expect(finding).toMatchObject({ code: 'key-format-unsupported', severity: 'error' });
    expect(finding!.message).toContain('v5 OpenPGP key');
    expect(finding!.message).toContain('https://docs.rs/sequoia-openpgp/latest/sequoia_openpgp/packet/key/index.html');
    expect(finding!.fix).toContain('gpg --quick-gen-key');
    expect(signingKeyFormat.run(factsWith({ fingerprint: 'B'.repeat(32), format: { version: 3, algorithm: 'RSA 1024' }, from: 'the local keyring' }))).toHaveLength(1);
  });
});
