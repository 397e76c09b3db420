import { describe, expect, it } from 'vitest';
import { buildFacts, pom } from '../../test/fixtures/maven/facts-builder.js';
import { mavenPluginVersionMissing } from './maven-plugin-version-missing.js';

// Shaped like zxing's and jsoup's parents: plugins listed bare under <plugins>, some managed, a
// release profile adding gpg; a module re-declaring a plugin to add configuration.
const parent = (plugins: string, managed = '', profile = ''): string =>
  pom(`  <groupId>org.example.barcode</groupId><artifactId>barcode-parent</artifactId><version>3.5.4-SNAPSHOT</version><packaging>pom</packaging>
  <modules><module>core</module></modules>
  <build>
    <pluginManagement>
      <plugins>
${managed}
      </plugins>
    </pluginManagement>
    <plugins>
${plugins}
    </plugins>
  </build>
${profile}`);
const core = (plugins: string): string =>
  pom(`  <parent><groupId>org.example.barcode</groupId><artifactId>barcode-parent</artifactId><version>3.5.4-SNAPSHOT</version></parent>
  <artifactId>core</artifactId>
  <build><plugins>
${plugins}
  </plugins></build>`);

const bare = (artifactId: string): string => `        <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>${artifactId}</artifactId></plugin>`;

describe('plugin-version-missing', () => {
  it('reports a bare plugin no pluginManagement versions, where it is declared, in Maven\'s words (a default-lifecycle plugin too)', () => {
    const findings = mavenPluginVersionMissing.run(buildFacts({ files: { 'pom.xml': parent(`${bare('maven-source-plugin')}\n${bare('maven-compiler-plugin')}`), 'core/pom.xml': core('') } }));
    expect(findings).toMatchObject([
      { code: 'plugin-version-missing', severity: 'warning', file: 'pom.xml', line: 13, module: 'org.example.barcode:barcode-parent' },
      { code: 'plugin-version-missing', file: 'pom.xml', line: 14 },
    ]);
    expect(findings[0]!.message).toContain("'build.plugins.plugin.version' for org.apache.maven.plugins:maven-source-plugin is missing");
  });

  it('reports a bare plugin in a profile, saying Maven warns when the profile is active', () => {
    const profile = `  <profiles><profile><id>release</id><build><plugins>\n${bare('maven-gpg-plugin')}\n  </plugins></build></profile></profiles>`;
    const findings = mavenPluginVersionMissing.run(buildFacts({ files: { 'pom.xml': parent('', '', profile) } }));
    expect(findings).toMatchObject([{ file: 'pom.xml', line: 17 }]);
    expect(findings[0]!.message).toContain('profile release');
  });

  it('does not report a plugin versioned by pluginManagement, by a parent\'s declaration, by the super POM, or in pluginManagement itself', () => {
    const managed = `        <plugin><artifactId>maven-source-plugin</artifactId><version>3.3.1</version></plugin>\n${bare('maven-javadoc-plugin')}`;
    const plugins = `${bare('maven-source-plugin')}\n        <plugin><artifactId>maven-jar-plugin</artifactId><version>3.4.2</version></plugin>\n${bare('maven-antrun-plugin')}`;
    const profile = `  <profiles><profile><id>release</id><build><plugins>\n${bare('maven-source-plugin')}\n  </plugins></build></profile></profiles>`;
    // The module re-declares the jar plugin bare to configure it: the parent's version holds.
    const findings = mavenPluginVersionMissing.run(buildFacts({ files: { 'pom.xml': parent(plugins, managed, profile), 'core/pom.xml': core(bare('maven-jar-plugin')) } }));
    expect(findings).toEqual([]);
  });

  it('stays quiet past an unresolved parent (its pluginManagement may hold the version)', () => {
    const boot = pom(`  <parent><groupId>org.springframework.boot</groupId><artifactId>spring-boot-starter-parent</artifactId><version>3.3.4</version><relativePath/></parent>
  <groupId>io.github.acme</groupId><artifactId>admin</artifactId><version>0.4.0-SNAPSHOT</version>
  <build><plugins><plugin><groupId>org.springframework.boot</groupId><artifactId>spring-boot-maven-plugin</artifactId></plugin></plugins></build>`);
    expect(mavenPluginVersionMissing.run(buildFacts({ files: { 'pom.xml': boot } }))).toEqual([]);
  });
});
