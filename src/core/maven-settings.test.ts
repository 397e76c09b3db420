import { describe, expect, it } from 'vitest';
import { isEncrypted, mvnSettingsArguments, parseMavenSettings, serverWithCredentials } from './maven-settings.js';

const text = `<settings>
  <localRepository>\${user.home}/m2repo</localRepository>
  <mirrors><mirror><id>m</id><url>file:///x</url><mirrorOf>*</mirrorOf></mirror></mirrors>
  <servers>
    <server><id>central</id><username>\${env.TOK_USER}</username><password>\${env.TOK_PASS}</password></server>
    <server><id>plain</id><username>u</username><password>p</password></server>
    <server><id>half</id><username>u</username></server>
  </servers>
</settings>`;

describe('Maven settings', () => {
  it('resolves ${env.NAME} credentials and ${user.home}, ignoring mirrors', () => {
    const r = parseMavenSettings(text, { env: { TOK_USER: 'tu', TOK_PASS: 'tp' }, home: '/h' });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.settings.localRepository).toBe('/h/m2repo');
    expect(serverWithCredentials(r.settings, 'central')).toMatchObject({ username: 'tu', password: 'tp', line: 5 });
    expect(serverWithCredentials(r.settings, 'plain')).toBeDefined();
    expect(serverWithCredentials(r.settings, 'half')).toBeUndefined();
  });

  it('collects the properties of active profiles only (activeProfiles or activeByDefault)', () => {
    const r = parseMavenSettings(`<settings>
  <profiles>
    <profile><id>rel</id><properties><release.url>https://\${env.HOST}/deploy/</release.url></properties></profile>
    <profile><id>dflt</id><activation><activeByDefault>true</activeByDefault></activation><properties><site.x>s</site.x></properties></profile>
    <profile><id>off</id><properties><other>o</other></properties></profile>
  </profiles>
  <activeProfiles><activeProfile>rel</activeProfile></activeProfiles>
</settings>`, { env: { HOST: 'repo.example.org' }, home: '/h' });
    if (!r.ok) throw new Error(r.message);
    expect([...(r.settings.properties ?? [])]).toEqual([['release.url', 'https://repo.example.org/deploy/'], ['site.x', 's']]);
  });

  it('treats a credential from an unset variable as missing and names the variable', () => {
    const r = parseMavenSettings(text, { env: { TOK_USER: 'tu' }, home: '/h' });
    if (!r.ok) throw new Error(r.message);
    expect(serverWithCredentials(r.settings, 'central')).toBeUndefined();
    expect(r.settings.servers[0]?.unsetEnv).toEqual(['TOK_PASS']);
  });

  it('lists every literal secret the file holds, in any XML form, with or without a username; not references or switches', () => {
    const r = parseMavenSettings(`<settings>
  <servers>
    <server><id>a</id><password><!--c-->pw-no-user</password></server>
    <server><id>b</id><username>u</username><passphrase >pass-spaced</passphrase ></server>
    <server><id>c</id><password><![CDATA[\${env.TOK_PASS}]]></password></server>
    <server><id>d</id><password>\${env.UNSET}</password></server>
  </servers>
  <profiles><profile><id>p</id><properties><gpg.passphrase>gpg-pass</gpg.passphrase><skipTokenCheck>true</skipTokenCheck></properties></profile></profiles>
</settings>`, { env: { TOK_PASS: 'tp-from-env' }, home: '/h' });
    if (!r.ok) throw new Error(r.message);
    expect(r.settings.secrets).toEqual(['pw-no-user', 'pass-spaced', 'tp-from-env', 'gpg-pass']);
  });

  it('reports malformed settings with a line instead of throwing', () => {
    expect(parseMavenSettings('<settings>\n<servers>\n</settings>', { env: {}, home: '/h' })).toMatchObject({ ok: false, line: 3 });
    expect(parseMavenSettings('<project/>', { env: {}, home: '/h' })).toMatchObject({ ok: false });
  });
});

describe('encrypted values', () => {
  it('knows a Maven 3 {...} value, not Maven 4 {[...]...} nor text with braces inside', () => {
    expect(isEncrypted('{jSMOWnoPFgsHVpMvz5VrIt5kRbzGpI8u+9EF1iFQyJQ=}')).toBe(true);
    expect(isEncrypted('{[name=master,cipher=AES]abc}')).toBe(false);
    expect(isEncrypted('pa{ss}word')).toBe(false);
    expect(isEncrypted(undefined)).toBe(false);
  });
});

describe('settings files CI scripts pass to mvn', () => {
  it('reads -s / --settings on mvn and wrapper lines, without workspace prefixes, skipping other commands and expressions', () => {
    const script = [
      '      run: ./mvnw -B --settings ${{ github.workspace }}/.github/settings.xml deploy',
      '  script: mvn -s "$CI_PROJECT_DIR/ci/maven settings.xml" -Prelease deploy',
      'sh "mvn -B -s=.ci/s.xml verify"',
      '# mvn -s commented.xml deploy',
      'curl -s https://example.org/x.xml',
      'mvn -s ${SETTINGS_FILE} deploy',
    ].join('\n');
    expect(mvnSettingsArguments(script)).toEqual(['.github/settings.xml', 'ci/maven settings.xml', '.ci/s.xml']);
  });
});
