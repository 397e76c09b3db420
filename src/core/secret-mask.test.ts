import { describe, expect, it } from 'vitest';
import { isSecretName, maskSecrets, maskUrlCredentials } from './secret-mask.js';

describe('secret masking of text read from files', () => {
  it('knows secret names by their words, not by a substring', () => {
    for (const name of ['gpg.passphrase', 'sonatypeToken', 'signing.password', 'signingInMemoryKey', 'apiKey', 'client_secret', 'GITHUB_TOKEN', 'privateKey']) expect(isSecretName(name), name).toBe(true);
    for (const name of ['gpg.keyname', 'monkey', 'url', 'tokenizer.version', 'project.build.sourceEncoding']) expect(isSecretName(name), name).toBe(false);
  });

  it('masks the password of a URL, and a long token used as its user; keeps references', () => {
    expect(maskUrlCredentials('see https://deploy:s3cret@repo.example.org/x and git+https://ghp_0123456789abcdefghijklmn@github.com/o/r')).toBe(
      'see https://deploy:***@repo.example.org/x and git+https://***@github.com/o/r',
    );
    expect(maskUrlCredentials('https://git@github.com/o/r https://u:${env.PW}@h/ mailto:a@b.org')).toBe('https://git@github.com/o/r https://u:${env.PW}@h/ mailto:a@b.org');
  });

  it('masks secret-named elements and property lines (a diff\'s +/-/context prefix kept), settings elements left to the parse (xml-secrets)', () => {
    const diff = [
      ' <gpg.passphrase>hunter2</gpg.passphrase><gpg.keyname>ABC</gpg.keyname>',
      '-signing.password=hunter3',
      '+mavenCentralToken = ${TOKEN}',
      ' <value>Bearer x</value>',
    ].join('\n');
    expect(maskSecrets(diff)).toBe([' <gpg.passphrase>***</gpg.passphrase><gpg.keyname>ABC</gpg.keyname>', '-signing.password=***', '+mavenCentralToken = ${TOKEN}', ' <value>Bearer x</value>'].join('\n'));
  });
});
