import { describe, expect, it } from 'vitest';
import { buildFacts, pom, stagingDistribution } from '../../test/fixtures/maven/facts-builder.js';
import { mavenUnresolvedProperty } from './maven-unresolved-property.js';

const project = (url: string, devUrl = 'https://example.org/jane'): string => pom(`  <groupId>org.ex</groupId><artifactId>demo</artifactId><version>1</version>
  <name>n</name><description>d</description>
  <url>${url}</url>
  <properties><org>example</org></properties>
  <licenses><license><name>MIT</name><url>https://opensource.org/licenses/MIT</url></license></licenses>
  <developers><developer><name>Jane</name><url>${devUrl}</url><organization>Ex</organization><organizationUrl>https://example.org</organizationUrl></developer></developers>
  <scm><url>https://github.com/\${org}/\${project.artifactId}</url></scm>
${stagingDistribution}`);

describe('unresolved-property', () => {
  it('fires for a ${...} no property defines, at the element, naming the property', () => {
    const findings = mavenUnresolvedProperty.run(buildFacts({ files: { 'pom.xml': project('https://github.com/${github.org}/demo') } }));
    expect(findings).toMatchObject([{ code: 'unresolved-property', severity: 'error', file: 'pom.xml', line: 6 }]);
    expect(findings[0]!.message).toContain('${github.org}');
    expect(findings[0]!.fix).toContain('github.org');
  });

  it('checks developer fields too', () => {
    const findings = mavenUnresolvedProperty.run(buildFacts({ files: { 'pom.xml': project('https://example.org', 'https://github.com/${dev.handle}') } }));
    expect(findings.map((f) => f.message)).toEqual([expect.stringContaining('the developer <url>')]);
  });

  it('stays quiet for resolved properties and for model references Maven fills in itself', () => {
    expect(mavenUnresolvedProperty.run(buildFacts({ files: { 'pom.xml': project('https://github.com/${org}/demo') } }))).toEqual([]);
    expect(mavenUnresolvedProperty.run(buildFacts({ files: { 'pom.xml': project('${project.scm.url}') } }))).toEqual([]);
    // The deprecated parent.* forms Maven 3 still fills in (parent.version, parent.artifactId).
    expect(mavenUnresolvedProperty.run(buildFacts({ files: { 'pom.xml': project('https://example.org/${parent.artifactId}/${parent.url}') } }))).toEqual([]);
  });
});

describe('unresolved-property on version, name and description', () => {
  const withTop = (top: string, child = ''): Record<string, string> => ({
    'pom.xml': pom(`  <groupId>org.ex</groupId><artifactId>top</artifactId><version>\${revision}</version><packaging>pom</packaging>
  <name>\${product.title}</name>
  <description>\${project.name} for \${audience}</description>
  <url>https://example.org</url>
  <licenses><license><name>MIT</name><url>https://opensource.org/licenses/MIT</url></license></licenses>
  <developers><developer><name>Jane</name><organization>Ex</organization><organizationUrl>https://example.org</organizationUrl></developer></developers>
  <scm><url>https://example.org/git</url></scm>
${top}
  <modules><module>a</module><module>b</module></modules>
${stagingDistribution}`),
    'a/pom.xml': pom(`  <parent><groupId>org.ex</groupId><artifactId>top</artifactId><version>\${revision}</version></parent>\n  <artifactId>a</artifactId><name>a</name>${child}`),
    'b/pom.xml': pom('  <parent><groupId>org.ex</groupId><artifactId>top</artifactId><version>${revision}</version></parent>\n  <artifactId>b</artifactId><name>b</name>'),
  });

  it('reports an undefined ${revision} once for the reactor, and undefined properties in <name> and <description>', () => {
    const findings = mavenUnresolvedProperty.run(buildFacts({ files: withTop('') }));
    const byWhat = findings.map((f) => `${f.line}:${f.message.split(' of ')[0]}`);
    expect(byWhat).toEqual(['5:<name>', '6:<description>', '4:The <version>']);
    expect(findings[2]!.message).toContain('(and 2 other modules)');
    expect(findings[2]!.message).toContain('${revision}');
  });

  it('stays quiet when the properties are defined, or when flatten-maven-plugin writes the published version', () => {
    const props = '  <properties><revision>1.0.0-SNAPSHOT</revision><product.title>Ex</product.title><audience>all</audience></properties>';
    expect(mavenUnresolvedProperty.run(buildFacts({ files: withTop(props) }))).toEqual([]);
    const flatten = '  <properties><product.title>Ex</product.title><audience>all</audience></properties>\n  <build><plugins><plugin><groupId>org.codehaus.mojo</groupId><artifactId>flatten-maven-plugin</artifactId><version>1.6.0</version></plugin></plugins></build>';
    expect(mavenUnresolvedProperty.run(buildFacts({ files: withTop(flatten) }))).toEqual([]);
  });
});
