import { describe, expect, it } from 'vitest';
import { buildFacts, completeMetadata, pom, stagingDistribution } from '../../test/fixtures/maven/facts-builder.js';
import { mavenDevelopersIncomplete } from './maven-developers-incomplete.js';

const project = (devs: string): string => pom(`  <groupId>org.ex</groupId><artifactId>demo</artifactId><version>1</version>
  <name>n</name>
${stagingDistribution}
  <developers>
${devs}
  </developers>`);

describe('developers-incomplete', () => {
  it('warns for each developer lacking organization or organizationUrl, at the developer line', () => {
    const devs = '    <developer><name>Ada</name><organization>Ex</organization></developer>\n    <developer><id>bob</id></developer>';
    const findings = mavenDevelopersIncomplete.run(buildFacts({ files: { 'pom.xml': project(devs) } }));
    expect(findings.map((f) => [f.severity, f.line])).toEqual([['warning', 10], ['warning', 11]]);
    expect(findings[0]?.message).toContain('<organizationUrl>');
    expect(findings[1]?.message).toContain('<organization> and <organizationUrl>');
  });

  it('sums up a long list of incomplete developers in one finding at the first one', () => {
    const devs = Array.from({ length: 50 }, (_, i) => `    <developer><name>d${i}</name></developer>`).join('\n');
    const findings = mavenDevelopersIncomplete.run(buildFacts({ files: { 'pom.xml': project(devs) } }));
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ line: 10, message: expect.stringContaining('50 developers') });
  });

  it('stays quiet for complete developers', () => {
    expect(mavenDevelopersIncomplete.run(buildFacts({ files: { 'pom.xml': pom(`  <groupId>g</groupId><artifactId>a</artifactId>\n${completeMetadata}`) } }))).toEqual([]);
  });
});
