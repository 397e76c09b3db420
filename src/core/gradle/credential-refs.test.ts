import { describe, expect, it } from 'vitest';
import { parseBuildScript } from './build-script.js';

describe('publishing credentials a Gradle script reads', () => {
  it('reads getenv, environmentVariable, `?:` alternatives and Kotlin `by project` names', () => {
    const script = parseBuildScript(`
val signingKey: String? by project
nexusPublishing {
  repositories {
    sonatype {
      username.set(providers.environmentVariable("TOKEN_USER"))
      password.set(findProperty("tokenPass") as String? ?: System.getenv("TOKEN_PASS"))
    }
  }
}
signing {
  useInMemoryPgpKeys(signingKey, System.getenv("GPG_PASSPHRASE") ?: findProperty("signingPassword") as String?)
}
`);
    expect(script.credentials).toHaveLength(1);
    expect(script.credentials![0]).toMatchObject({
      kind: 'nexusPublishing',
      username: { refs: [{ name: 'TOKEN_USER', env: true }] },
      password: { refs: [{ name: 'tokenPass', env: false }, { name: 'TOKEN_PASS', env: true }] },
    });
    expect(script.inMemorySigning?.args).toEqual([[{ name: 'signingKey', env: false }], [{ name: 'GPG_PASSPHRASE', env: true }, { name: 'signingPassword', env: false }]]);
  });

  it('reads Groovy bare properties, local variables, System.env and project.x, with the repository URL', () => {
    const script = parseBuildScript(`
def user = project.findProperty('centralUser') ?: System.env.CENTRAL_USER
publishing {
  repositories {
    maven {
      url 'https://maven.pkg.github.com/o/r'
      credentials {
        username user
        password project.centralToken
      }
    }
  }
}
`);
    expect(script.credentials![0]).toMatchObject({
      kind: 'credentials',
      url: 'https://maven.pkg.github.com/o/r',
      username: { refs: [{ name: 'centralUser', env: false }, { name: 'CENTRAL_USER', env: true }] },
      password: { refs: [{ name: 'centralToken', env: false }] },
    });
  });

  it('maps credentials(PasswordCredentials::class) to <repository name>Username/Password, and leaves unreadable values empty', () => {
    const script = parseBuildScript(`
publishing {
  repositories {
    maven {
      name = "central"
      url = uri("https://ossrh-staging-api.central.sonatype.com/service/local/staging/deploy/maven2/")
      credentials(PasswordCredentials::class)
    }
  }
}
nmcp {
  publishAllPublications {
    username = Secrets.user()
    password = "literal"
  }
}
`);
    expect(script.credentials).toEqual([
      expect.objectContaining({ kind: 'nmcp', username: { refs: [], line: 13 }, password: { refs: [], line: 14 } }),
      expect.objectContaining({ kind: 'credentials', username: { refs: [{ name: 'centralUsername', env: false }], line: 7 }, password: { refs: [{ name: 'centralPassword', env: false }], line: 7 } }),
    ]);
  });

  it("names a gradle-nexus repository by its block, or by create(\"name\")", () => {
    const script = parseBuildScript(`
nexusPublishing {
  repositories {
    sonatype { nexusUrl.set(uri("https://ossrh-staging-api.central.sonatype.com/service/local/")) }
    create("corpNexus") { nexusUrl = uri("https://nexus.example.com/service/local/") }
  }
}
`);
    expect(script.repositories.map((r) => r.nexusRepository)).toEqual(['sonatype', 'corpNexus']);
  });

  it('reads the legacy uploadArchives authentication(userName:, password:)', () => {
    const script = parseBuildScript(`
uploadArchives {
  repositories {
    mavenDeployer {
      repository(url: "https://ossrh-staging-api.central.sonatype.com/service/local/staging/deploy/maven2/") {
        authentication(userName: ossrhUsername, password: project.properties["ossrhPassword"])
      }
    }
  }
}
`);
    expect(script.credentials![0]).toMatchObject({ username: { refs: [{ name: 'ossrhUsername', env: false }] }, password: { refs: [{ name: 'ossrhPassword', env: false }] } });
  });

  it('follows a Kotlin getter val of any case, and leaves function parameters unjudged', () => {
    const script = parseBuildScript(`
val SONATYPE_USER: String
    get() = findProperty("mavenCentralRepositoryUsername") as String? ?: ""
fun MavenArtifactRepository.central(user: String, pass: String) {
    credentials {
        username = user
        password = pass
    }
}
publishing {
    repositories {
        maven {
            credentials {
                username = SONATYPE_USER
                password = findProperty("mavenCentralRepositoryPassword") as String? ?: ""
            }
        }
    }
}
`);
    // The function's `credentials {}` is not inside `publishing {}`: not a publishing target.
    expect(script.credentials).toHaveLength(1);
    const [inRepository] = script.credentials!;
    expect(inRepository).toMatchObject({ username: { refs: [{ name: 'mavenCentralRepositoryUsername', env: false }] } });
  });

  it('does not take a java.util.Properties or System property for a Gradle property', () => {
    const script = parseBuildScript(`
val local = java.util.Properties().apply { load(rootProject.file("local.properties").inputStream()) }
publishing {
  repositories {
    maven {
      credentials {
        username = local.getProperty("ossrhUsername")
        password = System.getProperty("ossrh.password") ?: project.property("ossrhPassword") as String
      }
    }
  }
}
`);
    // The system property may supply the password: neither credential is judged.
    expect(script.credentials![0]).toMatchObject({ username: { refs: [] }, password: { refs: [] } });
  });

  it('names the extra properties set from a JVM system property (CAS: ext { sonatypeUsername = System.getProperty("sonatypeUsername") })', () => {
    const script = parseBuildScript(`ext {\n    sonatypeUsername = System.getProperty("sonatypeUsername")\n    publishReleases = Boolean.getBoolean("publishReleases")\n}\next.token = System.getProperty('ci.token')\ndef local = System.getProperty("local")`);
    expect(script.extSystemProperties).toEqual({ sonatypeUsername: 'sonatypeUsername', token: 'ci.token' });
  });

  it('ignores credentials of repositories that only download (top-level repositories {}), and reads a parameter as unknown', () => {
    const script = parseBuildScript(`
repositories {
  maven {
    url = uri("https://artifactory.example.com/libs")
    credentials { username = System.getenv("ARTIFACTORY_USER"); password = System.getenv("ARTIFACTORY_TOKEN") }
  }
}
fun publishTo(user: String) {
  publishing { repositories { maven { credentials { username = user; password = findProperty("p") as String? } } } }
}
`);
    expect(script.credentials).toEqual([expect.objectContaining({ username: { refs: [], line: 9 }, password: { refs: [{ name: 'p', env: false }], line: 9 } })]);
  });

  it('follows extra properties the script sets from the environment, in both branches, and knows what it cannot see', () => {
    const script = parseBuildScript(`
ext["ossrhUsername"] = ''
ext["ossrhPassword"] = ''
ext["signing.key"] = ''
File secretPropsFile = project.rootProject.file('local.properties')
if (secretPropsFile.exists()) {
    Properties p = new Properties()
    p.each { name, value -> ext[name] = value }
} else {
    ext["ossrhUsername"] = System.getenv('OSSRH_USERNAME')
    ext.ossrhPassword = System.getenv('OSSRH_PASSWORD')
    ext["signing.key"] = System.getenv('SIGNING_KEY')
}
nexusPublishing {
    repositories {
        sonatype {
            username = ossrhUsername
            password = rootProject.ext.ossrhPassword
        }
    }
}
signing {
    useInMemoryPgpKeys(rootProject.ext["signing.key"], rootProject.ext["signing.password"])
}
`);
    // local.properties may set any of them: nothing is judged.
    expect(script.credentials![0]).toMatchObject({ username: { refs: [] }, password: { refs: [] } });
    expect(script.inMemorySigning?.args).toEqual([[], []]);
    const fromEnvOnly = parseBuildScript(`
ext["ossrhUsername"] = System.getenv('OSSRH_USERNAME')
nexusPublishing { repositories { sonatype { username = ossrhUsername; password = rootProject.ext["ossrhPassword"] } } }
`);
    expect(fromEnvOnly.credentials![0]).toMatchObject({ username: { refs: [{ name: 'OSSRH_USERNAME', env: true }] }, password: { refs: [] } });
  });

  it('reads a bare name as a Gradle property in Groovy, but not in Kotlin (a buildSrc value there)', () => {
    const text = 'nexusPublishing { repositories { sonatype { username.set(sonatypeUser); password.set(findProperty("sonatypePass") as String?) } } }';
    expect(parseBuildScript(text).credentials![0]).toMatchObject({ username: { refs: [{ name: 'sonatypeUser', env: false }] } });
    expect(parseBuildScript(text, new Map(), { kotlin: true }).credentials![0]).toMatchObject({ username: { refs: [] }, password: { refs: [{ name: 'sonatypePass', env: false }] } });
  });
});
