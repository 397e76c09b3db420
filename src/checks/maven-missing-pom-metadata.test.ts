import { describe, expect, it } from 'vitest';
import { buildFacts, completeMetadata, pom } from '../../test/fixtures/maven/facts-builder.js';
import { mavenMissingPomMetadata } from './maven-missing-pom-metadata.js';

const top = (metadata: string): string => pom(`  <groupId>org.ex</groupId>
  <artifactId>top</artifactId><version>1</version><packaging>pom</packaging>
${metadata}
  <modules><module>a</module></modules>`);
const a = (name: string): string => pom(`  <parent><groupId>org.ex</groupId><artifactId>top</artifactId><version>1</version></parent>
  <artifactId>a</artifactId>${name}`);

describe('missing-pom-metadata', () => {
  it('passes when everything is declared or inherited (name per module)', () => {
    expect(mavenMissingPomMetadata.run(buildFacts({ files: { 'pom.xml': top(completeMetadata), 'a/pom.xml': a('<name>A</name>') } }))).toEqual([]);
  });

  it('reports inherited gaps once at the top and a missing name on the module itself', () => {
    const findings = mavenMissingPomMetadata.run(buildFacts({ files: { 'pom.xml': top('  <name>Top</name>'), 'a/pom.xml': a('') } }));
    expect(findings.map((f) => [f.file, f.line, f.message.split(' (')[0]])).toEqual([
      ['pom.xml', 5, 'org.ex:top lacks <description>, <url>, <licenses>, <scm><url>'],
      ['a/pom.xml', 5, 'org.ex:a lacks <name>'],
    ]);
  });

  it('counts an empty <licenses> as missing', () => {
    const meta = completeMetadata.replace('<licenses><license><name>Apache-2.0</name></license></licenses>', '<licenses/>');
    const findings = mavenMissingPomMetadata.run(buildFacts({ files: { 'pom.xml': top(meta), 'a/pom.xml': a('<name>A</name>') } }));
    expect(findings[0]?.message).toContain('<licenses>');
  });
});

describe('blank after interpolation', () => {
  it('counts a <description> whose property is empty as missing', () => {
    const text = top(completeMetadata.replace('<description>Demo component</description>', '<description>${summary}</description>') + '\n  <properties><summary> </summary></properties>');
    const findings = mavenMissingPomMetadata.run(buildFacts({ files: { 'pom.xml': text, 'a/pom.xml': a('<name>A</name>') } }));
    expect(findings).toMatchObject([{ file: 'pom.xml', message: expect.stringContaining('lacks <description>') }]);
  });
});

describe('relocation POMs and BOMs', () => {
  // Shaped like mysql-connector-java 8.0.33 (and jackson's relocated modules): a module kept only
  // to point users at new coordinates, with no metadata of its own.
  const relocation = pom(`  <groupId>mysql</groupId><artifactId>mysql-connector-java</artifactId><version>8.0.33</version><packaging>pom</packaging>
  <distributionManagement>
    <relocation><groupId>com.mysql</groupId><artifactId>mysql-connector-j</artifactId><message>Moved to com.mysql:mysql-connector-j</message></relocation>
  </distributionManagement>`);

  it('skips the metadata rules for a relocation POM', async () => {
    const { mavenMissingDevelopers } = await import('./maven-missing-developers.js');
    const facts = buildFacts({ files: { 'pom.xml': relocation } });
    expect(mavenMissingPomMetadata.run(facts)).toEqual([]);
    expect(mavenMissingDevelopers.run(facts)).toEqual([]);
  });

  it('still holds a POM that is not a relocation to them (the same POM without <relocation>)', () => {
    const plain = relocation.replace(/<relocation>.*<\/relocation>/, '');
    expect(mavenMissingPomMetadata.run(buildFacts({ files: { 'pom.xml': plain } }))).toMatchObject([{ code: 'missing-pom-metadata' }]);
  });

  it('holds a BOM module (pom packaging, only dependencyManagement) to the metadata rules, not to the packaging ones', async () => {
    const { mavenPackagingMismatch } = await import('./maven-packaging-mismatch.js');
    const bom = pom(`  <parent><groupId>org.ex</groupId><artifactId>top</artifactId><version>1</version></parent>
  <artifactId>ex-bom</artifactId><packaging>pom</packaging><name>Ex BOM</name>
  <dependencyManagement><dependencies>
    <dependency><groupId>org.ex</groupId><artifactId>a</artifactId><version>\${project.version}</version></dependency>
  </dependencies></dependencyManagement>`);
    // The BOM's parent is not published, so the BOM reports its own gaps (as guava-bom on oss-parent).
    const parent = top('  <name>Top</name>').replace('<modules><module>a</module></modules>', '<modules><module>bom</module></modules>\n  <properties><maven.deploy.skip>true</maven.deploy.skip></properties>');
    const bomOnly = bom.replace('<name>Ex BOM</name>', '<name>Ex BOM</name><properties><maven.deploy.skip>false</maven.deploy.skip></properties>');
    const facts = buildFacts({ files: { 'pom.xml': parent, 'bom/pom.xml': bomOnly }, webapp: ['bom'] });
    expect(mavenMissingPomMetadata.run(facts)).toMatchObject([{ file: 'bom/pom.xml', message: expect.stringContaining('<description>, <url>, <licenses>, <scm><url>') }]);
    expect(mavenPackagingMismatch.run(facts)).toEqual([]);
  });
});
