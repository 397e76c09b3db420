import { describe, expect, it } from 'vitest';
import { buildFacts, completeMetadata, pom } from '../../test/fixtures/maven/facts-builder.js';
import { mavenDistributionUrl } from './maven-distribution-url.js';
import { pointsAtStagingService } from './publishing-hosts.js';

const project = (url: string): string => pom(`  <groupId>org.ex</groupId><artifactId>demo</artifactId><version>1</version>
  <properties><port>8081</port></properties>
${completeMetadata}
  <distributionManagement>
    <repository><id>central</id>
      <url>${url}</url>
    </repository>
  </distributionManagement>`);

describe('distribution-url', () => {
  it('accepts the deploy path and other /service/local/ paths of the configured service, with a path prefix too', () => {
    expect(pointsAtStagingService('https://ossrh-staging-api.central.sonatype.com/service/local/staging/deploy/maven2/', 'https://ossrh-staging-api.central.sonatype.com')).toBe(true);
    expect(pointsAtStagingService('http://127.0.0.1:8081/staging/service/local/', 'http://127.0.0.1:8081/staging')).toBe(true);
    expect(pointsAtStagingService('HTTP://127.0.0.1:8081/staging/service/local', 'http://127.0.0.1:8081/staging')).toBe(true);
    expect(pointsAtStagingService('http://127.0.0.1:8081/other/service/local/', 'http://127.0.0.1:8081/staging')).toBe(false);
    expect(pointsAtStagingService('http://127.0.0.1:8081/staging/service/localx', 'http://127.0.0.1:8081/staging')).toBe(false);
  });

  it('fires for a URL elsewhere, at the <url> line, and says what it should be', () => {
    const findings = mavenDistributionUrl.run(buildFacts({ files: { 'pom.xml': project('https://nexus.example.com/deploy/') } }));
    expect(findings).toMatchObject([{ code: 'distribution-url', severity: 'error', file: 'pom.xml', line: 14 }]);
    expect(findings[0]?.fix).toContain('https://ossrh-staging-api.central.sonatype.com/service/local/staging/deploy/maven2/');
  });

  it('interpolates properties before comparing', () => {
    const facts = buildFacts({ files: { 'pom.xml': project('http://127.0.0.1:${port}/service/local/staging/deploy/maven2/') }, stagingApiUrl: 'http://127.0.0.1:8081' });
    expect(mavenDistributionUrl.run(facts)).toEqual([]);
  });

  it('leaves a retired host to legacy-staging-host', () => {
    expect(mavenDistributionUrl.run(buildFacts({ files: { 'pom.xml': project('https://oss.sonatype.org/x') } }))).toEqual([]);
  });
});
