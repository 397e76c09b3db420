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
