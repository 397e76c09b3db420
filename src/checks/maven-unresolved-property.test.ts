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
