import { describe, expect, it } from 'vitest';
import { buildFacts, pom, stagingDistribution } from '../../test/fixtures/maven/facts-builder.js';
import { mavenForeignParent, namespaceOf } from './maven-foreign-parent.js';

// spring-boot-starter-parent 3.3.4 as published (trimmed): it declares Spring's url, scm and
// developers, which every child inherits unless it declares its own.
const starterParent = pom(`  <parent><groupId>org.springframework.boot</groupId><artifactId>spring-boot-dependencies</artifactId><version>3.3.4</version></parent>
  <artifactId>spring-boot-starter-parent</artifactId><packaging>pom</packaging>
  <name>spring-boot-starter-parent</name>
  <description>Parent pom providing dependency and plugin management for applications built with Maven</description>
  <url>https://spring.io/projects/spring-boot</url>
  <licenses><license><name>Apache License, Version 2.0</name><url>https://www.apache.org/licenses/LICENSE-2.0</url></license></licenses>
  <developers><developer><name>Spring</name><email>ask@spring.io</email><organization>VMware, Inc.</organization><organizationUrl>https://www.spring.io</organizationUrl></developer></developers>
  <scm><url>https://github.com/spring-projects/spring-boot</url></scm>`);
const bootDependencies = pom('  <groupId>org.springframework.boot</groupId><artifactId>spring-boot-dependencies</artifactId><version>3.3.4</version><packaging>pom</packaging>');
const repository = { 'org.springframework.boot:spring-boot-starter-parent:3.3.4': starterParent, 'org.springframework.boot:spring-boot-dependencies:3.3.4': bootDependencies };

// A starter library a user publishes on that parent: name, description and licenses its own.
const starter = (own = ''): string =>
  pom(`  <parent><groupId>org.springframework.boot</groupId><artifactId>spring-boot-starter-parent</artifactId><version>3.3.4</version><relativePath/></parent>
  <groupId>io.github.acme</groupId><artifactId>acme-spring-boot-starter</artifactId><version>1.0.0-SNAPSHOT</version>
  <name>Acme Spring Boot starter</name>
  <description>Auto-configuration for Acme.</description>
  <licenses><license><name>MIT</name><url>https://opensource.org/licenses/MIT</url></license></licenses>
${own}
${stagingDistribution}`);

describe('metadata-from-foreign-parent', () => {
  it('names the parent and the values Maven would publish (the url with the artifactId appended), at the <parent>', () => {
    const findings = mavenForeignParent.run(buildFacts({ files: { 'pom.xml': starter() }, repository }));
    expect(findings).toMatchObject([{ code: 'metadata-from-foreign-parent', severity: 'warning', file: 'pom.xml', line: 4, module: 'io.github.acme:acme-spring-boot-starter' }]);
    const message = findings[0]!.message;
    expect(message).toContain('org.springframework.boot:spring-boot-starter-parent:3.3.4');
    expect(message).toContain('<url> https://spring.io/projects/spring-boot/acme-spring-boot-starter');
    expect(message).toContain('<scm><url> https://github.com/spring-projects/spring-boot/acme-spring-boot-starter');
    expect(message).toContain('<developers> Spring');
  });

  it('reports only what is still inherited, and nothing once the project declares its own', () => {
    const own = '  <url>https://github.com/acme/starter</url>\n  <scm><url>https://github.com/acme/starter</url></scm>';
    const some = mavenForeignParent.run(buildFacts({ files: { 'pom.xml': starter(own) }, repository }));
    expect(some.map((f) => f.message)).toEqual([expect.stringContaining('<developers> Spring')]);
    expect(some[0]!.message).not.toContain('<url>');
    const dev = '  <developers><developer><name>Ann</name><organization>Acme</organization><organizationUrl>https://acme.example</organizationUrl></developer></developers>';
    expect(mavenForeignParent.run(buildFacts({ files: { 'pom.xml': starter(`${own}\n${dev}`) }, repository }))).toEqual([]);
  });

  it('reports once for a reactor, at the top-level <parent>, not again for each module', () => {
    const top = starter().replace('<artifactId>acme-spring-boot-starter</artifactId>', '<artifactId>acme-parent</artifactId><packaging>pom</packaging><modules><module>core</module></modules>');
    const core = pom('  <parent><groupId>io.github.acme</groupId><artifactId>acme-parent</artifactId><version>1.0.0-SNAPSHOT</version></parent>\n  <artifactId>acme-core</artifactId><name>core</name>');
    const findings = mavenForeignParent.run(buildFacts({ files: { 'pom.xml': top, 'core/pom.xml': core }, repository }));
    expect(findings.map((f) => `${f.file}:${f.line}`)).toEqual(['pom.xml:4']);
  });

  it('does not report a parent of the project\'s own organisation, or the ecosystem parent', () => {
    // commons-text on commons-parent; a Maven plugin taking <developers> from org.apache.maven:maven-parent.
    const commonsParent = pom(`  <groupId>org.apache.maven</groupId><artifactId>maven-parent</artifactId><version>43</version><packaging>pom</packaging>
  <url>https://maven.apache.org/</url>
  <developers><developer><id>team</id><name>The Maven team</name></developer></developers>
  <scm><url>https://github.com/apache/maven-parent</url></scm>`);
    const plugin = pom(`  <parent><groupId>org.apache.maven</groupId><artifactId>maven-parent</artifactId><version>43</version><relativePath/></parent>
  <groupId>org.apache.maven.plugins</groupId><artifactId>maven-example-plugin</artifactId><version>1.0-SNAPSHOT</version>`);
    expect(mavenForeignParent.run(buildFacts({ files: { 'pom.xml': plugin }, repository: { 'org.apache.maven:maven-parent:43': commonsParent } }))).toEqual([]);
    // cas-server-security-filter (org.apereo.cas) on the ecosystem parent jasig-parent 44.
    const jasig = pom(`  <groupId>org.jasig.parent</groupId><artifactId>jasig-parent</artifactId><version>44</version><packaging>pom</packaging>
  <url>https://www.apereo.org</url>
  <developers><developer><id>committers</id><name>Apereo committers</name><organization>Apereo</organization><organizationUrl>https://www.apereo.org</organizationUrl></developer></developers>`);
    const cas = pom(`  <parent><groupId>org.jasig.parent</groupId><artifactId>jasig-parent</artifactId><version>44</version><relativePath/></parent>
  <groupId>org.apereo.cas</groupId><artifactId>cas-server-security-filter</artifactId><version>2.0.13-SNAPSHOT</version>`);
    expect(mavenForeignParent.run(buildFacts({ files: { 'pom.xml': cas }, repository: { 'org.jasig.parent:jasig-parent:44': jasig } }))).toEqual([]);
  });

  it('stays quiet when the parent cannot be resolved', () => {
    expect(mavenForeignParent.run(buildFacts({ files: { 'pom.xml': starter() } }))).toEqual([]);
  });
});

describe('namespaceOf', () => {
  it('takes the reverse domain, one label more on code-hosting namespaces', () => {
    expect(namespaceOf('org.apache.maven.plugins')).toBe('org.apache');
    expect(namespaceOf('io.github.alice.tools')).toBe('io.github.alice');
    expect(namespaceOf('junit')).toBe('junit');
  });
});
