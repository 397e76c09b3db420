import { describe, expect, it } from 'vitest';
import type { GradleFacts, GradleProjectFacts, GradleRepositoryFact } from '../build-tools/gradle/facts.js';
import type { ProjectFacts } from './facts.js';
import { gradlePackagingMismatch } from './gradle-packaging.js';
import { gradleKeysNeeded, gradlePropertiesMissing, gradleSigningKeyringMissing } from './gradle-properties.js';

/** The names the check would ask for, given the user's keys. */
function missingGradleKeys(keys: string[], tokenFromEnv = false): string[] {
  return gradleKeysNeeded(facts({ user: { file: '/h/.gradle/gradle.properties', display: '~/.gradle/gradle.properties', state: 'ok', keys, tokenFromEnv } })).map((n) => n.name);
}
import { gradleDistributionUrl, gradleLegacyStagingHost } from './gradle-repositories.js';

const staging = 'https://ossrh-staging-api.central.sonatype.com';
const deploy = `${staging}/service/local/staging/deploy/maven2/`;
const allKeys = ['ossrhUsername', 'ossrhPassword', 'signing.keyId', 'signing.password', 'signing.secretKeyRingFile'];

function project(over: Partial<GradleProjectFacts> = {}): GradleProjectFacts {
  return { path: ':', dir: '.', dirExists: true, buildFile: 'build.gradle', plugins: [{ id: 'maven-publish', file: 'build.gradle', line: 1, scope: 'project' }], repositories: [], hasWebapp: false, ...over };
}
function repo(url: string, over: Partial<GradleRepositoryFact> = {}): GradleRepositoryFact {
  return { url, kind: 'release', file: 'build.gradle', line: 7, ...over };
}
function facts(over: Partial<GradleFacts> = {}): ProjectFacts {
  const gradle: GradleFacts = {
    rootProjectName: 'demo',
    projects: [project()],
    user: { file: '/home/u/.gradle/gradle.properties', display: '~/.gradle/gradle.properties', state: 'ok', keys: allKeys, tokenFromEnv: false },
    stagingApiUrl: staging,
    publishing: {},
    ...over,
  };
  return { root: '/p', buildTool: 'gradle', gatherFindings: [], gradle };
}

describe('legacy-staging-host (Gradle)', () => {
  it('fires for release and snapshot URLs on the retired hosts, with file and line', () => {
    const f = facts({
      projects: [
        project({
          repositories: [
            repo('https://s01.oss.sonatype.org/service/local/staging/deploy/maven2/'),
            repo('https://oss.sonatype.org/content/repositories/snapshots', { kind: 'snapshot', line: 9, via: 'snapshotsRepoUrl' }),
          ],
        }),
      ],
    });
    const found = gradleLegacyStagingHost.run(f);
    expect(found.map((x) => [x.code, x.line, x.module])).toEqual([
      ['legacy-staging-host', 7, ':'],
      ['legacy-staging-host', 9, ':'],
    ]);
    expect(found[0]!.message).toContain('s01.oss.sonatype.org');
    expect(found[0]!.fix).toContain(deploy);
    expect(found[1]!.message).toContain('via snapshotsRepoUrl');
  });

  it("names the nexus plugin's implicit default and tells to set nexusUrl", () => {
    const f = facts({ projects: [project({ repositories: [repo('https://oss.sonatype.org/service/local/', { implicit: true, nexus: true })] })] });
    const [finding] = gradleLegacyStagingHost.run(f);
    expect(finding!.message).toContain('default for sonatype()');
    expect(finding!.fix).toContain(`nexusUrl to ${staging}/service/local/`);
  });

  it('does not fire for the staging API or look-alike hosts', () => {
    const f = facts({ projects: [project({ repositories: [repo(deploy), repo('https://notoss.sonatype.org.example.com/x')] })] });
    expect(gradleLegacyStagingHost.run(f)).toEqual([]);
  });
});

describe('distribution-url (Gradle)', () => {
  it('fires when no release repository points at the staging API service', () => {
    const f = facts({ projects: [project({ repositories: [repo('https://repo.example.com/releases')] })] });
    const found = gradleDistributionUrl.run(f);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ code: 'distribution-url', severity: 'error', file: 'build.gradle', line: 7 });
    expect(found[0]!.fix).toContain(deploy);
  });

  it('honours a configured staging API URL with a path (sandbox)', () => {
    const sandbox = 'http://127.0.0.1:8080/staging';
    const f = facts({ stagingApiUrl: sandbox, projects: [project({ repositories: [repo(`${sandbox}/service/local/staging/deploy/maven2`)] })] });
    expect(gradleDistributionUrl.run(f)).toEqual([]);
    expect(gradleDistributionUrl.run(facts({ projects: [project({ repositories: [repo(`${sandbox}/service/local/staging/deploy/maven2`)] })] }))).toHaveLength(1);
  });

  it('does not fire for extra targets next to the staging service, snapshots, local folders or legacy hosts', () => {
    const f = facts({
      projects: [
        project({ repositories: [repo(deploy), repo('https://maven.pkg.github.com/o/r')] }),
        project({ path: ':lib', repositories: [repo('https://x.example/snapshots', { kind: 'snapshot' })] }),
      ],
    });
    expect(gradleDistributionUrl.run(f)).toEqual([]);
    const g = facts({ projects: [project({ repositories: [repo('file:///tmp/staging'), repo('https://oss.sonatype.org/x')] })] });
    expect(gradleDistributionUrl.run(g)).toEqual([]);
    const nexus = facts({ projects: [project({ repositories: [repo(`${staging}/service/local/`, { nexus: true })] })] });
    expect(gradleDistributionUrl.run(nexus)).toEqual([]);
  });
});

describe('gradle-properties-missing', () => {
  it('asks for no token and no key when nothing in the build uploads (the old maven plugin only installs locally)', () => {
    const local = (id: string) => ({ id, file: 'overlays/build.gradle', line: 11, scope: 'subprojects' as const });
    const user = { file: '/h/.gradle/gradle.properties', display: '~/.gradle/gradle.properties', state: 'missing' as const, keys: [], tokenFromEnv: false };
    const deployOnly = facts({ user, projects: [project({ plugins: [] }), project({ path: ':overlays:uPortal', plugins: [local('maven'), local('waroverlay')] })] });
    expect(gradlePropertiesMissing.run(deployOnly)).toEqual([]);
    const signs = facts({ user, projects: [project({ plugins: [local('maven'), local('signing')] })] });
    expect(gradlePropertiesMissing.run(signs).map((f) => f.code)).toEqual(['gradle-properties-missing']);
  });

  it('says what the missing keys are for: upload, sign, or both', () => {
    const user = (keys: string[]) => ({ file: '/h/.gradle/gradle.properties', display: '~/.gradle/gradle.properties', state: 'ok' as const, keys, tokenFromEnv: false });
    const message = (keys: string[]) => gradlePropertiesMissing.run(facts({ user: user(keys) }))[0]!.message;
    expect(message(['signing.keyId', 'signing.password', 'signing.secretKeyRingFile'])).toMatch(/needs ossrhUsername, ossrhPassword to upload\.$/);
    expect(message(['ossrhUsername', 'ossrhPassword'])).toMatch(/secretKeyRingFile to sign\.$/);
    expect(message([])).toMatch(/to upload and sign\.$/);
  });

  it('accepts any of the common credential pairs', () => {
    expect(missingGradleKeys(allKeys)).toEqual([]);
    expect(missingGradleKeys(['sonatypeUsername', 'sonatypePassword', ...allKeys.slice(2)])).toEqual([]);
    expect(missingGradleKeys(['mavenCentralUsername', 'mavenCentralPassword', ...allKeys.slice(2)])).toEqual([]);
  });

  it('names the missing half of a started pair and each missing signing key', () => {
    expect(missingGradleKeys(['sonatypeUsername', 'signing.keyId'])).toEqual(['sonatypePassword', 'signing.password', 'signing.secretKeyRingFile']);
    expect(missingGradleKeys([])).toEqual(['ossrhUsername', 'ossrhPassword', ...allKeys.slice(2)]);
  });

  it('needs no credential keys when the token comes from RELCTL_TOKEN_*', () => {
    expect(missingGradleKeys(allKeys.slice(2), true)).toEqual([]);
    expect(missingGradleKeys([], true)).toEqual(allKeys.slice(2));
  });

  it('fires with the file and the missing keys, and says when the file does not exist or cannot be read', () => {
    const f = facts({ user: { file: '/h/.gradle/gradle.properties', display: '~/.gradle/gradle.properties', state: 'ok', keys: ['ossrhUsername', 'ossrhPassword', 'signing.keyId'], tokenFromEnv: false } });
    const [finding] = gradlePropertiesMissing.run(f);
    expect(finding).toMatchObject({ code: 'gradle-properties-missing', severity: 'error' });
    expect(finding!.message).toContain('~/.gradle/gradle.properties lacks signing.password, signing.secretKeyRingFile');
    const missing = facts({ user: { file: '/x', display: '$GRADLE_USER_HOME/gradle.properties', state: 'missing', keys: [], tokenFromEnv: false } });
    expect(gradlePropertiesMissing.run(missing)[0]!.message).toContain('$GRADLE_USER_HOME/gradle.properties does not exist');
    const unreadable = facts({ user: { file: '/x', display: '~/.gradle/gradle.properties', state: 'unreadable', error: 'EACCES', keys: [], tokenFromEnv: false } });
    expect(gradlePropertiesMissing.run(unreadable)[0]!.message).toContain('cannot be read (EACCES)');
  });

  it('does not fire when every key is there', () => {
    expect(gradlePropertiesMissing.run(facts())).toEqual([]);
  });
});

describe('signing-keyring-missing', () => {
  const user = (exists: boolean): GradleFacts['user'] => ({
    file: '/h/.gradle/gradle.properties',
    display: '~/.gradle/gradle.properties',
    state: 'ok',
    keys: allKeys,
    tokenFromEnv: false,
    keyRing: { value: '~/.gnupg/secring.gpg', resolved: '/h/.gnupg/secring.gpg', exists, line: 5 },
  });
  it('fires when the keyring file does not exist, naming the expanded path', () => {
    const [finding] = gradleSigningKeyringMissing.run(facts({ user: user(false) }));
    expect(finding).toMatchObject({ code: 'signing-keyring-missing', severity: 'error' });
    expect(finding!.message).toContain('/h/.gnupg/secring.gpg');
  });
  it('does not fire when it exists or is not configured', () => {
    expect(gradleSigningKeyringMissing.run(facts({ user: user(true) }))).toEqual([]);
    expect(gradleSigningKeyringMissing.run(facts())).toEqual([]);
  });
});

describe('packaging-mismatch (Gradle)', () => {
  it('fires for a web project without the war plugin', () => {
    const f = facts({ projects: [project(), project({ path: ':web', dir: 'web', buildFile: 'web/build.gradle.kts', hasWebapp: true, plugins: [{ id: 'java', file: 'web/build.gradle.kts', line: 2, scope: 'self' }] })] });
    expect(gradlePackagingMismatch.run(f)).toEqual([
      expect.objectContaining({ code: 'packaging-mismatch', severity: 'error', file: 'web/build.gradle.kts', line: 2, module: ':web' }),
    ]);
  });
  it('does not judge a web sample or application that publishes nothing when other projects visibly publish', () => {
    const lib = project({ path: ':lib', dir: 'lib', plugins: [{ id: 'maven-publish', file: 'buildSrc/src/main/kotlin/lib.gradle.kts', line: 3, scope: 'self' }] });
    const sample = project({ path: ':samples:web', dir: 'samples/web', hasWebapp: true, plugins: [{ id: 'java', file: 'samples/web/build.gradle.kts', line: 3, scope: 'self' }] });
    const app = project({ path: ':console', dir: 'console', hasWebapp: true, plugins: [{ id: 'application', file: 'console/build.gradle.kts', line: 3, scope: 'self' }] });
    expect(gradlePackagingMismatch.run(facts({ projects: [project(), lib, sample, app] }))).toEqual([]);
    // A plain java project with web content is still judged: it may be published by means we cannot see.
    const plain = project({ path: ':web', dir: 'web', hasWebapp: true, plugins: [{ id: 'java', file: 'web/build.gradle.kts', line: 2, scope: 'self' }] });
    expect(gradlePackagingMismatch.run(facts({ projects: [project(), lib, plain] }))).toHaveLength(1);
    const published = { ...sample, plugins: [...sample.plugins, { id: 'maven-publish', file: 'build.gradle', line: 9, scope: 'subprojects' as const }] };
    expect(gradlePackagingMismatch.run(facts({ projects: [project(), lib, published] }))).toHaveLength(1);
  });
  it('reports a web project without a build script at its settings line', () => {
    const f = facts({ settingsFile: 'settings.gradle', projects: [project({ path: ':web', dir: 'web', hasWebapp: true, settingsLine: 3 })] });
    delete f.gradle!.projects[0]!.buildFile;
    expect(gradlePackagingMismatch.run(f)[0]).toMatchObject({ file: 'settings.gradle', line: 3 });
  });
  it('does not fire when war is applied (itself, from the root, or by a plugin that applies it) or there is no web content', () => {
    for (const id of ['war', 'org.gretty', 'com.example.war']) {
      const f = facts({ projects: [project({ hasWebapp: true, plugins: [{ id, file: 'build.gradle', line: 1, scope: 'subprojects' }] })] });
      expect(gradlePackagingMismatch.run(f)).toEqual([]);
    }
    expect(gradlePackagingMismatch.run(facts())).toEqual([]);
  });
});
