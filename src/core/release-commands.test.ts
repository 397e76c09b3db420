import { describe, expect, it } from 'vitest';
import {
  configuredPrepGoals,
  displayCommand,
  gradleReleaseInvocation,
  gradleTokenEnv,
  mavenInstallInvocation,
  mavenDeployStagedInvocation,
  mavenPrepInvocation,
  mavenReleaseInvocations,
  settingsWithMirror,
  settingsWithServer,
  rehearsalRedirect,
  withScmConnection,
} from './release-commands.js';

const v = { version: '1.2.3', nextVersion: '1.2.4-SNAPSHOT', tag: 'demo-1.2.3' };
const props = ['-DautoVersionSubmodules=true', '-DreleaseVersion=1.2.3', '-DdevelopmentVersion=1.2.4-SNAPSHOT', '-Dtag=demo-1.2.3'];

describe('mavenReleaseInvocations', () => {
  it('is one batch invocation with the four properties for a later release', () => {
    const inv = mavenReleaseInvocations({ executable: 'mvn' }, v, { firstRelease: false, interactive: false });
    expect(inv.map((i) => displayCommand(i.command, i.args))).toEqual([
      `mvn -B release:clean release:prepare release:perform ${props.join(' ')}`,
    ]);
  });

  it('runs the three goals separately for a first release', () => {
    const inv = mavenReleaseInvocations({ executable: './mvnw' }, v, { firstRelease: true, interactive: false });
    expect(inv.map((i) => i.args)).toEqual([
      ['-B', 'release:clean', ...props],
      ['-B', 'release:prepare', ...props],
      ['-B', 'release:perform', ...props],
    ]);
    expect(inv.every((i) => i.command === './mvnw')).toBe(true);
  });

  it('drops -B and the properties in interactive mode and hands over the terminal', () => {
    const inv = mavenReleaseInvocations({ executable: 'mvn', settingsFile: '/tmp/s.xml' }, v, { firstRelease: false, interactive: true });
    expect(inv).toEqual([
      { command: 'mvn', args: ['release:clean', 'release:prepare', 'release:perform', '-s', '/tmp/s.xml'], interactive: true, purpose: 'release:clean release:prepare release:perform' },
    ]);
  });

  it('appends the settings file and local repository, never a credential', () => {
    const [inv] = mavenReleaseInvocations({ executable: 'mvn', settingsFile: '/t/settings.xml', localRepo: '/t/m2' }, v, {
      firstRelease: false,
      interactive: false,
    });
    expect(inv!.args.slice(-3)).toEqual(['-s', '/t/settings.xml', '-Dmaven.repo.local=/t/m2']);
  });
});

describe('prep', () => {
  it('picks only the goals whose plugins the POMs configure', () => {
    const goals = configuredPrepGoals([
      '<project><build><plugins><plugin><groupId>com.mycila</groupId><artifactId>license-maven-plugin</artifactId></plugin></plugins></build></project>',
      '<plugin><artifactId>maven-javadoc-plugin</artifactId></plugin>',
    ]);
    expect(goals.map((g) => g.goal)).toEqual(['license:format', 'javadoc:fix']);
    expect(displayCommand('mvn', mavenPrepInvocation({ executable: 'mvn' }, goals)!.args)).toBe('mvn -B license:format javadoc:fix -Dforce=true');
    expect(mavenPrepInvocation({ executable: 'mvn' }, [])).toBeUndefined();
    expect(mavenInstallInvocation({ executable: 'mvn' }).args).toEqual(['-B', 'install']);
    // The nexus-staging route's upload: the plugin's own goal, with the session's settings and local repository.
    expect(mavenDeployStagedInvocation({ executable: './mvnw', settingsFile: '/t/s.xml', localRepo: '/r' }).args).toEqual(['-B', 'nexus-staging:deploy-staged', '-s', '/t/s.xml', '-Dmaven.repo.local=/r']);
  });
});

describe('gradleReleaseInvocation', () => {
  it('answers the prompts on stdin outside CI', () => {
    const inv = gradleReleaseInvocation('./gradlew', v, { ci: false, interactive: false });
    expect(inv.args).toEqual(['clean', 'release', '--no-parallel']);
    expect(inv.input).toBe('1.2.3\n1.2.4-SNAPSHOT\n');
  });
  it('passes the plugin properties in CI', () => {
    const inv = gradleReleaseInvocation('gradle', v, { ci: true, interactive: false });
    expect(inv.args).toEqual([
      'clean',
      'release',
      '--no-parallel',
      '-Prelease.useAutomaticVersion=true',
      '-Prelease.releaseVersion=1.2.3',
      '-Prelease.newVersion=1.2.4-SNAPSHOT',
    ]);
    expect(inv.input).toBeUndefined();
  });
  it('passes the plugin properties outside CI too when the versions were named (--release-version)', () => {
    const inv = gradleReleaseInvocation('./gradlew', v, { ci: false, interactive: false, chosen: true });
    expect(inv.args.slice(3)).toEqual(['-Prelease.useAutomaticVersion=true', '-Prelease.releaseVersion=1.2.3', '-Prelease.newVersion=1.2.4-SNAPSHOT']);
    expect(inv.input).toBeUndefined();
  });
  it('puts the token in environment variables only', () => {
    const env = gradleTokenEnv('u-123', 'p-456');
    expect(env.ORG_GRADLE_PROJECT_ossrhUsername).toBe('u-123');
    expect(env.ORG_GRADLE_PROJECT_mavenCentralPassword).toBe('p-456');
  });
});

describe('settingsWithServer', () => {
  it('makes a minimal document with the escaped token', () => {
    const text = settingsWithServer(undefined, 'central', 'u<1', 'p&2');
    expect(text).toContain('<server><id>central</id><username>u&lt;1</username><password>p&amp;2</password></server>');
  });
  it('keeps the user settings and replaces the server with the same id', () => {
    const user = `<settings>\n  <mirrors><mirror><id>m</id></mirror></mirrors>\n  <servers>\n    <server>\n      <id>central</id><username>old</username><password>old</password>\n    </server>\n    <server><id>other</id></server>\n  </servers>\n</settings>\n`;
    const text = settingsWithServer(user, 'central', 'new-u', 'new-p');
    expect(text).toContain('<mirror><id>m</id></mirror>');
    expect(text).toContain('<server><id>other</id></server>');
    expect(text).not.toContain('old');
    expect(text.match(/<id>central<\/id>/g)).toHaveLength(1);
  });
  it('adds a servers block when the user has none', () => {
    const text = settingsWithServer('<settings><localRepository>/x</localRepository></settings>', 'central', 'uu-1', 'pp-2');
    expect(text).toMatch(/<localRepository>\/x<\/localRepository>\s*<servers>/);
  });
});

describe('rehearse builders', () => {
  it('redirects the deploy in the form maven-deploy-plugin 2.x and 3.x both accept, and only skips tests when asked', () => {
    expect(rehearsalRedirect({ repositoryId: 'central', deployUrl: 'http://127.0.0.1:9/staging/service/local/staging/deploy/maven2/', keyname: 'ABCD' })).toEqual([
      '-DaltDeploymentRepository=central::default::http://127.0.0.1:9/staging/service/local/staging/deploy/maven2/',
      '-Dgoals=deploy',
      '-Dgpg.keyname=ABCD',
    ]);
    expect(rehearsalRedirect({ repositoryId: 'r', deployUrl: 'http://h/', skipTests: true })).toContain('-DskipTests');
  });
  it("points the project's own <scm> at the throwaway remote, and adds one where the POM inherits it", () => {
    const pom = `<project>
  <scm>
    <connection>scm:git:git@github.com:o/r.git</connection>
    <developerConnection>scm:git:git@github.com:o/r.git</developerConnection>
    <url>https://github.com/o/r</url>
  </scm>
  <profiles><profile><scm><connection>x</connection></scm></profile></profiles>
</project>`;
    expect(withScmConnection(pom, 'file:///w/remote.git')).toBe(
      pom.replace(/scm:git:git@github.com:o\/r.git/g, 'scm:git:file:///w/remote.git'),
    );
    expect(withScmConnection('<project><!-- <scm></scm> --><scm><url>u</url></scm></project>', '/r')).toBe(
      '<project><!-- <scm></scm> --><scm><url>u</url><connection>scm:git:/r</connection><developerConnection>scm:git:/r</developerConnection></scm></project>',
    );
    expect(withScmConnection('<project>\n</project>\n', '/r')).toBe(
      '<project>\n  <scm><connection>scm:git:/r</connection><developerConnection>scm:git:/r</developerConnection></scm>\n</project>\n',
    );
  });
  it('puts a repository before Central into settings (Central stays: Debian packages no release plugin)', () => {
    const text = settingsWithMirror(settingsWithServer(undefined, 'central', 'user', 'pass'), 'file:///usr/share/maven-repo');
    expect(text).toContain('<pluginRepository><id>relctl-mirror</id><url>file:///usr/share/maven-repo</url>');
    expect(text).not.toContain('<mirrorOf>');
    expect(text).toContain('<server><id>central</id>');
    expect(text).toContain('<activeProfile>relctl-mirror</activeProfile>');
  });
});
