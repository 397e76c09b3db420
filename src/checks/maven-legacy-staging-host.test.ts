import { describe, expect, it } from 'vitest';
import { buildFacts, completeMetadata, pom, stagingDistribution } from '../../test/fixtures/maven/facts-builder.js';
import { mavenLegacyStagingHost } from './maven-legacy-staging-host.js';

const legacyParent = pom(`  <groupId>org.legacy</groupId><artifactId>lp</artifactId><version>7</version>
  <distributionManagement>
    <repository><id>ossrh</id><url>https://oss.sonatype.org/service/local/staging/deploy/maven2/</url></repository>
    <snapshotRepository><id>ossrh</id><url>https://s01.oss.sonatype.org/content/repositories/snapshots</url></snapshotRepository>
  </distributionManagement>`);
const child = (dm: string): string =>
  pom(`  <parent><groupId>org.legacy</groupId><artifactId>lp</artifactId><version>7</version></parent>
  <groupId>org.ex</groupId><artifactId>demo</artifactId><version>1.0.0-SNAPSHOT</version>
${completeMetadata}
${dm}`);

describe('legacy-staging-host', () => {
  it('fires for a retired host inherited from a parent outside the project, at the <parent> line', () => {
    const findings = mavenLegacyStagingHost.run(buildFacts({ files: { 'pom.xml': child('') }, repository: { 'org.legacy:lp:7': legacyParent } }));
    // Release and snapshot URL are both inherited through the same <parent>: one finding there.
    expect(findings.map((f) => [f.code, f.file, f.line, f.module])).toEqual([['legacy-staging-host', 'pom.xml', 4, 'org.ex:demo']]);
    expect(findings[0]?.message).toContain('oss.sonatype.org');
    expect(findings[0]?.fix).toContain('https://ossrh-staging-api.central.sonatype.com/service/local/staging/deploy/maven2/');
  });

  it('does not fire when the top-level distributionManagement shadows the parent (snapshot repository included)', () => {
    const facts = buildFacts({ files: { 'pom.xml': child(stagingDistribution) }, repository: { 'org.legacy:lp:7': legacyParent } });
    expect(mavenLegacyStagingHost.run(facts)).toEqual([]);
  });

  it('reports a host declared in the project at its <url> line, once for all modules', () => {
    const top = pom(`  <groupId>org.ex</groupId><artifactId>top</artifactId><version>1</version><packaging>pom</packaging>
  <distributionManagement>
    <repository><id>central</id>
      <url>https://s01.oss.sonatype.org/service/local/staging/deploy/maven2/</url></repository>
  </distributionManagement>
  <modules><module>a</module></modules>`);
    const a = pom('  <parent><groupId>org.ex</groupId><artifactId>top</artifactId><version>1</version></parent><artifactId>a</artifactId>');
    const findings = mavenLegacyStagingHost.run(buildFacts({ files: { 'pom.xml': top, 'a/pom.xml': a } }));
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ file: 'pom.xml', line: 7, module: 'org.ex:top', severity: 'error' });
  });
});
