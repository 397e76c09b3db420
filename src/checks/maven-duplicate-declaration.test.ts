import { describe, expect, it } from 'vitest';
import { buildFacts, pom } from '../../test/fixtures/maven/facts-builder.js';
import { mavenDuplicateDeclaration } from './maven-duplicate-declaration.js';

// Shaped like a multi-module library's parent: a BOM imported in dependencyManagement, the usual
// plugin set, a release profile; one dependency pasted twice and one plugin added twice over time.
const parent = (dependencies: string, plugins: string, profile = ''): string =>
  pom(`  <groupId>org.example.kit</groupId><artifactId>kit-parent</artifactId><version>2.1.0-SNAPSHOT</version><packaging>pom</packaging>
  <dependencyManagement>
    <dependencies>
      <dependency><groupId>org.slf4j</groupId><artifactId>slf4j-api</artifactId><version>2.0.16</version></dependency>
      <dependency><groupId>org.junit</groupId><artifactId>junit-bom</artifactId><version>5.11.0</version><type>pom</type><scope>import</scope></dependency>
    </dependencies>
  </dependencyManagement>
  <dependencies>
${dependencies}
  </dependencies>
  <build>
    <pluginManagement>
      <plugins>
        <plugin><artifactId>maven-compiler-plugin</artifactId><version>3.13.0</version></plugin>
      </plugins>
    </pluginManagement>
    <plugins>
${plugins}
    </plugins>
  </build>
${profile}`);

const slf4j = '      <dependency><groupId>org.slf4j</groupId><artifactId>slf4j-api</artifactId></dependency>';
const compiler = '      <plugin><artifactId>maven-compiler-plugin</artifactId></plugin>';

describe('duplicate-declaration', () => {
  it('reports the second declaration in one section, naming the first one\'s line, as Maven does', () => {
    const deps = `${slf4j}\n      <dependency><groupId>org.junit.jupiter</groupId><artifactId>junit-jupiter</artifactId><scope>test</scope></dependency>\n${slf4j}`;
    const plugins = `${compiler}\n      <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-compiler-plugin</artifactId><configuration><release>17</release></configuration></plugin>`;
    const findings = mavenDuplicateDeclaration.run(buildFacts({ files: { 'pom.xml': parent(deps, plugins) } }));
    expect(findings).toMatchObject([
      { code: 'duplicate-declaration', severity: 'warning', file: 'pom.xml', line: 14, module: 'org.example.kit:kit-parent' },
      { code: 'duplicate-declaration', severity: 'warning', file: 'pom.xml', line: 24 },
    ]);
    expect(findings[0]!.message).toContain('org.slf4j:slf4j-api:jar');
    expect(findings[0]!.message).toContain('first at line 12');
    // A plugin's groupId defaults to org.apache.maven.plugins, as in Maven's key.
    expect(findings[1]!.message).toContain('org.apache.maven.plugins:maven-compiler-plugin');
    expect(findings[1]!.message).toContain('build.plugins');
  });

  it('checks a profile\'s sections too', () => {
    const profile = `  <profiles><profile><id>release</id><build><plugins>
    <plugin><artifactId>maven-gpg-plugin</artifactId><version>3.2.7</version></plugin>
    <plugin><artifactId>maven-gpg-plugin</artifactId><version>3.2.7</version></plugin>
  </plugins></build></profile></profiles>`;
    const findings = mavenDuplicateDeclaration.run(buildFacts({ files: { 'pom.xml': parent(slf4j, compiler, profile) } }));
    expect(findings).toMatchObject([{ line: 26 }]);
    expect(findings[0]!.message).toContain('profiles.profile[release].plugins');
  });

  it('does not report the same dependency in dependencies and dependencyManagement, the same plugin in plugins and pluginManagement, or the same artifact with another classifier or type', () => {
    const deps = `${slf4j}
      <dependency><groupId>org.example.kit</groupId><artifactId>kit-core</artifactId><version>\${project.version}</version></dependency>
      <dependency><groupId>org.example.kit</groupId><artifactId>kit-core</artifactId><version>\${project.version}</version><classifier>tests</classifier></dependency>
      <dependency><groupId>org.example.kit</groupId><artifactId>kit-core</artifactId><version>\${project.version}</version><type>test-jar</type></dependency>`;
    const profile = `  <profiles><profile><id>release</id><build><plugins>${compiler}</plugins></build></profile></profiles>`;
    expect(mavenDuplicateDeclaration.run(buildFacts({ files: { 'pom.xml': parent(deps, compiler, profile) } }))).toEqual([]);
  });
});
