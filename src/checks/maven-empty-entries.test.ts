import { describe, expect, it } from 'vitest';
import { buildFacts, pom, stagingDistribution } from '../../test/fixtures/maven/facts-builder.js';
import { mavenDevelopersIncomplete } from './maven-developers-incomplete.js';
import { mavenEmptyEntries } from './maven-empty-entries.js';
import { mavenMissingPomMetadata } from './maven-missing-pom-metadata.js';

// Shaped like the POMs of small libraries generated from an archetype and never filled in: the
// <developer> keeps only an e-mail, a <license> block is left with blank values.
const library = (developers: string, licenses: string): string =>
  pom(`  <groupId>io.github.acme</groupId><artifactId>acme-utils</artifactId><version>1.2.0-SNAPSHOT</version>
  <name>acme-utils</name>
  <description>Small utilities.</description>
  <url>https://github.com/acme/acme-utils</url>
  <licenses>
${licenses}
  </licenses>
  <developers>
${developers}
  </developers>
  <scm><url>https://github.com/acme/acme-utils</url></scm>
${stagingDistribution}`);

const fullDev = '    <developer><id>jdoe</id><name>Jane Doe</name><organization>Acme</organization><organizationUrl>https://acme.example</organizationUrl></developer>';
const apache = '    <license><name>Apache-2.0</name><url>https://www.apache.org/licenses/LICENSE-2.0.txt</url></license>';

describe('developer-empty and license-empty', () => {
  it('reports a developer with only an e-mail and a whitespace-only license, each at its own line', () => {
    const text = library(`${fullDev}\n    <developer>\n      <email>dev@acme.example</email>\n    </developer>`, '    <license>\n      <name>   </name>\n      <url>\n      </url>\n    </license>');
    const findings = mavenEmptyEntries.run(buildFacts({ files: { 'pom.xml': text } }));
    expect(findings).toMatchObject([
      { code: 'developer-empty', severity: 'error', file: 'pom.xml', line: 17, module: 'io.github.acme:acme-utils' },
      { code: 'license-empty', severity: 'error', file: 'pom.xml', line: 9 },
    ]);
    expect(findings[0]!.message).toContain('2nd <developer>');
    expect(findings[0]!.message).toContain('dev@acme.example');
    // The empty developer is this error, not also a developers-incomplete warning at the same line.
    expect(mavenDevelopersIncomplete.run(buildFacts({ files: { 'pom.xml': text } }))).toEqual([]);
  });

  it('does not report a developer known by name alone or a license with only a url (PomChecker accepts both)', () => {
    const text = library('    <developer><name>Jane Doe</name></developer>\n    <developer><id>bob</id></developer>', '    <license><url>https://opensource.org/licenses/MIT</url></license>');
    expect(mavenEmptyEntries.run(buildFacts({ files: { 'pom.xml': text } }))).toEqual([]);
  });

  it('reports once, on the parent that declares them, not again for each module inheriting them', () => {
    const parent = library('    <developer><email>x@acme.example</email></developer>', apache).replace('<artifactId>acme-utils</artifactId>', '<artifactId>acme-parent</artifactId><packaging>pom</packaging><modules><module>core</module></modules>');
    const core = pom('  <parent><groupId>io.github.acme</groupId><artifactId>acme-parent</artifactId><version>1.2.0-SNAPSHOT</version></parent>\n  <artifactId>acme-core</artifactId><name>core</name>');
    const findings = mavenEmptyEntries.run(buildFacts({ files: { 'pom.xml': parent, 'core/pom.xml': core } }));
    expect(findings).toMatchObject([{ code: 'developer-empty', file: 'pom.xml', line: 12 }]);
  });
  it('still reports a module\'s own empty developer past an unresolved parent (the nearest <developers> is final)', () => {
    const text = library('    <developer><email>x@acme.example</email></developer>', apache).replace('<groupId>io.github.acme</groupId>', '<parent><groupId>org.example</groupId><artifactId>gone</artifactId><version>1</version><relativePath/></parent>\n  <groupId>io.github.acme</groupId>');
    expect(mavenEmptyEntries.run(buildFacts({ files: { 'pom.xml': text } })).map((f) => f.code)).toEqual(['developer-empty']);
  });
});

describe('whitespace-only values count as missing', () => {
  it('reports a <description> of blanks as missing metadata', () => {
    const text = library(fullDev, apache).replace('<description>Small utilities.</description>', '<description>\n    </description>');
    const findings = mavenMissingPomMetadata.run(buildFacts({ files: { 'pom.xml': text } }));
    expect(findings).toMatchObject([{ code: 'missing-pom-metadata' }]);
    expect(findings[0]!.message).toContain('<description>');
  });
});
