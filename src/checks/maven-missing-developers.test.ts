import { describe, expect, it } from 'vitest';
import { buildFacts, pom, stagingDistribution } from '../../test/fixtures/maven/facts-builder.js';
import { mavenMissingDevelopers } from './maven-missing-developers.js';

const eco = (version: string, devs: string): string =>
  pom(`  <groupId>org.eco</groupId><artifactId>eco-parent</artifactId><version>${version}</version>${devs}`);
const eco44 = eco('44', '<developers><developer><name>C</name><organization>O</organization><organizationUrl>https://o</organizationUrl></developer></developers>');
const eco43 = eco('43', '');
const top = (parentVersion: string): string => pom(`  <parent><groupId>org.eco</groupId><artifactId>eco-parent</artifactId><version>${parentVersion}</version></parent>
  <groupId>org.ex</groupId>
  <artifactId>top</artifactId><version>1</version><packaging>pom</packaging>
${stagingDistribution}
  <modules><module>a</module></modules>`);
const a = pom('  <parent><groupId>org.ex</groupId><artifactId>top</artifactId><version>1</version></parent>\n  <artifactId>a</artifactId>');
const repository = { 'org.eco:eco-parent:44': eco44, 'org.eco:eco-parent:43': eco43 };

describe('missing-developers', () => {
  it('does not fire when developers come from the ecosystem parent 44', () => {
    expect(mavenMissingDevelopers.run(buildFacts({ files: { 'pom.xml': top('44'), 'a/pom.xml': a }, repository }))).toEqual([]);
  });

  it('fires once on the top-level POM with the older parent 43 (modules inherit the gap)', () => {
    const findings = mavenMissingDevelopers.run(buildFacts({ files: { 'pom.xml': top('43'), 'a/pom.xml': a }, repository }));
    expect(findings).toMatchObject([{ code: 'missing-developers', severity: 'error', file: 'pom.xml', line: 6, module: 'org.ex:top' }]);
    expect(findings[0]?.message).toContain('org.eco:eco-parent:43');
    // Advice for any project: no other ecosystem's parent version is named.
    expect(findings[0]?.fix).toBe('Declare <developers><developer> with <organization> and <organizationUrl> in pom.xml, or in a parent POM of yours that it inherits from.');
    expect(findings[0]?.fix).not.toMatch(/ecosystem parent|44/);
  });
});
