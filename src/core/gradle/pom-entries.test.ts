/** POM developer/license entries as real builds write them (Kotlin maven-publish, Groovy, vanniktech, the old maven plugin). */
import { describe, expect, it } from 'vitest';
import { parseBuildScript } from './build-script.js';
import { isEmptyPomEntry, type PomEntry } from './pom-entries.js';

function entries(text: string, kotlin = false): PomEntry[] {
  return parseBuildScript(text, new Map(), { kotlin }).pomEntries ?? [];
}
/** [kind, line, empty] of every entry. */
function judged(text: string, kotlin = false): [string, number, boolean][] {
  return entries(text, kotlin).map((e) => [e.kind, e.line, isEmptyPomEntry(e)]);
}

// The shape of a Kotlin maven-publish build (Fuyukai/Lura-Mods), with its entries varied per test.
const kotlinPublication = (developer: string, license: string): string => `plugins { \`maven-publish\` }
publishing {
    publications.create<MavenPublication>("maven") {
        from(components["java"])
        pom {
            name.set(project.name)
            licenses {
                license {
${license}
                }
            }
            developers {
                developer {
${developer}
                }
            }
        }
    }
}`;

describe('pomEntries: Kotlin DSL', () => {
  it('reads complete entries as not empty, at the line of their opener', () => {
    const text = kotlinPublication('id.set("fuyukai")\nname.set("Lura Skye")\nurl.set("https://veriny.tf")', 'name.set("MPL-2.0")\nurl.set("https://www.mozilla.org/en-US/MPL/2.0/")');
    expect(judged(text, true)).toEqual([
      ['license', 8, false],
      ['developer', 14, false],
    ]);
    expect(entries(text, true)[1]!.present).toEqual(['id', 'name', 'url']);
  });

  it('calls a developer with only an e-mail address empty, and a license with only its url fine', () => {
    const text = kotlinPublication('email.set("jane@example.org")', 'url.set("https://opensource.org/licenses/MIT")');
    const [license, developer] = entries(text, true);
    expect(isEmptyPomEntry(license!)).toBe(false);
    expect(isEmptyPomEntry(developer!)).toBe(true);
    expect(developer!.email).toBe('jane@example.org');
  });

  it('counts whitespace-only and null literals as missing, in every way of setting them', () => {
    const text = kotlinPublication('id = "  "\nname.set("")\norganization.set(null)', 'name = " "\nurl.set("\\t")');
    expect(judged(text, true).map(([, , empty]) => empty)).toEqual([true, true]);
    expect(entries(text, true)[1]!.blank).toEqual(['id', 'name', 'organization']);
  });

  it('counts computed values as present: a variable, a property lookup, an interpolated string, a concatenation', () => {
    for (const value of ['name.set(devName)', 'id.set(project.property("dev.id") as String)', 'name = "${rootProject.name} team"', 'organization.set(providers.gradleProperty("POM_DEVELOPER_ORG"))', 'name.set("Jane" + suffix)', 'this.id.set(id)']) {
      expect(judged(kotlinPublication(value, 'name.set(licenseName)'), true)).toEqual([
        ['license', 8, false],
        ['developer', 13, false],
      ]);
    }
  });

  it('does not judge a block it cannot read: a condition, a loop, a typed closure parameter', () => {
    expect(judged(kotlinPublication('if (release) {\nname.set("Jane")\n}', 'apache2()'), true).map(([, , empty]) => empty)).toEqual([false, false]);
    const typed = `publishing { publications { maven(MavenPublication) { pom {
    developers {
        it.developer { MavenPomDeveloper d -> d.name.set('x') }
        developer { MavenPomDeveloper d -> d.email.set('x@example.org') }
    }
} } } }`;
    expect(judged(typed)).toEqual([['developer', 4, false]]);
  });

  it("reads vanniktech's mavenPublishing { pom { } }", () => {
    const text = `mavenPublishing {
    publishToMavenCentral()
    pom {
        developers {
            developer {
                email = "dev@example.org"
            }
        }
    }
}`;
    expect(judged(text, true)).toEqual([['developer', 5, true]]);
  });
});

describe('pomEntries: Groovy DSL', () => {
  it("reads name 'x', name = 'x', name.set('x'), name('x') and setName 'x' alike", () => {
    for (const setting of ["name 'Jane'", "name = 'Jane'", "name.set('Jane')", "name('Jane')", "setName 'Jane'", 'id "jdoe"']) {
      const text = `publishing { publications { mavenJava(MavenPublication) { pom {
    developers {
        developer {
            ${setting}
            email 'jane@example.org'
        }
    }
} } } }`;
      expect(judged(text)).toEqual([['developer', 3, false]]);
    }
  });

  it('reads one-line entries and an empty block, keeping each entry to its own block', () => {
    const text = `publishing {
  publications {
    mavenJava(MavenPublication) {
      pom {
        licenses { license { name 'Apache-2.0'; url 'https://www.apache.org/licenses/LICENSE-2.0.txt' } }
        developers {
          developer {}
          developer { id 'jdoe'; name 'Jane Doe' }
          developer { email 'x@example.org'; roles { role 'maintainer' } }
        }
      }
    }
  }
}`;
    expect(judged(text)).toEqual([
      ['license', 5, false],
      ['developer', 7, true],
      ['developer', 8, false],
      ['developer', 9, true],
    ]);
  });

  it("reads the old maven plugin's pom.project { } and a root subprojects { } block, naming the scope", () => {
    const text = `subprojects {
    uploadArchives {
        repositories {
            mavenDeployer {
                pom.project {
                    licenses {
                        license {
                            distribution 'repo'
                        }
                    }
                }
            }
        }
    }
}`;
    const [license] = entries(text);
    expect(isEmptyPomEntry(license!)).toBe(true);
    expect([license!.line, license!.scopeBlock]).toEqual([7, 'subprojects']);
  });

  it('leaves the withXml node builder and closures outside a pom { } alone', () => {
    const text = `def pomConfig = {
    developers { developer { email 'x@example.org' } }
}
publishing { publications { mavenJava(MavenPublication) {
    pom.withXml { asNode().children().last() + { developers { developer { email 'y@example.org' } } } }
} } }`;
    expect(entries(text)).toEqual([]);
  });
});
