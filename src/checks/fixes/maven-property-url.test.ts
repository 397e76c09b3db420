import { describe, expect, it } from 'vitest';
import { completeMetadata, pom } from '../../../test/fixtures/maven/facts-builder.js';
import { codesOf, fixProject, server, settingsWith, type MavenProject } from '../../../test/helpers/maven-fix-project.js';

const staging = 'https://ossrh-staging-api.central.sonatype.com/service/local/staging/deploy/maven2/';
const snapshots = 'https://central.sonatype.com/repository/maven-snapshots/';
const header = (artifactId: string): string => `  <groupId>org.ex</groupId><artifactId>${artifactId}</artifactId><version>1.0.0-SNAPSHOT</version>\n${completeMetadata}`;
const distribution = `  <distributionManagement>
    <repository><id>central</id><url>\${releases.url}</url></repository>
    <snapshotRepository>
      <id>central</id>
      <url>\${snapshots.url}</url>
    </snapshotRepository>
  </distributionManagement>`;
const properties = (extra = ''): string => `  <properties>
    <releases.url>https://oss.sonatype.org/service/local/staging/deploy/maven2/</releases.url>
    <snapshots.url>https://oss.sonatype.org/content/repositories/snapshots</snapshots.url>${extra}
  </properties>`;

describe('a distribution URL written as ${property}: the property changes where it is defined', () => {
  it('in the same POM: the values in <properties> change, the ${…} uses stay', () => {
    const text = pom(`${header('demo')}\n${properties()}\n${distribution}`);
    const project: MavenProject = { files: { 'pom.xml': text }, settings: settingsWith(server('central')) };
    expect(codesOf(project)).toEqual(['legacy-staging-host']);
    const { plan, after } = fix(project);
    expect(plan.edits.map((e) => [e.file, e.line, e.before, e.after])).toEqual([
      ['pom.xml', 12, 'https://oss.sonatype.org/service/local/staging/deploy/maven2/', staging],
      ['pom.xml', 13, 'https://oss.sonatype.org/content/repositories/snapshots', snapshots],
    ]);
    expect(after.files['pom.xml']).toBe(text.replace('https://oss.sonatype.org/service/local/staging/deploy/maven2/', staging).replace('https://oss.sonatype.org/content/repositories/snapshots', snapshots));
    expect(after.files['pom.xml']).toContain('<url>${snapshots.url}</url>');
    expect(codesOf(after)).toEqual(['snapshots-need-enabling']);
    expect(fix(after).plan.edits).toEqual([]);
  });

  it('in a parent POM of the project: the parent\'s property changes, once, for every module that uses it', () => {
    const parent = pom(`${header('parent')}\n  <packaging>pom</packaging>\n  <modules><module>a</module><module>b</module></modules>\n${properties()}`);
    const child = (id: string): string => pom(`  <parent><groupId>org.ex</groupId><artifactId>parent</artifactId><version>1.0.0-SNAPSHOT</version></parent>\n  <artifactId>${id}</artifactId>\n${distribution}`);
    const project: MavenProject = { files: { 'pom.xml': parent, 'a/pom.xml': child('a'), 'b/pom.xml': child('b') }, settings: settingsWith(server('central')) };
    expect(codesOf(project)).toContain('legacy-staging-host');
    const { plan, after } = fix(project);
    // (The parent itself, deployed without a <distributionManagement>, gets one: missing-distribution.)
    expect(plan.edits.filter((e) => e.code === 'legacy-staging-host').map((e) => [e.file, e.before, e.after])).toEqual([
      ['pom.xml', 'https://oss.sonatype.org/service/local/staging/deploy/maven2/', staging],
      ['pom.xml', 'https://oss.sonatype.org/content/repositories/snapshots', snapshots],
    ]);
    expect(plan.declined.filter((d) => d.code === 'legacy-staging-host')).toEqual([]);
    expect(after.files['a/pom.xml']).toBe(project.files['a/pom.xml']);
    expect(codesOf(after)).not.toContain('legacy-staging-host');
  });

  it('a property also used for something else is declined, saying what to write in the use instead', () => {
    const text = pom(`${header('demo')}\n${properties()}\n${distribution}\n  <repositories><repository><id>snaps</id><url>\${snapshots.url}</url><releases><enabled>false</enabled></releases></repository></repositories>`);
    const { plan, after } = fix({ files: { 'pom.xml': text }, settings: settingsWith(server('central')) });
    expect(plan.edits.map((e) => [e.line, e.before])).toEqual([[12, 'https://oss.sonatype.org/service/local/staging/deploy/maven2/']]);
        const why = plan.declined.find((d) => d.line === 19)?.why;
    expect(why).toContain('the property snapshots.url (defined at pom.xml:13) is also used at pom.xml:22 (<repository><url>)');
    expect(why).toContain(`write <url>${snapshots}</url> in place of \${snapshots.url} at pom.xml:19`);
    expect(after.files['pom.xml']).toContain('<snapshots.url>https://oss.sonatype.org/content/repositories/snapshots</snapshots.url>');
  });
});

const fix = fixProject;
