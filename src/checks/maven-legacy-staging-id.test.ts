import { describe, expect, it } from 'vitest';
import { buildFacts, completeMetadata, pom, stagingDistribution } from '../../test/fixtures/maven/facts-builder.js';
import { mavenLegacyStagingId } from './maven-legacy-staging-id.js';

const project = (dm: string): string => pom(`  <groupId>org.ex</groupId><artifactId>demo</artifactId><version>1</version>
${completeMetadata}
${dm}`);

describe('legacy-staging-id', () => {
  it.each(['ossrh', 'sonatype-nexus-staging'])('warns about the legacy id %s at its <id> line', (id) => {
    const dm = `  <distributionManagement>\n    <repository><id>${id}</id><url>https://x/service/local/</url></repository>\n  </distributionManagement>`;
    const findings = mavenLegacyStagingId.run(buildFacts({ files: { 'pom.xml': project(dm) } }));
    expect(findings).toMatchObject([{ code: 'legacy-staging-id', severity: 'warning', file: 'pom.xml', line: 12 }]);
  });

  it('stays quiet for the id central', () => {
    expect(mavenLegacyStagingId.run(buildFacts({ files: { 'pom.xml': project(stagingDistribution) } }))).toEqual([]);
  });
});
