import { describe, expect, it } from 'vitest';
import { childEnv } from '../io/child-env.js';
import { signingKeyFromEnv } from './env-key.js';

const armored = '-----BEGIN PGP PRIVATE KEY BLOCK-----\n\nlQdGBGc0abc\n=AbCd\n-----END PGP PRIVATE KEY BLOCK-----\n';

describe('signingKeyFromEnv', () => {
  it('prefers RELCTL_GPG_* and says which variables it took', () => {
    const key = signingKeyFromEnv({ RELCTL_GPG_PRIVATE_KEY: armored, GPG_PRIVATE_KEY: 'other', RELCTL_GPG_PASSPHRASE: 'p1', GPG_PASSPHRASE: 'p2' });
    expect(key).toEqual({ armored, keyVariable: 'RELCTL_GPG_PRIVATE_KEY', passphrase: 'p1', passphraseVariable: 'RELCTL_GPG_PASSPHRASE' });
  });

  it('takes GPG_PRIVATE_KEY / GPG_PASSPHRASE otherwise, and from then on no child inherits them', () => {
    const env = { GPG_PRIVATE_KEY: armored, GPG_PASSPHRASE: ' spaced pass ', PATH: '/bin' };
    expect(childEnv(env)).toMatchObject({ GPG_PASSPHRASE: ' spaced pass ' });
    const key = signingKeyFromEnv(env);
    expect(key).toMatchObject({ keyVariable: 'GPG_PRIVATE_KEY', passphrase: ' spaced pass ', passphraseVariable: 'GPG_PASSPHRASE' });
    expect(childEnv(env)).toEqual({ PATH: '/bin' });
  });

  it('is undefined without a key variable (the release signs with the user own gpg setup)', () => {
    expect(signingKeyFromEnv({ GPG_PASSPHRASE: 'x', RELCTL_GPG_PRIVATE_KEY: '  ' })).toBeUndefined();
  });

  it('accepts a one-line copy with literal \\n and refuses anything but an armored secret key', () => {
    expect(signingKeyFromEnv({ RELCTL_GPG_PRIVATE_KEY: armored.replaceAll('\n', '\\n') })?.armored).toBe(armored);
    expect(() => signingKeyFromEnv({ RELCTL_GPG_PRIVATE_KEY: '-----BEGIN PGP PUBLIC KEY BLOCK-----\n...' })).toThrow(/holds a public key/);
    expect(() => signingKeyFromEnv({ GPG_PRIVATE_KEY: 'bFFkR0JHYzAuLi4=' })).toThrow(/GPG_PRIVATE_KEY does not hold an armored secret key/);
  });
});
