import { describe, expect, it } from 'vitest';
import { privateMavenSettings, withLocalRepository } from './maven-user-home.js';

const user = `<?xml version="1.0"?>
<settings>
  <!-- <localRepository>/commented/out</localRepository> -->
  <localRepository>\${user.home}/m2-elsewhere</localRepository>
  <mirrors><mirror><id>corp</id><url>https://repo.corp.example/maven</url><mirrorOf>*</mirrorOf></mirror></mirrors>
  <proxies><proxy><id>p</id><host>proxy.corp.example</host><port>3128</port></proxy></proxies>
  <servers><server><id>central</id><username>old</username><password>old-secret</password></server><server><id>corp</id><username>me</username></server></servers>
</settings>
`;

describe('the private Maven home settings', () => {
  it("keep the user's mirrors, proxies and other servers, set the local repository and replace the release server with ${env.…} names", () => {
    const text = privateMavenSettings({
      userSettings: user,
      home: '/home/maintainer',
      localRepo: '/cache/m2',
      server: { id: 'central', username: '${env.U}', password: '${env.P}' },
    });
    expect(text).toContain('<mirror><id>corp</id><url>https://repo.corp.example/maven</url>');
    expect(text).toContain('<host>proxy.corp.example</host>');
    expect(text).toContain('<server><id>corp</id><username>me</username></server>');
    expect(text).toContain('<server><id>central</id><username>${env.U}</username><password>${env.P}</password></server>');
    expect(text).not.toContain('old-secret');
    expect(text).toContain('<localRepository>/cache/m2</localRepository>');
    expect(text).not.toContain('m2-elsewhere');
    // The commented-out element stays a comment.
    expect(text).toContain('<!-- <localRepository>/commented/out</localRepository> -->');
  });

  it('write out ${user.home} as the real home (the property names the private home in the forks)', () => {
    const text = privateMavenSettings({ userSettings: '<settings><profiles><profile><id>x</id><properties><keys>${user.home}/keys</keys></properties></profile></profiles></settings>', home: '/home/m', localRepo: '/home/m/.m2/repository' });
    expect(text).toContain('<keys>/home/m/keys</keys>');
    expect(text).not.toContain('${user.home}');
  });

  it('without user settings: the local repository, and the server when relctl holds the token', () => {
    expect(privateMavenSettings({ home: '/h', localRepo: '/h/.m2/repository' })).toMatch(/<settings>\n {2}<localRepository>\/h\/\.m2\/repository<\/localRepository>\n<\/settings>/);
    const withServer = privateMavenSettings({ home: '/h', localRepo: '/r', server: { id: 'ossrh', username: '${env.U}', password: '${env.P}' } });
    expect(withServer).toContain('<server><id>ossrh</id>');
    expect(withServer).toContain('<localRepository>/r</localRepository>');
  });

  it('withLocalRepository inserts after <settings …> when the user set none', () => {
    expect(withLocalRepository('<settings xmlns="http://maven.apache.org/SETTINGS/1.0.0">\n</settings>', '/a&b')).toBe(
      '<settings xmlns="http://maven.apache.org/SETTINGS/1.0.0">\n  <localRepository>/a&amp;b</localRepository>\n</settings>',
    );
  });
});
