import { describe, expect, it } from 'vitest';
import { buildFacts, pom } from '../../test/fixtures/maven/facts-builder.js';
import { mavenPackagingMismatch } from './maven-packaging-mismatch.js';

const module = (packaging: string): string => pom(`  <groupId>org.ex</groupId>
  <artifactId>web</artifactId><version>1</version>
${packaging}`);

describe('packaging-mismatch', () => {
  it('fires for web content packaged as jar, at the <packaging> line', () => {
    const findings = mavenPackagingMismatch.run(buildFacts({ files: { 'web/pom.xml': module('  <packaging>jar</packaging>') }, webapp: ['web'] }));
    expect(findings).toMatchObject([{ code: 'packaging-mismatch', file: 'web/pom.xml', line: 6, module: 'org.ex:web' }]);
  });

  it('fires for web content with the default packaging, at the artifactId line', () => {
    const findings = mavenPackagingMismatch.run(buildFacts({ files: { 'web/pom.xml': module('') }, webapp: ['web'] }));
    expect(findings).toMatchObject([{ line: 5 }]);
    expect(findings[0]?.message).toContain('(the default)');
  });

  it('fires for a war without web content', () => {
    expect(mavenPackagingMismatch.run(buildFacts({ files: { 'web/pom.xml': module('  <packaging>war</packaging>') } }))).toHaveLength(1);
  });

  it('stays quiet for a war with web content and a jar without', () => {
    expect(mavenPackagingMismatch.run(buildFacts({ files: { 'web/pom.xml': module('  <packaging>war</packaging>') }, webapp: ['web'] }))).toEqual([]);
    expect(mavenPackagingMismatch.run(buildFacts({ files: { 'web/pom.xml': module('') } }))).toEqual([]);
  });
});

describe('packaging-mismatch: web content declared elsewhere (issue 9)', () => {
  it('stays quiet for a war whose build says where its web content is, or that it needs none', () => {
    const noWebXml = module(`  <packaging>war</packaging>
  <properties><failOnMissingWebXml>false</failOnMissingWebXml></properties>`);
    expect(mavenPackagingMismatch.run(buildFacts({ files: { 'web/pom.xml': noWebXml } }))).toEqual([]);
    const elsewhere = module(`  <packaging>war</packaging>
  <build><plugins><plugin><artifactId>maven-war-plugin</artifactId><configuration><warSourceDirectory>web</warSourceDirectory></configuration></plugin></plugins></build>`);
    expect(mavenPackagingMismatch.run(buildFacts({ files: { 'web/pom.xml': elsewhere } }))).toEqual([]);
  });

  it('never calls a pom aggregator with a webapp folder a web module', () => {
    const aggregator = module('  <packaging>pom</packaging>');
    expect(mavenPackagingMismatch.run(buildFacts({ files: { 'web/pom.xml': aggregator }, webapp: ['web'] }))).toEqual([]);
  });

  it('leaves web content alone in archives of their own (a Jenkins plugin hpi holds help pages there)', () => {
    for (const packaging of ['hpi', 'jpi', 'ear']) {
      expect(mavenPackagingMismatch.run(buildFacts({ files: { 'web/pom.xml': module(`  <packaging>${packaging}</packaging>`) }, webapp: ['web'] }))).toEqual([]);
    }
    expect(mavenPackagingMismatch.run(buildFacts({ files: { 'web/pom.xml': module('  <packaging>bundle</packaging>') }, webapp: ['web'] }))).toHaveLength(1);
  });

  it('does not judge a war without web content past an unresolved parent (the parent may configure it)', () => {
    const boot = pom(`  <parent><groupId>org.springframework.boot</groupId><artifactId>spring-boot-starter-parent</artifactId><version>3.3.0</version><relativePath/></parent>
  <groupId>org.ex</groupId><artifactId>web</artifactId><version>1</version>
  <packaging>war</packaging>`);
    expect(mavenPackagingMismatch.run(buildFacts({ files: { 'web/pom.xml': boot } }))).toEqual([]);
  });
});
