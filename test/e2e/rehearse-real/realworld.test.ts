import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir, type TempDir } from '../../helpers/temp.js';
import { realProject, rehearse, type Rehearsal } from './fixture.js';

/**
 * Each project of test/fixtures/realworld-src rehearsed once, on this machine (JDK 17 and 25, no JDK 8;
 * JAVA_HOME unset), everything asserted on that one run. The expected verdict is the one a real
 * `relctl release` gets, judged from the project's own POMs and parents:
 *
 * - The parents' maven-release-plugin `<arguments>` are `-Psonatype-oss-release,jasig-release` with
 *   `useReleaseProfile=false` (jasig-parent 34 and 41), passed to the preparation build too. Their
 *   `jasig-release` runs maven-notice-plugin `check`, which needs JAXB (gone from JDK 11): on JDK 17
 *   the real release stops in release:prepare's `clean verify`. So basiclti-portlet and
 *   cas-server-security-filter get `build-failed`, cause `jdk-too-new`, JDK 8.
 * - portlet-utils pins maven-release-plugin 2.5.3 with maven-scm-provider-gitexe 1.13.0, a provider
 *   built for a newer SCM API: release:prepare cannot even load (UntagScmResult missing), whatever
 *   the JDK. `build-failed`, cause `plugin-classpath`.
 * - With the maintainer's JDK 17 workaround committed (`.mvn/maven.config`:
 *   `-DadditionalReleaseArguments=-P!jasig-release`, jasig-parent 41's hook into `<arguments>`), the
 *   release deploys what `sonatype-oss-release` adds: sources, javadoc, and signatures from
 *   maven-gpg-plugin 1.1 (in batch mode only with gpg.useagent), through maven-deploy-plugin 2.7
 *   (Maven 3.8.7's default binding: only the `id::default::url` form), with <licenses> and <url>
 *   inherited from jasig-parent and oss-parent, which the portal resolves from Central. The portal
 *   validates both: `VALIDATED`. cas-server-security-filter's four-part 2.0.10.5-SNAPSHOT releases
 *   as 2.0.10.5, next 2.0.10.6-SNAPSHOT.
 */
describe('rehearse on real projects (realworld-src)', () => {
  let t: TempDir;
  beforeAll(async () => {
    t = await tempDir('relctl-realworld-');
  });
  afterAll(async () => {
    await t?.[Symbol.asyncDispose]();
  });

  const releaseGoals = (r: Rehearsal): string[] => (r.build?.commands ?? []).map((c) => c.split(' ').filter((w) => w.startsWith('release:')).join(' '));

  it('basiclti-portlet: stops where the real release stops, in jasig-release (maven-notice-plugin needs JDK 8)', async () => {
    const { exitCode, result } = await rehearse(await realProject(t.path, 'basiclti-portlet'));
    expect(exitCode).toBe(1);
    expect(result.verdict).toBe('build-failed');
    expect(result.project).toMatchObject({ version: '1.5.1', nextVersion: '1.5.2-SNAPSHOT', tag: 'basiclti-portlet-1.5.1' });
    // A first release: the three goals as separate invocations, the second one failing.
    expect(releaseGoals(result)).toEqual(['release:clean', 'release:prepare']);
    const failure = result.build!.failure!;
    expect(failure.forked!.command).toContain('clean verify');
    expect(failure.forked!.command).toContain('-Psonatype-oss-release,jasig-release');
    expect(failure.goal).toBe('org.jasig.maven:maven-notice-plugin:1.0.6.1:check');
    expect(failure.cause!.code).toBe('jdk-too-new');
    expect(failure.cause!.message).toContain('The build needs JDK 8; it ran on JDK 17');
    expect(result.error!.kind).toBe('build-failed:jdk-too-new');
    expect(result.error!.message).not.toContain('outside relctl');
    expect(result.build!.notes.join('\n')).toContain('JAVA_HOME is unset');
  }, 600_000);

  it('portlet-utils: release plugin 2.5.3 cannot load with the SCM provider the POM adds', async () => {
    const { exitCode, result } = await rehearse(await realProject(t.path, 'portlet-utils'));
    expect(exitCode).toBe(1);
    expect(result.verdict).toBe('build-failed');
    expect(result.project).toMatchObject({ version: '1.1.4', tag: 'portlet-utils-parent-1.1.4' });
    expect(result.build!.failure!.cause!.code).toBe('plugin-classpath');
    expect(result.build!.failure!.cause!.message).toContain('maven-release-plugin 2.5.3 cannot load org/apache/maven/scm/command/untag/UntagScmResult');
  }, 600_000);

  it('cas-server-security-filter: four-part version, stops in jasig-release like basiclti-portlet', async () => {
    const { exitCode, result } = await rehearse(await realProject(t.path, 'cas-server-security-filter'));
    expect(exitCode).toBe(1);
    expect(result.project).toMatchObject({ version: '2.0.10.5', nextVersion: '2.0.10.6-SNAPSHOT', tag: 'cas-server-security-filter-2.0.10.5' });
    expect(result.verdict).toBe('build-failed');
    expect(result.build!.failure!.cause!.code).toBe('jdk-too-new');
    expect(result.build!.commands[1]).toContain('-DreleaseVersion=2.0.10.5 -DdevelopmentVersion=2.0.10.6-SNAPSHOT -Dtag=cas-server-security-filter-2.0.10.5');
  }, 600_000);

  const workaround = '-DadditionalReleaseArguments=-P!jasig-release';

  it('basiclti-portlet with the JDK 17 workaround: signed sources and javadoc from sonatype-oss-release, inherited licenses: VALIDATED', async () => {
    const { exitCode, result, stderr } = await rehearse(await realProjectAs(t.path, 'basiclti-portlet', workaround));
    expect(exitCode, stderr).toBe(0);
    expect(result.verdict).toBe('VALIDATED');
    expect(releaseGoals(result)).toEqual(['release:clean', 'release:prepare', 'release:perform']);
    expect(result.build!.redirect[0]).toMatch(/^-DaltDeploymentRepository=central::default::http:\/\/127\.0\.0\.1:\d+\//);
    expect(result.build!.parents).toEqual(['org/jasig/parent/jasig-parent/41/jasig-parent-41.pom', 'org/sonatype/oss/oss-parent/9/oss-parent-9.pom']);
    expect(result.chain!.steps.map((s) => `${s.id}:${s.status}`)).toEqual(['verify:done', 'upload:done', 'status:done']);
  }, 600_000);

  it('cas-server-security-filter with the JDK 17 workaround, on its branch master: 2.0.10.5, javadoc with JAVA_HOME from PATH, signed: VALIDATED', async () => {
    // On `master`, as the project's own repository: the throwaway remote's HEAD names that branch,
    // so release:perform's clone finds it.
    const { exitCode, result, stderr } = await rehearse(await realProjectAs(t.path, 'cas-server-security-filter', workaround, 'master'));
    expect(exitCode, stderr).toBe(0);
    expect(result.verdict).toBe('VALIDATED');
    expect(result.project.version).toBe('2.0.10.5');
    expect(result.build!.javaHome).toMatch(/^\/usr\/lib\/jvm\//);
    expect(result.build!.parents).toContain('org/jasig/parent/jasig-parent/41/jasig-parent-41.pom');
  }, 600_000);
});

/** The same project again, in its own folder (one temp root holds both runs). */
function realProjectAs(root: string, name: string, mavenConfig: string, branch?: string): ReturnType<typeof realProject> {
  return realProject(`${root}/workaround`, name, mavenConfig, branch);
}
