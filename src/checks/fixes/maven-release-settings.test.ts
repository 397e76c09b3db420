import { describe, expect, it } from 'vitest';
import { completeMetadata, pom, stagingDistribution } from '../../../test/fixtures/maven/facts-builder.js';
import { parseMavenSettings } from '../../core/maven-settings.js';
import { fixProject, server, settingsFile, settingsWith, type MavenProject } from '../../../test/helpers/maven-fix-project.js';
import type { ProjectFacts } from '../facts.js';

const header = `  <groupId>org.ex</groupId><artifactId>demo</artifactId><version>1.0.0-SNAPSHOT</version>\n${completeMetadata}`;
const ciFile = '.circleci/settings.xml';
const envServer = (id: string): string => `    <server>\n      <id>${id}</id>\n      <username>\${env.SONATYPE_USERNAME}</username>\n      <password>\${env.SONATYPE_PASSWORD}</password>\n    </server>\n`;

/**
 * The CI passes `-s .circleci/settings.xml` (as build-tools/maven/ci-settings.ts finds it): an
 * alternative settings file of the project; `snapshots` says its scripts only deploy what they
 * check out, setting `exports`.
 */
function passedByCi(text: string, snapshots?: { exports: string[] }): (facts: ProjectFacts) => void {
  return (facts) => {
    const parsed = parseMavenSettings(text, { env: {}, home: '/home' });
    const servers = parsed.ok ? parsed.settings.servers : [];
    const ci = snapshots === undefined ? {} : { deploysAsCheckedOut: true, exports: snapshots.exports };
    facts.maven!.settings.alternatives = [{ file: `/project/${ciFile}`, via: '.circleci/config.yml', found: true, parsed: true, servers, ...ci }];
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

describe('a CI that deploys only snapshots (inspektr, person-directory): the release reads ~/.m2/settings.xml', () => {
  const releases = `  <distributionManagement>
    <repository><id>central</id><url>https://ossrh-staging-api.central.sonatype.com/service/local/staging/deploy/maven2/</url></repository>
    <snapshotRepository><id>central-snapshots</id><url>https://oss.sonatype.org/content/repositories/snapshots</url></snapshotRepository>
  </distributionManagement>`;
  const sonatype = (id: string): string => `    <server>\n      <id>${id}</id>\n      <username>\${env.SONATYPE_USER}</username>\n      <password>\${env.SONATYPE_PWD}</password>\n    </server>\n`;

  it("the release id's server goes to ~/.m2/settings.xml; the snapshot id's to the CI file, with the variables its workflow sets", () => {
    const ci = settingsWith(sonatype('sonatype-nexus-snapshots'));
    const project: MavenProject = { files: { 'pom.xml': pom(`${header}\n${releases}`) }, texts: { [ciFile]: ci }, adjust: passedByCi(ci, { exports: ['SONATYPE_USER', 'SONATYPE_PWD', 'TERM'] }) };
    const { plan, after } = fixProject(project);
    expect(plan.files.map((f) => f.file).sort()).toEqual([ciFile, settingsFile, 'pom.xml'].sort());
    expect(after.settings).toContain('<id>central</id>\n      <username>${env.CENTRAL_TOKEN_USERNAME}</username>');
    expect(after.settings).not.toContain('central-snapshots');
    expect(after.texts![ciFile]).toBe(settingsWith(`${sonatype('sonatype-nexus-snapshots')}${sonatype('central-snapshots')}`));
  });

  it('names chosen with --token-username-env/--token-password-env win; a workflow that sets none of a server\'s variables gives nothing to reuse', () => {
    const ci = settingsWith(sonatype('sonatype-nexus-snapshots'));
    const chosen = fixProject({ files: { 'pom.xml': pom(`${header}\n${releases}`) }, texts: { [ciFile]: ci }, adjust: passedByCi(ci, { exports: ['SONATYPE_USER', 'SONATYPE_PWD'] }), options: { variablesChosen: true } });
    expect(chosen.after.texts![ciFile]).toContain('<id>central-snapshots</id>\n      <username>${env.CENTRAL_TOKEN_USERNAME}</username>');
    const unset = fixProject({ files: { 'pom.xml': pom(`${header}\n${releases}`) }, texts: { [ciFile]: ci }, adjust: passedByCi(ci, { exports: ['SONATYPE_USER'] }) });
    expect(unset.after.texts![ciFile]).toContain('<id>central-snapshots</id>\n      <username>${env.CENTRAL_TOKEN_USERNAME}</username>');
  });

  it('a release version, or no snapshot repository to deploy to: the CI file is where the release reads, as before', () => {
    const ci = settingsWith(sonatype('sonatype-nexus-snapshots'));
    const released = header.replace('1.0.0-SNAPSHOT', '1.0.0');
    const a = fixProject({ files: { 'pom.xml': pom(`${released}\n${stagingDistribution}`) }, texts: { [ciFile]: ci }, adjust: passedByCi(ci, { exports: [] }) });
    expect(a.plan.files.map((f) => f.file)).toEqual([ciFile]);
    const b = fixProject({ files: { 'pom.xml': pom(`${header}\n${stagingDistribution}`) }, texts: { [ciFile]: ci }, adjust: passedByCi(ci, { exports: [] }) });
    expect(b.plan.files.map((f) => f.file)).toEqual([ciFile]);
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
