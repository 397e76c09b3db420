import { describe, expect, it } from 'vitest';
import { maskSettingsSecrets } from './settings-mask.js';

describe('maskSettingsSecrets', () => {
  it('masks literal passwords, passphrases, private keys and header values, keeping ${env.*} references', () => {
    const diff = [
      ' <server><id>other</id><username>me</username><password>hunter2</password></server>',
      ' <server><id>ssh</id><privateKey>/home/me/.ssh/id</privateKey><passphrase>open sesame</passphrase></server>',
      ' <property><name>Private-Token</name><value>glpat-123</value></property>',
      '+    <password>${env.CENTRAL_TOKEN_PASSWORD}</password>',
      ' <password></password>',
    ].join('\n');
    expect(maskSettingsSecrets(diff)).toBe(
      [
        ' <server><id>other</id><username>me</username><password>***</password></server>',
        ' <server><id>ssh</id><privateKey>***</privateKey><passphrase>***</passphrase></server>',
        ' <property><name>Private-Token</name><value>***</value></property>',
        '+    <password>${env.CENTRAL_TOKEN_PASSWORD}</password>',
        ' <password></password>',
      ].join('\n'),
    );
  });
});
