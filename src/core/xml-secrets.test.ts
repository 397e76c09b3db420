import { describe, expect, it } from 'vitest';
import { parseXml } from './pom/xml.js';
import { maskDescriptorSecrets, secretElements } from './xml-secrets.js';

const settings = `<settings>
  <servers>
    <server><id>a</id><password><!--c-->pw-comment</password></server>
    <server><id>b</id><username>u</username><passphrase >pass spaced</passphrase ></server>
    <server><id>c</id><password><![CDATA[pw-cdata]]></password></server>
    <server><id>d</id><password>pw"quote\\slash&amp;</password></server>
    <server><id>e</id><password>\${env.PW}</password><privateKey>/home/me/.ssh/id</privateKey></server>
    <server><id>f</id><configuration><httpHeaders><property><name>Private-Token</name><value>glpat-123</value></property></httpHeaders></configuration></server>
    <server><id>g</id><password>
      two
      lines
    </password></server>
  </servers>
</settings>
`;

describe('secrets found by parsing a descriptor', () => {
  it('finds values through comments, CDATA, entities and spaced tags (and references, which name one)', () => {
    const xml = parseXml(settings);
    if (!xml.ok) throw new Error(xml.message);
    expect(secretElements(xml.root).map((e) => e.text)).toEqual(['pw-comment', 'pass spaced', 'pw-cdata', 'pw"quote\\slash&', '${env.PW}', '/home/me/.ssh/id', 'two\n      lines']);
    // In a settings file, an HTTP header's <value> too.
    expect(secretElements(xml.root, { settings: true }).map((e) => e.text)).toContain('glpat-123');
  });

  it('masks them where they stand, line breaks kept; a settings file is known by its root', () => {
    const masked = maskDescriptorSecrets(settings);
    for (const secret of ['pw-comment', 'pass spaced', 'pw-cdata', 'quote', '.ssh', 'glpat', 'two', 'lines']) expect(masked).not.toContain(secret);
    expect(masked).toContain('<password>***</password></server>');
    expect(masked).toContain('<passphrase >***</passphrase >');
    expect(masked).toContain('<password>${env.PW}</password>');
    expect(masked).toContain('<value>***</value>');
    expect(masked.split('\n')).toHaveLength(settings.split('\n').length);
    expect(masked).toContain('<password>\n      ***\n      ***\n    </password>');
  });

  it('masks a POM\'s secret-named properties but not its <value>s; text that is not XML gets the patterns', () => {
    const pom = '<project><properties><gpg.passphrase >p1</gpg.passphrase ><sonatypeToken><!--x-->t1</sonatypeToken><gpg.keyname>ABC</gpg.keyname></properties><value>v</value></project>';
    expect(maskDescriptorSecrets(pom)).toBe('<project><properties><gpg.passphrase >***</gpg.passphrase ><sonatypeToken>***</sonatypeToken><gpg.keyname>ABC</gpg.keyname></properties><value>v</value></project>');
    expect(maskDescriptorSecrets('signing.password=hunter2\nrepo=https://u:pw@host/x\n')).toBe('signing.password=***\nrepo=https://u:***@host/x\n');
  });
});
