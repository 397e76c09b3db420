import { describe, expect, it } from 'vitest';
import { buildFacts, completeMetadata, pom, stagingDistribution } from '../../test/fixtures/maven/facts-builder.js';
import { mavenPublishedRepositories } from './maven-published-repositories.js';

// jackson-databind's shape: a snapshot repository on the retired host, kept to read a parent's
// snapshots; and a portlet's shape: a vendor repository for one dependency.
const jacksonLike = `  <repositories>
    <repository>
      <id>sonatype-nexus-snapshots</id>
      <url>https://oss.sonatype.org/content/repositories/snapshots</url>
      <releases><enabled>false</enabled></releases>
      <snapshots><enabled>true</enabled></snapshots>
    </repository>
  </repositories>`;
const vendorRepo = `  <repositories>
    <repository><id>mulesoft</id><name>Mulesoft Repository</name><url>https://repository.mulesoft.org/nexus/content/repositories/public/</url></repository>
  </repositories>
  <pluginRepositories>
    <pluginRepository><id>central</id><url>https://repo.maven.apache.org/maven2</url></pluginRepository>
  </pluginRepositories>`;
const project = (extra: string, more = ''): string =>
  pom(`  <groupId>org.example.json</groupId><artifactId>json-databind</artifactId><version>2.18.0-SNAPSHOT</version>
${completeMetadata}
${stagingDistribution}
${extra}
${more}`);

describe('published-repositories', () => {
  it('names the host of a repository left in a published POM (Central itself declared again is not reported)', () => {
    const findings = mavenPublishedRepositories.run(buildFacts({ files: { 'pom.xml': project(vendorRepo) } }));
    expect(findings).toMatchObject([{ code: 'published-repositories', severity: 'warning', file: 'pom.xml', line: 15, module: 'org.example.json:json-databind' }]);
    expect(findings[0]!.message).toContain('repository.mulesoft.org');
  });

  it('reports a retired OSSRH host there as a legacy-staging-host warning (not an error: it does not route the upload)', () => {
    const findings = mavenPublishedRepositories.run(buildFacts({ files: { 'pom.xml': project(jacksonLike) } }));
    expect(findings).toMatchObject([{ code: 'legacy-staging-host', severity: 'warning', file: 'pom.xml', line: 15 }]);
    expect(findings[0]!.message).toContain('oss.sonatype.org');
    expect(findings[0]!.message).toContain('SNAPSHOT dependencies');
  });

  it('reports a profile active by default (consumers see it) but not one switched on with -P', () => {
    const profiles = (activation: string): string => `  <profiles><profile><id>snapshots</id>${activation}
    <repositories><repository><id>jboss</id><url>https://repository.jboss.org/nexus/content/groups/public/</url></repository></repositories>
  </profile></profiles>`;
    expect(mavenPublishedRepositories.run(buildFacts({ files: { 'pom.xml': project('', profiles('')) } }))).toEqual([]);
    const byDefault = mavenPublishedRepositories.run(buildFacts({ files: { 'pom.xml': project('', profiles('<activation><activeByDefault>true</activeByDefault></activation>')) } }));
    expect(byDefault).toMatchObject([{ code: 'published-repositories', line: 16 }]);
    expect(byDefault[0]!.message).toContain('profile snapshots');
  });

  it('does not report a module that is never published (deploy skipped), nor its parent\'s repositories a second time', () => {
    const parent = project(vendorRepo).replace('<artifactId>json-databind</artifactId>', '<artifactId>json-parent</artifactId><packaging>pom</packaging><modules><module>bench</module></modules>');
    const bench = pom(`  <parent><groupId>org.example.json</groupId><artifactId>json-parent</artifactId><version>2.18.0-SNAPSHOT</version></parent>
  <artifactId>json-bench</artifactId>
  <repositories><repository><id>jitpack</id><url>https://jitpack.io</url></repository></repositories>
  <build><plugins><plugin><artifactId>maven-deploy-plugin</artifactId><version>3.1.2</version><configuration><skip>true</skip></configuration></plugin></plugins></build>`);
    const findings = mavenPublishedRepositories.run(buildFacts({ files: { 'pom.xml': parent, 'bench/pom.xml': bench } }));
    expect(findings.map((f) => `${f.file}:${f.line}`)).toEqual(['pom.xml:15']);
  });

  it('stays quiet past an unresolved parent, where the route is unknown (a Jenkins plugin needs repo.jenkins-ci.org), except for a retired host', () => {
    const jenkins = pom(`  <parent><groupId>org.jenkins-ci.plugins</groupId><artifactId>plugin</artifactId><version>4.88</version><relativePath/></parent>
  <groupId>io.jenkins.plugins</groupId><artifactId>example-notifier</artifactId><version>1.0-SNAPSHOT</version><packaging>hpi</packaging>
  <repositories>
    <repository><id>repo.jenkins-ci.org</id><url>https://repo.jenkins-ci.org/public/</url></repository>
    <repository><id>sonatype-nexus-snapshots</id><url>https://oss.sonatype.org/content/repositories/snapshots</url></repository>
  </repositories>`);
    expect(mavenPublishedRepositories.run(buildFacts({ files: { 'pom.xml': jenkins } })).map((f) => f.code)).toEqual(['legacy-staging-host']);
  });
});
