/** Groovy-DSL shapes of real builds that parseBuildScript reads (uPortal, CAS, gradle-mvn-push, caffeine). */
import { describe, expect, it } from 'vitest';
import { parseBuildScript } from './build-script.js';

const oss = 'https://oss.sonatype.org/service/local/staging/deploy/maven2/';
const staging = 'https://ossrh-staging-api.central.sonatype.com/service/local/';

const mvnPush = `def getReleaseRepositoryUrl() {
    return hasProperty('RELEASE_REPOSITORY_URL') ? RELEASE_REPOSITORY_URL
            : "${oss}"
}
uploadArchives {
    repositories {
        mavenDeployer {
            repository(url: getReleaseRepositoryUrl())
        }
    }
}`;

describe('parseBuildScript: URLs computed the Groovy way', () => {
  it('resolves a function that returns the URL, and a set property wins over the written default', () => {
    expect(parseBuildScript(mvnPush).repositories.map((r) => [r.url, r.kind, r.line, r.property])).toEqual([[oss, 'release', 8, 'RELEASE_REPOSITORY_URL']]);
    const props = new Map([['RELEASE_REPOSITORY_URL', `${staging}staging/deploy/maven2/`]]);
    expect(parseBuildScript(mvnPush, props).repositories.map((r) => [r.url, r.via])).toEqual([[`${staging}staging/deploy/maven2/`, 'getReleaseRepositoryUrl']]);
  });

  it('takes the property of project.hasProperty(...) ? project.getProperty(...) : default only when it is set', () => {
    const text = `subprojects {
    ext {
        publishingRepositoryUrl = project.hasProperty('ossrhUrl') ? project.getProperty('ossrhUrl') : "${oss}"
    }
    publishing { repositories { maven { url publishingRepositoryUrl } } }
}`;
    expect(parseBuildScript(text).repositories.map((r) => r.url)).toEqual([oss]);
    expect(parseBuildScript(text, new Map([['ossrhUrl', 'https://repo.example.org/releases']])).repositories.map((r) => r.url)).toEqual(['https://repo.example.org/releases']);
  });

  it('a property used as a flag in the test neither replaces the branches nor is named as their replacement', () => {
    const text = `publishing { repositories { maven { url hasProperty('release') ? '${oss}' : 'https://oss.sonatype.org/content/repositories/snapshots/' } } }`;
    const s = parseBuildScript(text);
    expect(s.repositories.map((r) => [r.url, r.kind, r.property])).toEqual([
      [oss, 'release', undefined],
      ['https://oss.sonatype.org/content/repositories/snapshots/', 'snapshot', undefined],
    ]);
  });

  it('keeps both branches when the ternary tests something else than a property', () => {
    const props = new Map([
      ['snapshotUrl', 'https://central.sonatype.com/repository/maven-snapshots/'],
      ['releaseUrl', `${staging}staging/deploy/maven2/`],
    ]);
    const s = parseBuildScript(`publishing { repositories { maven { url = version.endsWith('SNAPSHOT') ? findProperty('snapshotUrl') : findProperty('releaseUrl') } } }`, props);
    expect(s.repositories.map((r) => [r.url, r.kind])).toEqual([
      ['https://central.sonatype.com/repository/maven-snapshots/', 'snapshot'],
      [`${staging}staging/deploy/maven2/`, 'release'],
    ]);
  });

  it('resolves GStrings made of known names and constant suffixes appended with +', () => {
    const text = `ext.base = '${staging}'
publishing {
    repositories {
        maven { url "\${sonatypeRepositoryUrl}" }
        maven { url = "\${base}staging/deploy/maven2/" }
        maven { url = base + 'staging/' + 'deploy/maven2/' }
        maven { url "\${base}\${System.getenv('SUFFIX')}" }
        maven { url "$buildDir/repo" }
    }
}`;
    const s = parseBuildScript(text, new Map([['sonatypeRepositoryUrl', oss]]));
    expect(s.repositories.map((r) => [r.url, r.via])).toEqual([
      [oss, 'sonatypeRepositoryUrl'],
      [`${staging}staging/deploy/maven2/`, 'base'],
      [`${staging}staging/deploy/maven2/`, 'base'],
    ]);
  });

  it("keeps a repository's name with its URL, wherever the name is set in the block", () => {
    const text = `publishing { repositories {
    maven {
        def releasesRepoUrl = 'https://nexus.example.com/releases/'
        url = releasesRepoUrl
        name 'company-nexus'
    }
} }`;
    expect(parseBuildScript(text).repositories.map((r) => [r.url, r.name])).toEqual([['https://nexus.example.com/releases/', 'company-nexus']]);
  });

  it('reads nexusPublishing { serverUrl } of de.marcphilipp.nexus-publish before 0.4.0', () => {
    const s = parseBuildScript(`nexusPublishing {\n  serverUrl = uri("${staging}")\n  snapshotRepositoryUrl = uri("https://central.sonatype.com/repository/maven-snapshots/")\n}`);
    expect(s.repositories.map((r) => [r.url, r.kind, r.nexus])).toEqual([
      [staging, 'release', true],
      ['https://central.sonatype.com/repository/maven-snapshots/', 'snapshot', true],
    ]);
  });

  it("reads the Codearte nexus-staging plugin's serverUrl", () => {
    const s = parseBuildScript(`nexusStaging {\n  packageGroup = 'io.github.x'\n  serverUrl = "${staging}"\n}`);
    expect(s.repositories).toEqual([{ url: staging, kind: 'release', line: 3, nexus: true, nexusStaging: true }]);
  });
});

describe('parseBuildScript: war, version and signing facts', () => {
  it('a top-level war { } block or war.dependsOn means the war plugin is applied; configurations { war {} } does not', () => {
    expect(parseBuildScript(`war {\n    archiveName 'uPortal.war'\n}`).warTask).toBe(2);
    expect(parseBuildScript(`war.dependsOn 'npm_run_build'`).warTask).toBe(1);
    expect(parseBuildScript(`configurations {\n    war {}\n    jdbc\n}\nsubprojects { war { archiveName 'x.war' } }`).warTask).toBeUndefined();
  });

  it('reads the version from subprojects {} unless the root sets its own', () => {
    expect(parseBuildScript(`subprojects {\n    group = 'com.example'\n    version = '2.9.4-SNAPSHOT'\n}`).version).toEqual({ value: '2.9.4-SNAPSHOT', line: 3 });
    expect(parseBuildScript(`version = '1.0.0-SNAPSHOT'\nsubprojects {\n    version = '9.9.9'\n}`).version).toEqual({ value: '1.0.0-SNAPSHOT', line: 1 });
    expect(parseBuildScript(`subprojects {\n    version = '9.9.9'\n}\nversion = '1.0.0-SNAPSHOT'`).version).toEqual({ value: '1.0.0-SNAPSHOT', line: 4 });
  });

  it('resolves version = rootProject.x / version = x to a constant set in ext {} or with def', () => {
    const text = `ext {\n    hibernateTargetVersion = '4.3.12.Final-SNAPSHOT'\n}\nsubprojects {\n    version = rootProject.hibernateTargetVersion\n}`;
    expect(parseBuildScript(text).version).toEqual({ value: '4.3.12.Final-SNAPSHOT', line: 2 });
    expect(parseBuildScript(`def v = '2.0.0-SNAPSHOT'\nversion = v`).version).toEqual({ value: '2.0.0-SNAPSHOT', line: 1 });
    expect(parseBuildScript(`version = computeVersion()`).versionComputed).toBe(1);
  });

  it('reads project.version = ... like version = ..., a computed one as computed', () => {
    expect(parseBuildScript(`project.version = '3.2.0-SNAPSHOT'`).version).toEqual({ value: '3.2.0-SNAPSHOT', line: 1 });
    expect(parseBuildScript(`subprojects {\n    project.version = scmVersion.version\n}`).versionComputed).toBe(2);
    expect(parseBuildScript(`project.version = parsedJson.version + '-SNAPSHOT'`).versionComputed).toBe(1);
  });

  it('takes a version set by calling a build function, version(major = 3, ...), as computed, not missing', () => {
    const kts = `allprojects {\n  group = "com.example"\n  version(\n    major = 3,\n    minor = 1,\n    releaseBuild = rootProject.hasProperty("release"))\n}`;
    expect(parseBuildScript(kts, new Map(), { kotlin: true }).versionComputed).toBe(3);
    expect(parseBuildScript(`version(computeVersion())`).versionComputed).toBe(1);
    expect(parseBuildScript(`version('2.0.0-SNAPSHOT')`).version).toEqual({ value: '2.0.0-SNAPSHOT', line: 1 });
  });

  it('names the Gradle property of version = projectVersion / "${projectVersion}"', () => {
    expect(parseBuildScript(`version = projectVersion`).versionName).toEqual({ name: 'projectVersion', line: 1 });
    expect(parseBuildScript(`version = "\${projectVersion}"`).versionName).toEqual({ name: 'projectVersion', line: 1 });
    expect(parseBuildScript(`version = computeVersion()`).versionName).toBeUndefined();
  });

  it('names the file of version = file(...).text', () => {
    expect(parseBuildScript(`version = file('version.txt').text.trim()`).versionFile).toEqual({ path: 'version.txt', fromRoot: false, line: 1 });
    expect(parseBuildScript(`version = new File(rootDir, 'VERSION').text.trim()`).versionFile).toEqual({ path: 'VERSION', fromRoot: true, line: 1 });
    expect(parseBuildScript(`version = file('version.txt').readLines()`).versionFile).toBeUndefined();
  });

  it('follows in-memory signing keys read into def variables first', () => {
    const s = parseBuildScript(`signing {
    def signingKey = findProperty("signingKey")
    def signingPassword = System.getenv("SIGNING_PASSWORD")
    useInMemoryPgpKeys(signingKey, signingPassword)
}`);
    expect(s.inMemorySigning?.line).toBe(4);
    expect(s.inMemorySigning?.args).toEqual([[{ name: 'signingKey', env: false }], [{ name: 'SIGNING_PASSWORD', env: true }]]);
  });

  it('does not ask for both sides of a fallback read into a variable', () => {
    const s = parseBuildScript(`def key = findProperty('signingKey') ?: System.getenv('SIGNING_KEY')\nsigning { useInMemoryPgpKeys(key, '') }`);
    // One argument, satisfied by either source; the literal password reads nothing.
    expect(s.inMemorySigning?.args).toEqual([[{ name: 'signingKey', env: false }, { name: 'SIGNING_KEY', env: true }], []]);
  });
});

describe('what computes a version, in words', () => {
  it('names an environment variable, axion-release, a condition, a call or the value read', () => {
    const how = (script: string, kotlin = false): string | undefined => parseBuildScript(script, new Map(), { kotlin }).versionComputedHow;
    expect(how(`version = System.getenv("RELEASE_VERSION") ?: "0.0.1-SNAPSHOT"`, true)).toBe('the environment variable RELEASE_VERSION');
    expect(how(`version = providers.environmentVariable("V").get()`, true)).toBe('the environment variable V');
    expect(how(`project.version = scmVersion.version`)).toBe('axion-release (scmVersion.version)');
    expect(how(`version = if (release) "1.0" else "1.0-SNAPSHOT"`, true)).toBe('a condition (if ... else ...)');
    expect(how(`version = computeVersion()`)).toBe('computeVersion(...)');
    expect(how(`version = Ci.publishVersion`, true)).toBe('Ci.publishVersion');
  });
});
