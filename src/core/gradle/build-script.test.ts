import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nexusSonatypeDefault, normalisePluginId, parseBuildScript } from './build-script.js';

const groovy = `plugins {
    id 'java-library'
    id "maven-publish"
    id 'com.example.tool' version '1.0' apply false
}
apply plugin: 'war'

version = '1.2.3-SNAPSHOT'
group = "org.example"

// url 'https://oss.sonatype.org/commented-out'
/* maven { url "https://s01.oss.sonatype.org/block-comment" } */
def releasesRepoUrl = "https://ossrh-staging-api.central.sonatype.com/service/local/staging/deploy/maven2/"
def snapshotsRepoUrl = 'https://central.sonatype.com/repository/maven-snapshots/'

repositories {
    maven { url 'https://repo.example.com/not-publishing' }
}

publishing {
    repositories {
        maven {
            name = 'central'
            url = version.endsWith('SNAPSHOT') ? snapshotsRepoUrl : releasesRepoUrl
        }
        maven { url "https://oss.sonatype.org/service/local/staging/deploy/maven2/" }
    }
}
release {
    tagTemplate = '\${name}-\${version}'
}
`;

const kotlin = `plugins {
    \`java-library\`
    \`maven-publish\`
    war
    kotlin("jvm") version "2.0.0"
    id("org.jetbrains.dokka") version "1.9" apply false
}

version = "2.0.0-SNAPSHOT"

publishing {
    repositories {
        maven {
            val releasesRepoUrl = uri("https://s01.oss.sonatype.org/service/local/staging/deploy/maven2/")
            val snapshotsRepoUrl = uri("https://s01.oss.sonatype.org/content/repositories/snapshots/")
            url = if (version.toString().endsWith("SNAPSHOT")) snapshotsRepoUrl else releasesRepoUrl
        }
        maven("https://maven.pkg.example.com/releases")
        maven {
            setUrl(providers.gradleProperty("stagingUrl").get())
        }
    }
}
`;

describe('parseBuildScript: plugins', () => {
  it('reads Groovy plugins {} and apply plugin:, skipping apply false', () => {
    const s = parseBuildScript(groovy);
    expect(s.plugins.map((p) => [p.id, p.line])).toEqual([
      ['java-library', 2],
      ['maven-publish', 3],
      ['war', 6],
    ]);
  });

  it('reads Kotlin DSL accessors, backtick ids and kotlin("jvm")', () => {
    const s = parseBuildScript(kotlin);
    expect(s.plugins.map((p) => p.id)).toEqual(['java-library', 'maven-publish', 'war', 'org.jetbrains.kotlin.jvm']);
  });

  it('records the scope of plugins applied from the root for other projects', () => {
    const s = parseBuildScript(`subprojects { apply plugin: 'java' }
allprojects {
  apply(plugin = "idea")
}
project(':web') {
    apply plugin: WarPlugin
}`);
    expect(s.plugins).toEqual([
      { id: 'java', line: 1, scope: { kind: 'subprojects' } },
      { id: 'idea', line: 3, scope: { kind: 'allprojects' } },
      { id: 'war', line: 6, scope: { kind: 'project', path: ':web' } },
    ]);
  });

  it('normalises core plugin ids and plugin classes', () => {
    expect(normalisePluginId('org.gradle.war')).toBe('war');
    expect(normalisePluginId('WarPlugin')).toBe('war');
    expect(normalisePluginId('MavenPublishPlugin')).toBe('maven-publish');
  });
});

describe('parseBuildScript: script plugins and dotted blocks', () => {
  it('lists apply from: scripts with their scope', () => {
    const s = parseBuildScript(`apply from: "$rootDir/gradle/publish.gradle"
subprojects {
    apply(from = rootProject.file("gradle/java.gradle.kts"))
}`);
    expect(s.appliedScripts).toEqual([
      { path: '$rootDir/gradle/publish.gradle', fromRoot: false, line: 1, scope: { kind: 'self' } },
      { path: 'gradle/java.gradle.kts', fromRoot: true, line: 3, scope: { kind: 'subprojects' } },
    ]);
  });

  it('reads publishing.repositories.maven { } written with dots', () => {
    const s = parseBuildScript(`publishing.repositories.maven {\n  url = uri("https://oss.sonatype.org/x")\n}\nrepositories.maven { url = uri("https://dep.example") }`);
    expect(s.repositories.map((r) => [r.url, r.line])).toEqual([['https://oss.sonatype.org/x', 2]]);
  });
});

describe('parseBuildScript: publishing repositories', () => {
  it('finds Groovy URLs (variables, ternaries) with lines, ignoring comments and dependency repositories', () => {
    const s = parseBuildScript(groovy);
    expect(s.repositories).toEqual([
      { url: 'https://central.sonatype.com/repository/maven-snapshots/', kind: 'snapshot', line: 24, via: 'snapshotsRepoUrl', name: 'central' },
      { url: 'https://ossrh-staging-api.central.sonatype.com/service/local/staging/deploy/maven2/', kind: 'release', line: 24, via: 'releasesRepoUrl', name: 'central' },
      { url: 'https://oss.sonatype.org/service/local/staging/deploy/maven2/', kind: 'release', line: 26 },
    ]);
    expect(s.version).toEqual({ value: '1.2.3-SNAPSHOT', line: 8 });
    expect(s.group).toEqual({ value: 'org.example', line: 9 });
    expect(s.tagTemplate).toBe('${name}-${version}');
  });

  it('finds Kotlin DSL URLs: uri(), maven("..."), setUrl with a Gradle property', () => {
    const s = parseBuildScript(kotlin, new Map([['stagingUrl', 'https://staging.example.com/deploy']]));
    expect(s.repositories.map((r) => [r.url, r.kind, r.line])).toEqual([
      ['https://s01.oss.sonatype.org/content/repositories/snapshots/', 'snapshot', 16],
      ['https://s01.oss.sonatype.org/service/local/staging/deploy/maven2/', 'release', 16],
      ['https://maven.pkg.example.com/releases', 'release', 18],
      ['https://staging.example.com/deploy', 'release', 20],
    ]);
    expect(s.version).toEqual({ value: '2.0.0-SNAPSHOT', line: 9 });
  });

  it('reads the legacy maven plugin (mavenDeployer) and Groovy property references', () => {
    const s = parseBuildScript(
      `uploadArchives {
  repositories {
    mavenDeployer {
      repository(url: "https://oss.sonatype.org/service/local/staging/deploy/maven2/") {
        authentication(userName: ossrhUsername, password: ossrhPassword)
      }
      snapshotRepository(url: snapshotUrl)
    }
  }
}`,
      new Map([['snapshotUrl', 'https://oss.sonatype.org/content/repositories/snapshots']]),
    );
    expect(s.repositories.map((r) => [r.kind, r.line, r.via])).toEqual([
      ['release', 4, undefined],
      ['snapshot', 7, 'snapshotUrl'],
    ]);
  });

  it("reports the nexus-publish plugin's implicit legacy default, but not an explicit nexusUrl", () => {
    const implicit = parseBuildScript(`nexusPublishing {\n  repositories {\n    sonatype()\n  }\n}`);
    expect(implicit.repositories).toEqual([{ url: nexusSonatypeDefault, kind: 'release', line: 3, implicit: true, nexus: true, nexusRepository: 'sonatype' }]);
    const explicit = parseBuildScript(`nexusPublishing {
  repositories {
    sonatype {
      nexusUrl.set(uri("https://ossrh-staging-api.central.sonatype.com/service/local/"))
      snapshotRepositoryUrl.set(uri("https://central.sonatype.com/repository/maven-snapshots/"))
    }
  }
}`);
    expect(explicit.repositories.map((r) => [r.kind, r.line, r.implicit])).toEqual([
      ['release', 4, undefined],
      ['snapshot', 5, undefined],
    ]);
  });

  it('keeps strings that contain comment markers and braces', () => {
    const s = parseBuildScript(`publishing { repositories { maven { url = "https://host.example/a//b/*c*/{d}" } } }\napply plugin: 'war'`);
    expect(s.repositories.map((r) => r.url)).toEqual(['https://host.example/a//b/*c*/{d}']);
    expect(s.plugins.map((p) => [p.id, p.line])).toEqual([['war', 2]]);
  });

  it('survives unbalanced braces and unterminated strings', () => {
    const s = parseBuildScript(`}}} publishing { repositories { maven { url 'https://x.example/r\n} } } } }\nplugins { id 'war'`);
    expect(s.repositories.map((r) => r.url)).toEqual(['https://x.example/r']);
    expect(s.plugins.map((p) => p.id)).toEqual(['war']);
  });
});

describe('parseBuildScript never throws', () => {
  const fragments = [
    'plugins {', '}', '{', "id 'war'", 'id("war")', 'apply plugin: ', "'", '"', '"""', "'''", '/*', '*/', '//', '\n', '`',
    'publishing', 'repositories', 'maven', 'url =', 'uri(', ')', '(', '"https://oss.sonatype.org"', '${', '\\', 'def x = ',
    'nexusPublishing', 'sonatype()', 'version =', '\u0000', '\r', 'project(":a")', 'mavenDeployer', 'repository(url: ',
  ];
  it('on mutated scripts and binary garbage', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.constantFrom(...fragments), fc.string()), { maxLength: 60 }), (parts) => {
        const s = parseBuildScript(parts.join(' '), new Map([['x', 'https://p.example']]));
        for (const r of s.repositories) expect(r.line).toBeGreaterThan(0);
      }),
      { numRuns: 400 },
    );
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2000 }), (bytes) => {
        parseBuildScript(Buffer.from(bytes).toString('utf8'));
      }),
      { numRuns: 200 },
    );
  });

  it('on hostile nesting that would be quadratic if every block were tracked (no hang)', () => {
    const deep = 'publishing { repositories { maven { url "https://deep.example" } } }\n' + 'a {\n'.repeat(50_000);
    expect(parseBuildScript(deep).repositories.map((r) => r.url)).toEqual(['https://deep.example']);
    expect(parseBuildScript('('.repeat(50_000) + '){'.repeat(50_000)).repositories).toEqual([]);
  });

  it('on a large script in linear time-ish (no hang)', () => {
    const big = `publishing { repositories { maven { url 'https://a.example' } } }\n`.repeat(20_000);
    expect(parseBuildScript(big).repositories).toHaveLength(20_000);
  });
});

describe('publishing settings and metadata URLs (issue 9)', () => {
  it('never takes a url inside pom {}, scm {}, licenses {} of a mavenDeployer for a repository', () => {
    const script = parseBuildScript(`
uploadArchives {
  repositories {
    mavenDeployer {
      repository(url: 'https://ossrh-staging-api.central.sonatype.com/service/local/staging/deploy/maven2/')
      pom.project {
        url 'https://github.com/example/lib'
        scm { url 'https://github.com/example/lib' }
        licenses { license { url 'https://opensource.org/licenses/MIT' } }
      }
    }
  }
}`);
    expect(script.repositories.map((r) => r.url)).toEqual(['https://ossrh-staging-api.central.sonatype.com/service/local/staging/deploy/maven2/']);
  });

  it('reads plugin versions, catalog aliases, the vanniktech host, JReleaser and in-memory signing', () => {
    const script = parseBuildScript(`
plugins {
  id("com.vanniktech.maven.publish") version "0.28.0"
  alias(libs.plugins.gretty)
  alias(libs.plugins.kotlin.jvm) apply false
}
mavenPublishing {
  publishToMavenCentral(SonatypeHost.S01)
}
jreleaser {
  deploy { maven { mavenCentral { create("sonatype") { active = "ALWAYS" } } } }
}
signing {
  useInMemoryPgpKeys(findProperty("signingKey") as String?, System.getenv("SIGNING_PASSWORD"))
}
version = computeVersion()
`);
    expect(script.plugins).toEqual([
      { id: 'com.vanniktech.maven.publish', line: 3, scope: { kind: 'self' }, version: '0.28.0' },
      { id: 'libs.plugins.gretty', alias: 'libs.plugins.gretty', line: 4, scope: { kind: 'self' } },
    ]);
    expect(script.centralHost).toEqual({ host: 'S01', line: 8 });
    expect(script.jreleaserMavenCentral).toBe(11);
    expect(script.inMemorySigning?.refs).toEqual([{ name: 'signingKey', env: false }, { name: 'SIGNING_PASSWORD', env: true }]);
    expect(script.versionComputed).toBe(16);
  });
});

describe('Kotlin-DSL shapes of real builds', () => {
  it('records plugins declared with apply false (ids and aliases, with versions), never as applied', () => {
    const script = parseBuildScript(`
plugins {
  alias(libs.plugins.mavenPublish) apply false
  id("com.vanniktech.maven.publish.base").version("0.25.3").apply(false)
  id("org.jetbrains.dokka") version "1.9.10" apply false
}
`);
    expect(script.plugins).toEqual([]);
    expect(script.declaredPlugins).toEqual([
      { alias: 'libs.plugins.mavenPublish' },
      { id: 'com.vanniktech.maven.publish.base', version: '0.25.3' },
      { id: 'org.jetbrains.dokka', version: '1.9.10' },
    ]);
  });

  it('reads plugins a Kotlin class of the build logic applies', () => {
    const script = parseBuildScript('class P : Plugin<Project> {\n  override fun apply(target: Project) {\n    target.plugins.apply("com.vanniktech.maven.publish")\n  }\n}\n');
    expect(script.plugins.map((p) => [p.id, p.line])).toEqual([['com.vanniktech.maven.publish', 3]]);
  });

  it('reads the Kotlin reified and class forms of apply', () => {
    const script = parseBuildScript('subprojects {\n  apply<WarPlugin>()\n  plugins.apply(MavenPublishPlugin::class.java)\n}\n');
    expect(script.plugins.map((p) => [p.id, p.scope.kind])).toEqual([
      ['war', 'subprojects'],
      ['maven-publish', 'subprojects'],
    ]);
  });

  it("reads a Kotlin tag template written with \${'$'} or \\$", () => {
    expect(parseBuildScript('release {\n  tagTemplate.set("v${\'$\'}{version}")\n}\n').tagTemplate).toBe('v${version}');
    expect(parseBuildScript('release {\n  tagTemplate = "v\\$version"\n}\n').tagTemplate).toBe('v$version');
  });

  it('reads precompiled-plugin accessors as plugin ids', () => {
    const script = parseBuildScript('plugins {\n    buildsrc.convention.`kotlin-jvm`\n    buildsrc.convention.`mockk-publishing`\n}\n');
    expect(script.plugins.map((p) => p.id)).toEqual(['buildsrc.convention.kotlin-jvm', 'buildsrc.convention.mockk-publishing']);
  });

  it('follows a URL variable whose value a provider {} block chooses, release and snapshot alike', () => {
    const script = parseBuildScript(`
val repoUrl: Provider<String> = provider {
    if (version.toString().endsWith("SNAPSHOT")) {
        "https://oss.sonatype.org/content/repositories/snapshots/"
    } else {
        "https://oss.sonatype.org/service/local/staging/deploy/maven2/"
    }
}
publishing { repositories { maven { url = uri(repoUrl) } } }
`);
    expect(script.repositories.map((r) => [r.url, r.kind, r.line])).toEqual([
      ['https://oss.sonatype.org/content/repositories/snapshots/', 'snapshot', 9],
      ['https://oss.sonatype.org/service/local/staging/deploy/maven2/', 'release', 9],
    ]);
  });

  it('treats the nexus plugin repository create("sonatype") like sonatype(): the retired default unless nexusUrl is set', () => {
    const bare = parseBuildScript('nexusPublishing {\n  repositories {\n    create("sonatype") {\n      username.set("u")\n    }\n  }\n}\n');
    expect(bare.repositories).toEqual([{ url: nexusSonatypeDefault, kind: 'release', line: 3, implicit: true, nexus: true, nexusRepository: 'sonatype' }]);
    const set = parseBuildScript('nexusPublishing {\n  repositories {\n    register("sonatype") {\n      nexusUrl = uri("https://ossrh-staging-api.central.sonatype.com/service/local/")\n    }\n  }\n}\n');
    expect(set.repositories.map((r) => r.url)).toEqual(['https://ossrh-staging-api.central.sonatype.com/service/local/']);
  });

  it('reads a retired host written with a templated path, and configure<PublishingExtension> as publishing', () => {
    const script = parseBuildScript(`
subprojects {
  configure<PublishingExtension> {
    repositories {
      maven { url = uri("https://s01.oss.sonatype.org/$suffix") }
      maven { url = uri("https://repo.example.com/\${'$'}{name}") }
    }
  }
}
`);
    expect(script.repositories.map((r) => [r.url, r.line])).toEqual([['https://s01.oss.sonatype.org/$suffix', 5]]);
  });

  it('reads the version from a delegated property, or set as project.version', () => {
    const script = parseBuildScript('val releaseVersion: String by project\nallprojects {\n  version = releaseVersion\n}\n');
    expect(script.versionProperty).toEqual({ name: 'releaseVersion', line: 3 });
    expect(parseBuildScript('project.version = "2.0.0-SNAPSHOT"\n').version).toEqual({ value: '2.0.0-SNAPSHOT', line: 1 });
  });

  it('reads the io.codearte nexus-staging serverUrl, and its retired default when unset', () => {
    const set = parseBuildScript('nexusStaging {\n    serverUrl = "https://s01.oss.sonatype.org/service/local/"\n}\n');
    expect(set.repositories).toEqual([{ url: 'https://s01.oss.sonatype.org/service/local/', kind: 'release', line: 2, nexus: true, nexusStaging: true }]);
    const unset = parseBuildScript('nexusStaging {\n    packageGroup = "io.example"\n}\n');
    expect(unset.repositories).toEqual([{ url: nexusSonatypeDefault, kind: 'release', line: 1, implicit: true, nexus: true, nexusStaging: true }]);
  });

  it('reads the version the vanniktech coordinates(...) publish, positional or named, constant only', () => {
    expect(parseBuildScript('mavenPublishing {\n  coordinates("io.example", "lib", "1.2.0-SNAPSHOT")\n}\n').coordinatesVersion).toEqual({ value: '1.2.0-SNAPSHOT', line: 2 });
    expect(parseBuildScript('mavenPublishing {\n  coordinates(groupId = "g", version = "2.0.0")\n}\n').coordinatesVersion).toEqual({ value: '2.0.0', line: 2 });
    expect(parseBuildScript('mavenPublishing {\n  coordinates("g", "a", version.toString())\n}\n').coordinatesVersion).toBeUndefined();
  });

  it("reads JReleaser's nexus2 deployer URLs, not its mavenCentral deployer's API URL", () => {
    const script = parseBuildScript(`
jreleaser {
  deploy {
    maven {
      mavenCentral { create("central") { url = "https://central.sonatype.com/api/v1/publisher" } }
      nexus2 {
        create("ossrh") {
          url.set("https://s01.oss.sonatype.org/service/local")
          snapshotUrl = "https://s01.oss.sonatype.org/content/repositories/snapshots/"
        }
      }
    }
  }
}
`);
    expect(script.repositories.map((r) => [r.url, r.kind, r.line, r.jreleaserNexus2])).toEqual([
      ['https://s01.oss.sonatype.org/service/local', 'release', 8, true],
      ['https://s01.oss.sonatype.org/content/repositories/snapshots/', 'snapshot', 9, true],
    ]);
  });

  it('names the Gradle property a computed version reads', () => {
    for (const expr of ['providers.gradleProperty("libraryVersion").get()', 'property("libraryVersion") as String', 'project.findProperty("libraryVersion").toString()']) {
      expect(parseBuildScript(`version = ${expr}\n`).versionProperty).toEqual({ name: 'libraryVersion', line: 1 });
    }
    expect(parseBuildScript('version = property("base") as String + "-SNAPSHOT"\n').versionProperty).toBeUndefined();
    expect(parseBuildScript('version = "1.0-" + property("x")\n').versionProperty).toBeUndefined();
    expect(parseBuildScript('allprojects {\n  version = libs.versions.coil.lite.get()\n}\n').versionCatalogKey).toEqual({ key: 'coil.lite', line: 2 });
  });
});
