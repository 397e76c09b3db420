import { describe, expect, it } from 'vitest';
import { buildFacts, completeMetadata, pom, stagingDistribution } from '../../../test/fixtures/maven/facts-builder.js';
import { applyEdits } from '../../core/fix/apply.js';
import { parseMavenSettings } from '../../core/maven-settings.js';
import { checks } from '../index.js';
import { runChecks } from '../run-checks.js';
import { fixRules } from './index.js';
import { planFixes, type PlannedFix } from './plan.js';

const settingsFile = '/home/.m2/settings.xml';
const staging = 'https://ossrh-staging-api.central.sonatype.com/service/local/staging/deploy/maven2/';
const env = { CENTRAL_TOKEN_USERNAME: 'u', CENTRAL_TOKEN_PASSWORD: 'p' };

interface Project {
  files: Record<string, string>;
  repository?: Record<string, string>;
  /** Absent: no settings file. */
  settings?: string;
}

function factsOf(p: Project) {
  const parsed = p.settings === undefined ? undefined : parseMavenSettings(p.settings, { env, home: '/home' });
  const servers = parsed?.ok === true ? parsed.settings.servers : [];
  const facts = buildFacts({ files: p.files, ...(p.repository === undefined ? {} : { repository: p.repository }), servers, settingsFound: p.settings !== undefined });
  return facts;
}

function codesOf(p: Project): string[] {
  return [...new Set(runChecks(checks, factsOf(p), { offline: true }).map((f) => f.code))].sort();
}

/** Plans the fixes of `p` the way `preflight --fix` does, and the project after them. */
function fix(p: Project): { plan: PlannedFix; after: Project } {
  const facts = factsOf(p);
  const texts: Record<string, string | undefined> = { ...p.files, [settingsFile]: p.settings };
  const plan = planFixes(
    fixRules,
    {
      facts,
      findings: runChecks(checks, facts, { offline: true }),
      read: (file) => (texts[file] === undefined ? undefined : { file, text: texts[file]! }),
      options: { fixMetadata: false, usernameVariable: 'CENTRAL_TOKEN_USERNAME', passwordVariable: 'CENTRAL_TOKEN_PASSWORD', settingsFile },
    },
    () => true,
  );
  const after: Project = { ...p, files: { ...p.files } };
  for (const f of plan.files) {
    if (f.file === settingsFile) after.settings = f.after;
    else after.files[f.file] = f.after;
  }
  return { plan, after };
}

const header = `  <groupId>org.ex</groupId><artifactId>demo</artifactId><version>1.0.0-SNAPSHOT</version>\n${completeMetadata}`;
const settingsWith = (servers: string): string => `<?xml version="1.0"?>\n<settings>\n  <mirrors><mirror><id>m</id><url>https://m.example/</url><mirrorOf>*</mirrorOf></mirror></mirrors>\n  <servers>\n${servers}  </servers>\n</settings>\n`;
const server = (id: string): string => `    <server>\n      <id>${id}</id>\n      <username>u</username>\n      <password>p</password>\n    </server>\n`;

describe('Maven distribution fixes', () => {
  it('changes retired URLs and a legacy id where they are written, and the settings <server> with the id', () => {
    const project: Project = {
      files: {
        'pom.xml': pom(`${header}
  <distributionManagement>
    <!-- where releases go -->
    <repository>
      <id>ossrh</id>
      <url>https://oss.sonatype.org/service/local/staging/deploy/maven2/</url>
    </repository>
    <snapshotRepository>
      <id>ossrh</id>
      <url>https://oss.sonatype.org/content/repositories/snapshots</url>
    </snapshotRepository>
  </distributionManagement>`),
      },
      settings: settingsWith(server('other') + server('ossrh')),
    };
    expect(codesOf(project)).toEqual(['legacy-staging-host', 'legacy-staging-id']);
    const { plan, after } = fix(project);
    expect(plan.edits.map((e) => [e.file, e.line, e.code, e.before, e.after])).toEqual([
      ['pom.xml', 14, 'legacy-staging-id', 'ossrh', 'central'],
      ['pom.xml', 15, 'legacy-staging-host', 'https://oss.sonatype.org/service/local/staging/deploy/maven2/', staging],
      ['pom.xml', 18, 'legacy-staging-id', 'ossrh', 'central'],
      ['pom.xml', 19, 'legacy-staging-host', 'https://oss.sonatype.org/content/repositories/snapshots', 'https://central.sonatype.com/repository/maven-snapshots/'],
      [settingsFile, 11, 'legacy-staging-id', 'ossrh', 'central'],
    ]);
    expect(after.files['pom.xml']).toContain('    <!-- where releases go -->\n    <repository>\n      <id>central</id>\n');
    // The other server and the mirror are kept; only the id line changed.
    expect(after.settings).toBe(settingsWith(server('other') + server('central')));
    expect(codesOf(after)).toEqual(['snapshots-need-enabling']); // the reminder the portal snapshot URL brings (issue 42 item 5)
    expect(fix(after).plan.edits).toEqual([]);
  });

  it('shadows a retired host inherited from a parent outside the project in the top POM, in its indentation and line endings', () => {
    const parent = pom(`  <groupId>org.legacy</groupId><artifactId>lp</artifactId><version>7</version>
  <distributionManagement>
    <repository><id>sonatype-nexus-staging</id><url>https://oss.sonatype.org/service/local/staging/deploy/maven2/</url></repository>
    <snapshotRepository><id>sonatype-nexus-snapshots</id><url>https://s01.oss.sonatype.org/content/repositories/snapshots</url></snapshotRepository>
  </distributionManagement>`);
    const text = `<?xml version="1.0"?>\r\n<project>\r\n\t<modelVersion>4.0.0</modelVersion>\r\n\t<parent><groupId>org.legacy</groupId><artifactId>lp</artifactId><version>7</version></parent>\r\n${header.replace(/^ {2}/gm, '\t').replace(/\n/g, '\r\n')}\r\n\t<properties>\r\n\t\t<x>1</x>\r\n\t</properties>\r\n</project>\r\n`;
    const project: Project = { files: { 'pom.xml': text }, repository: { 'org.legacy:lp:7': parent }, settings: settingsWith(server('sonatype-nexus-staging')) };
    expect(codesOf(project)).toEqual(['legacy-staging-host', 'legacy-staging-id']);
    const { plan, after } = fix(project);
    const block =
      '\t<distributionManagement>\r\n\t\t<repository>\r\n\t\t\t<id>central</id>\r\n\t\t\t<url>' + staging + '</url>\r\n\t\t</repository>\r\n' +
      '\t\t<snapshotRepository>\r\n\t\t\t<id>sonatype-nexus-snapshots</id>\r\n\t\t\t<url>https://central.sonatype.com/repository/maven-snapshots/</url>\r\n\t\t</snapshotRepository>\r\n\t</distributionManagement>\r\n';
    // The snapshot id is not a legacy one: kept (its <server> is the user's). After the last element Maven puts before <distributionManagement> (<developers> here), before <properties>.
    expect(after.files['pom.xml']).toBe(text.replace('\t<properties>', `${block}\t<properties>`));
    // Every id the fixed build deploys to gets a <server>: the kept snapshot id had none.
    const envServer = (id: string): string => `    <server>\n      <id>${id}</id>\n      <username>\${env.CENTRAL_TOKEN_USERNAME}</username>\n      <password>\${env.CENTRAL_TOKEN_PASSWORD}</password>\n    </server>\n`;
    expect(after.settings).toBe(settingsWith(server('central') + envServer('sonatype-nexus-snapshots')));
    expect(plan.declined).toEqual([]);
    expect(codesOf(after)).toEqual(['snapshots-need-enabling']);
    expect(fix(after).plan.edits).toEqual([]);
  });

  it('declares a missing release repository and adds its <server>, in the same run, to a settings file that does not exist', () => {
    const project: Project = { files: { 'pom.xml': pom(header) } };
    expect(codesOf(project)).toEqual(['missing-distribution']);
    const { plan, after } = fix(project);
    expect(after.files['pom.xml']).toContain(`  <distributionManagement>\n    <repository>\n      <id>central</id>\n      <url>${staging}</url>\n    </repository>\n  </distributionManagement>\n</project>`);
    expect(plan.files.map((f) => f.file)).toEqual(['pom.xml', settingsFile]);
    expect(after.settings).toContain('<server>\n      <id>central</id>\n      <username>${env.CENTRAL_TOKEN_USERNAME}</username>\n      <password>${env.CENTRAL_TOKEN_PASSWORD}</password>\n    </server>');
    expect(codesOf(after)).toEqual([]);
    expect(fix(after).plan.edits).toEqual([]);
  });

  it('adds a <server> under the id the POM uses, keeping the other servers and mirrors', () => {
    const project: Project = { files: { 'pom.xml': pom(`${header}\n  <distributionManagement><repository><id>releases</id><url>${staging}</url></repository></distributionManagement>`) }, settings: settingsWith(server('other')) };
    expect(codesOf(project)).toEqual(['server-id-mismatch']);
    const { plan, after } = fix(project);
    expect(plan.edits).toHaveLength(1);
    expect(plan.edits[0]).toMatchObject({ file: settingsFile, code: 'server-id-mismatch', before: '' });
    expect(after.settings).toBe(settingsWith(`${server('other')}    <server>\n      <id>releases</id>\n      <username>\${env.CENTRAL_TOKEN_USERNAME}</username>\n      <password>\${env.CENTRAL_TOKEN_PASSWORD}</password>\n    </server>\n`));
    expect(codesOf(after)).toEqual([]);
  });

  it('changes a retired nexusUrl and points a repository without <url> at the staging API', () => {
    const project: Project = {
      files: {
        'pom.xml': pom(`${header}
  <build><plugins><plugin><groupId>org.sonatype.plugins</groupId><artifactId>nexus-staging-maven-plugin</artifactId><version>1.7.0</version>
    <configuration><serverId>central</serverId><nexusUrl>https://s01.oss.sonatype.org/</nexusUrl></configuration></plugin></plugins></build>`),
      },
      settings: settingsWith(server('central')),
    };
    expect(codesOf(project)).toContain('legacy-staging-host');
    const { after } = fix(project);
    expect(after.files['pom.xml']).toContain('<nexusUrl>https://ossrh-staging-api.central.sonatype.com/</nexusUrl>');
    expect(codesOf(after)).not.toContain('legacy-staging-host');
  });

  it("nexus-staging route: moves the plugin's <nexusUrl> to the staging API host and adds the <server> for its serverId, not for the ignored release repository", () => {
    const project: Project = {
      files: {
        'pom.xml': pom(`${header}
  <distributionManagement><repository><id>ignored</id><url>https://nexus.example.com/deploy/</url></repository></distributionManagement>
  <build><plugins><plugin><groupId>org.sonatype.plugins</groupId><artifactId>nexus-staging-maven-plugin</artifactId><version>1.7.0</version><extensions>true</extensions>
    <configuration><serverId>nexus-token</serverId><nexusUrl>https://central.sonatype.com/</nexusUrl></configuration></plugin></plugins></build>`),
      },
      settings: settingsWith(server('other')),
    };
    expect(codesOf(project)).toEqual(['distribution-url', 'server-id-mismatch']);
    const { after } = fix(project);
    expect(after.files['pom.xml']).toContain('<nexusUrl>https://ossrh-staging-api.central.sonatype.com/</nexusUrl>');
    expect(after.files['pom.xml']).toContain('<url>https://nexus.example.com/deploy/</url>');
    expect(after.settings).toContain('<id>nexus-token</id>');
    expect(codesOf(after)).toEqual([]);
  });

  it('leaves the id alone, POM and settings both, when two CI settings files name it (which one the release reads is a person\'s call)', () => {
    const project: Project = { files: { 'pom.xml': pom(`${header}\n  <distributionManagement><repository><id>ossrh</id><url>${staging}</url></repository></distributionManagement>`) }, settings: settingsWith(server('ossrh')) };
    const facts = factsOf(project);
    facts.maven!.settings.alternatives = [
      { file: '/project/.ci/settings.xml', via: '.github/workflows/release.yml', found: true, parsed: true, servers: [{ id: 'ossrh', line: 3, unsetEnv: [] }] },
      { file: '/project/.ci/deploy-settings.xml', via: '.github/workflows/deploy.yml', found: true, parsed: true, servers: [] },
    ];
    const plan = planFixes(fixRules, { facts, findings: runChecks(checks, facts, { offline: true }), read: (file) => ({ file, text: file === settingsFile ? project.settings! : project.files[file]! }), options: { fixMetadata: false, usernameVariable: 'A', passwordVariable: 'B', settingsFile } }, () => true);
    expect(plan.edits).toEqual([]);
    expect(plan.declined).toEqual([expect.objectContaining({ code: 'legacy-staging-id', file: 'pom.xml', why: expect.stringContaining('/project/.ci/settings.xml') })]);
  });

  it('leaves the id alone when a plugin authenticates with it too', () => {
    const project: Project = {
      files: {
        'pom.xml': pom(`${header}
  <distributionManagement><repository><id>ossrh</id><url>${staging}</url></repository></distributionManagement>
  <build><pluginManagement><plugins><plugin><groupId>org.sonatype.plugins</groupId><artifactId>nexus-staging-maven-plugin</artifactId><version>1.7.0</version>
    <configuration><serverId>ossrh</serverId><nexusUrl>https://ossrh-staging-api.central.sonatype.com/</nexusUrl></configuration></plugin></plugins></pluginManagement></build>`),
      },
      settings: settingsWith(server('ossrh')),
    };
    expect(codesOf(project)).toEqual(['legacy-staging-id']);
    const { plan } = fix(project);
    expect(plan.edits).toEqual([]);
    expect(plan.declined).toEqual([expect.objectContaining({ code: 'legacy-staging-id', why: expect.stringContaining('<serverId>ossrh</serverId>') })]);
  });

  it('declines what needs a person (developers) and what past an unresolved parent is unknown', () => {
    const orphan = pom(`  <parent><groupId>org.gone</groupId><artifactId>p</artifactId><version>1</version></parent>\n  <artifactId>demo</artifactId>\n  <distributionManagement><repository><id>central</id><url>https://oss.sonatype.org/service/local/staging/deploy/maven2/</url></repository></distributionManagement>`);
    const { plan } = fix({ files: { 'pom.xml': pom(header.replace(/<developers>.*<\/developers>/, '')) }, settings: settingsWith(server('central')) });
    expect(plan.declined).toContainEqual(expect.objectContaining({ code: 'missing-developers', why: expect.stringContaining("person's fact") }));
    const unresolved = fix({ files: { 'pom.xml': orphan }, settings: settingsWith(server('central')) });
    // The URL is written in the project: it is changed; nothing inherited is guessed at.
    expect(unresolved.plan.edits.every((e) => e.code !== 'missing-distribution')).toBe(true);
  });

  it('a published read repository on a retired host: a snapshot one moves to Central snapshots, a release one is declined; distributionManagement stays', () => {
    const repos = `
  <repositories>
    <repository>
      <id>sonatype-nexus-snapshots</id>
      <url>https://oss.sonatype.org/content/repositories/snapshots</url>
      <releases><enabled>false</enabled></releases>
    </repository>
    <repository><id>old-releases</id><url>https://s01.oss.sonatype.org/content/groups/public</url></repository>
  </repositories>`;
    const text = pom(`${header}\n${stagingDistribution}${repos}`);
    const project: Project = { files: { 'pom.xml': text }, settings: settingsWith(server('central')) };
    expect(codesOf(project)).toEqual(['legacy-staging-host']);
    const { plan, after } = fix(project);
    expect(plan.edits.map((e) => [e.line, e.code, e.before, e.after])).toEqual([
      [17, 'legacy-staging-host', 'https://oss.sonatype.org/content/repositories/snapshots', 'https://central.sonatype.com/repository/maven-snapshots/'],
    ]);
    expect(plan.declined).toEqual([expect.objectContaining({ code: 'legacy-staging-host', line: 20, why: expect.stringContaining('serves releases') })]);
    expect(after.files['pom.xml']).toBe(text.replace('https://oss.sonatype.org/content/repositories/snapshots', 'https://central.sonatype.com/repository/maven-snapshots/'));
    expect(fix(after).plan.edits).toEqual([]);
  });
});
