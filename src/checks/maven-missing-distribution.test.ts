import { describe, expect, it } from 'vitest';
import { buildFacts, completeMetadata, pom, stagingDistribution } from '../../test/fixtures/maven/facts-builder.js';
import { mavenMissingDistribution } from './maven-missing-distribution.js';

const top = (dm: string): string => pom(`  <groupId>org.ex</groupId>
  <artifactId>top</artifactId><version>1</version><packaging>pom</packaging>
${completeMetadata}
${dm}
  <modules><module>a</module></modules>`);
const a = pom('  <parent><groupId>org.ex</groupId><artifactId>top</artifactId><version>1</version></parent>\n  <artifactId>a</artifactId>');

describe('missing-distribution', () => {
  it('fires once, on the top-level artifactId line, when no POM declares a release repository', () => {
    const findings = mavenMissingDistribution.run(buildFacts({ files: { 'pom.xml': top(''), 'a/pom.xml': a } }));
    expect(findings).toMatchObject([{ code: 'missing-distribution', file: 'pom.xml', line: 5, module: 'org.ex:top' }]);
  });

  it('does not fire when the release repository is inherited', () => {
    expect(mavenMissingDistribution.run(buildFacts({ files: { 'pom.xml': top(stagingDistribution), 'a/pom.xml': a } }))).toEqual([]);
  });
});
