import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeMavenFailure, type FailureFacts } from './maven.js';

const recorded = (name: string): string => readFileSync(path.join(import.meta.dirname, 'recorded', name), 'utf8');
/** This machine: JDK 17 and 25, no JDK 8. */
const here: FailureFacts = { jdk: 17, installedJdks: [17, 25], rehearsal: true };

describe('decodeMavenFailure on a failed deploy (recorded: maven-deploy-plugin 2.7 against the sandbox)', () => {
  it('401 on deploy: credentials, naming the repository id and where relctl put the <server>; not "could not download"', () => {
    const f = decodeMavenFailure(recorded('deploy-401.deploy-2.7.txt'), { ...here, serverSettings: "relctl's private Maven settings" });
    expect(f.errors[0]).toContain('authentication failed for http://127.0.0.1:');
    expect(f.cause).toMatchObject({ code: 'deploy-credentials' });
    expect(f.cause!.message).toMatch(/^The deploy to repository central \(http:\/\/127\.0\.0\.1:\d+\/staging\/service\/local\/staging\/deploy\/maven2\/\) was refused \(401 Unauthorized\)/);
    expect(f.cause!.message).toContain("relctl put the <server> with <id>central</id> in relctl's private Maven settings.");
    expect(f.cause!.fix).not.toContain('mirror');
    const release = decodeMavenFailure(recorded('deploy-401.deploy-2.7.txt'), { rehearsal: false });
    expect(release.cause!.fix).toContain('RELCTL_TOKEN_USERNAME');
    expect(release.cause!.message).toContain('Maven sends the <server> whose <id> is central from its settings.xml.');
  });

  it('the older wagon\'s "Return code is: 401" and a 403 are credentials too', () => {
    const old = '[ERROR] Failed to execute goal org.apache.maven.plugins:maven-deploy-plugin:2.7:deploy (default-deploy) on project x: Failed to deploy artifacts: Could not transfer artifact g:x:jar:1.0 from/to sonatype-nexus-staging (https://oss.sonatype.org/service/local/staging/deploy/maven2/): Failed to transfer file: https://oss.sonatype.org/service/local/staging/deploy/maven2/g/x/1.0/x-1.0.jar. Return code is: 401, ReasonPhrase: Unauthorized. -> [Help 1]\n';
    expect(decodeMavenFailure(old, here).cause).toMatchObject({ code: 'deploy-credentials' });
    expect(decodeMavenFailure(old, here).cause!.message).toContain('repository sonatype-nexus-staging (https://oss.sonatype.org/');
    const forbidden = decodeMavenFailure(recorded('deploy-401.deploy-2.7.txt').replace('status: 401 Unauthorized', 'status: 403 Forbidden'), here);
    expect(forbidden.cause!.message).toContain('(403 Forbidden): the credentials are not allowed to deploy there');
  });

  it('"Invalid syntax for alternative repository": the deploy plugin', () => {
    const f = decodeMavenFailure(recorded('deploy-alt-syntax.deploy-2.7.txt'), here);
    expect(f.cause).toMatchObject({ code: 'deploy-syntax' });
    expect(f.cause!.message).toContain('maven-deploy-plugin 2.7 rejects the -DaltDeploymentRepository');
  });

  it('connection refused on deploy: the sandbox in a rehearsal, the repository in a release', () => {
    const f = decodeMavenFailure(recorded('deploy-connection-refused.deploy-2.7.txt'), here);
    expect(f.cause).toMatchObject({ code: 'deploy-unreachable' });
    expect(f.cause!.message).toContain('could not reach the sandbox (http://127.0.0.1:');
    expect(decodeMavenFailure(recorded('deploy-connection-refused.deploy-2.7.txt'), { rehearsal: false }).cause!.fix).toContain('distributionManagement');
  });
});

describe('decodeMavenFailure on recorded real output', () => {
  it('maven-notice-plugin on JDK 17 (JAXB) in the preparation build release:prepare forked: JDK 8, which this machine lacks', () => {
    const f = decodeMavenFailure(recorded('notice-plugin-jaxb-jdk17.release-2.5.2.txt'), here);
    expect(f.goal).toBe('org.jasig.maven:maven-notice-plugin:1.0.6.1:check');
    expect(f.forked).toEqual({ dir: '/tmp/rh/cas', command: 'mvn clean verify --no-plugin-updates --batch-mode -Psonatype-oss-release,jasig-release' });
    expect(f.errors[0]).toContain('maven-notice-plugin:1.0.6.1:check (check-notice)');
    expect(f.errors.some((e) => e.includes('urls['))).toBe(false);
    expect(f.cause).toMatchObject({ code: 'jdk-too-new' });
    expect(f.cause!.message).toContain('maven-notice-plugin 1.0.6.1 needs JAXB (javax.xml.bind), which JDK 11 removed');
    expect(f.cause!.message).toContain('The build needs JDK 8; it ran on JDK 17. This machine has JDK 17 and 25 only, so the build cannot pass here');
    expect(f.cause!.fix).toContain('JAVA_HOME=/path/to/jdk-8 relctl rehearse');
    expect(f.cause!.fix).toContain('toolchains');
  });

  it('names a JDK of this machine when one fits', () => {
    const f = decodeMavenFailure(recorded('notice-plugin-jaxb-jdk17.release-2.5.2.txt'), { jdk: 17, installedJdks: [8, 17], rehearsal: false });
    expect(f.cause!.message).toContain('This machine has JDK 8: set JAVA_HOME to it.');
    expect(f.cause!.fix).toContain('relctl release');
  });

  it('release plugin 2.5.3 with maven-scm-provider-gitexe 1.13.0: a broken plugin classpath, not the JDK', () => {
    const f = decodeMavenFailure(recorded('release-plugin-scm-classpath.release-2.5.3.txt'), here);
    expect(f.cause).toMatchObject({ code: 'plugin-classpath' });
    expect(f.cause!.message).toContain('maven-release-plugin 2.5.3 cannot load org/apache/maven/scm/command/untag/UntagScmResult');
    expect(f.forked).toBeUndefined();
  });

  it('javadoc-plugin 3.1.1 without JAVA_HOME', () => {
    const f = decodeMavenFailure(recorded('javadoc-3.1.1-no-java-home.txt'), here);
    expect(f.cause).toMatchObject({ code: 'java-home' });
    expect(f.cause!.message).toContain('maven-javadoc-plugin 3.1.1');
  });

  it('gpg-plugin 1.1 in batch mode', () => {
    const f = decodeMavenFailure(recorded('gpg-plugin-1.1-batch.txt'), here);
    expect(f.cause).toMatchObject({ code: 'gpg-batch' });
    expect(f.cause!.fix).toContain('-Dgpg.useagent=true');
  });

  it('source 6 on JDK 17: the last JDK that compiles it is 11', () => {
    const f = decodeMavenFailure(recorded('compiler-source-6-jdk17.txt'), here);
    expect(f.cause).toMatchObject({ code: 'jdk-too-new' });
    expect(f.cause!.message).toContain('The build needs JDK 11');
  });

  it('a Spock test on JDK 17: tests, with the module-system hint, and --skip-tests only for the rehearsal', () => {
    const f = decodeMavenFailure(recorded('surefire-spock-jdk17.txt'), here);
    expect(f.cause).toMatchObject({ code: 'tests' });
    expect(f.cause!.message).toContain('InaccessibleObjectException');
    expect(f.cause!.fix).toContain('relctl rehearse --skip-tests (rehearsal only');
    expect(decodeMavenFailure(recorded('surefire-spock-jdk17.txt'), { rehearsal: false }).cause!.fix).not.toContain('skip');
  });

  it('decodes the class file version messages of a JDK too old or too new for a plugin', () => {
    const tooOld = decodeMavenFailure(
      '[ERROR] Failed to execute goal x:y:1:z: java.lang.UnsupportedClassVersionError: a/B has been compiled by a more recent version of the Java Runtime (class file version 65.0), this version of the Java Runtime only recognizes class file versions up to 61.0',
      here,
    );
    expect(tooOld.cause).toMatchObject({ code: 'jdk-too-old', message: 'Code compiled for JDK 21 runs on JDK 17.' });
    const tooNew = decodeMavenFailure('[ERROR] Failed to execute goal org.x:old-plugin:1.0:run (a) on project p: Unsupported class file major version 69', here);
    expect(tooNew.cause!.message).toContain('old-plugin 1.0 cannot read class files of JDK 25');
  });

  it('release plugin 3.x (maven-invoker): the nested [INFO] [ERROR] lines and the goals of the build it ran; a plugin Central lacks', () => {
    const f = decodeMavenFailure(recorded('surefire-unresolved.release-3.3.1-invoker.txt'), here);
    expect(f.errors[0]).toContain('Plugin org.apache.maven.plugins:maven-surefire-plugin:2.22.3 or one of its dependencies could not be resolved');
    expect(f.forked).toEqual({ dir: '.', command: 'mvn clean verify' });
    expect(f.cause).toMatchObject({ code: 'offline' });
    expect(f.cause!.fix).toContain('--maven-mirror');
  });

  it('a JVM that never started (no [ERROR] line): the word of MAVEN_OPTS java took for the class to run (issue 37 item 5)', () => {
    const f = decodeMavenFailure(recorded('jvm-main-class.maven-opts-space.txt'), here);
    expect(f.errors).toEqual([]);
    expect(f.cause).toMatchObject({ code: 'jvm-options' });
    expect(f.cause!.message).toContain('it took ace.relctl-settings-AbC123 for the class to run, the tail of an option in MAVEN_OPTS or .mvn/jvm.config split off at whitespace');
    expect(f.cause!.fix).toContain('Remove the whitespace from that option');
    // A Maven installation without its launcher class is not about the options.
    expect(decodeMavenFailure('Error: Could not find or load main class org.codehaus.plexus.classworlds.launcher.Launcher\n', here).cause).toBeUndefined();
  });

  it('leaves an unknown failure undecoded, with its first [ERROR] lines', () => {
    const f = decodeMavenFailure('[INFO] x\n[ERROR] something odd\n[ERROR] \n[ERROR] To see the full stack trace of the errors, re-run Maven with the -e switch.\n', here);
    expect(f).toEqual({ errors: ['something odd'] });
  });
});
