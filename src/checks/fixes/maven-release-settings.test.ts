import { describe, expect, it } from 'vitest';
import { completeMetadata, pom, stagingDistribution } from '../../../test/fixtures/maven/facts-builder.js';
import { parseMavenSettings } from '../../core/maven-settings.js';
import { fixProject, server, settingsFile, settingsWith, type MavenProject } from '../../../test/helpers/maven-fix-project.js';
import type { ProjectFacts } from '../facts.js';

const header = `  <groupId>org.ex</groupId><artifactId>demo</artifactId><version>1.0.0-SNAPSHOT</version>\n${completeMetadata}`;
const ciFile = '.circleci/settings.xml';
const envServer = (id: string): string => `    <server>\n      <id>${id}</id>\n      <username>\${env.SONATYPE_USERNAME}</username>\n      <password>\${env.SONATYPE_PASSWORD}</password>\n    </server>\n`;

/** The CI passes `-s .circleci/settings.xml` (as io/ci-settings finds it): an alternative settings file of the project. */
function passedByCi(text: string): (facts: ProjectFacts) => void {
  return (facts) => {
    const parsed = parseMavenSettings(text, { env: {}, home: '/home' });
    const servers = parsed.ok ? parsed.settings.servers : [];
    facts.maven!.settings.alternatives = [{ file: `/project/${ciFile}`, via: '.circleci/config.yml', found: true, parsed: true, servers }];
  };
}

describe('the <server> goes to the settings file the release reads', () => {
  it('the CI passes -s with a project file that lacks the server: it is added there, not to ~/.m2/settings.xml', () => {
    const ci = settingsWith(envServer('github'));
    const project: MavenProject = { files: { 'pom.xml': pom(`${header}\n${stagingDistribution}`), }, texts: { [ciFile]: ci }, adjust: passedByCi(ci) };
    const { plan, after } = fixProject(project);
    expect(plan.files.map((f) => f.file)).toEqual([ciFile]);
    expect(after.settings).toBeUndefined();
    expect(after.texts![ciFile]).toBe(settingsWith(`${envServer('github')}    <server>\n      <id>central</id>\n      <username>\${env.CENTRAL_TOKEN_USERNAME}</username>\n      <password>\${env.CENTRAL_TOKEN_PASSWORD}</password>\n    </server>\n`));
  });

  it('the CI file already has the server (its variables unset here): nothing to add anywhere, and the decline says which variables to set', () => {
    const ci = settingsWith(envServer('central'));
    const project: MavenProject = { files: { 'pom.xml': pom(`${header}\n${stagingDistribution}`), }, texts: { [ciFile]: ci }, settings: settingsWith(server('other')), adjust: passedByCi(ci) };
    const { plan } = fixProject(project);
    expect(plan.edits).toEqual([]);
    expect(plan.declined).toEqual([
      expect.objectContaining({
        code: 'server-id-mismatch',
        file: ciFile,
        why: `${ciFile} (the file .circleci/config.yml passes to mvn with -s, so the release reads it and not ~/.m2/settings.xml) already has a <server> "central", so there is nothing to add; relctl does not change its credentials: set SONATYPE_USERNAME and SONATYPE_PASSWORD to the portal user token where the release runs (in CI: from its secrets)`,
      }),
    ]);
  });

  it('a legacy id moves to central in the CI file the release reads, together with the POM', () => {
    const ci = settingsWith(envServer('ossrh'));
    const project: MavenProject = {
      files: { 'pom.xml': pom(`${header}\n  <distributionManagement><repository><id>ossrh</id><url>https://ossrh-staging-api.central.sonatype.com/service/local/staging/deploy/maven2/</url></repository></distributionManagement>`), }, texts: { [ciFile]: ci },
      settings: settingsWith(server('other')),
      adjust: passedByCi(ci),
    };
    const { plan, after } = fixProject(project);
    expect(plan.files.map((f) => f.file).sort()).toEqual([ciFile, 'pom.xml']);
    expect(after.texts![ciFile]).toBe(settingsWith(envServer('central')));
    expect(after.settings).toBe(settingsWith(server('other')));
    expect(plan.files.some((f) => f.file === settingsFile)).toBe(false);
  });
});

describe('a <server> for every id the fixed build deploys to', () => {
  it('the snapshot repository id gets its <server> next to the release one', () => {
    const project: MavenProject = {
      files: {
        'pom.xml': pom(`${header}
  <distributionManagement>
    <repository><id>central</id><url>https://oss.sonatype.org/service/local/staging/deploy/maven2/</url></repository>
    <snapshotRepository><id>central-snapshots</id><url>https://oss.sonatype.org/content/repositories/snapshots</url></snapshotRepository>
  </distributionManagement>`),
      },
      settings: settingsWith(server('central')),
    };
    const { plan, after } = fixProject(project);
    expect(plan.files.map((f) => f.file)).toEqual(['pom.xml', settingsFile]);
    expect(after.settings).toBe(settingsWith(`${server('central')}    <server>\n      <id>central-snapshots</id>\n      <username>\${env.CENTRAL_TOKEN_USERNAME}</username>\n      <password>\${env.CENTRAL_TOKEN_PASSWORD}</password>\n    </server>\n`));
    expect(fixProject(after).plan.edits).toEqual([]);
  });
});
