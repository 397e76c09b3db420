import { describe, expect, it } from 'vitest';
import type { GradleFacts, GradlePomEntryFact, GradleProjectFacts } from '../build-tools/gradle/facts.js';
import type { ProjectFacts } from './facts.js';
import { gradleEmptyPomEntries } from './gradle-pom-entries.js';
import { detectRoute } from './route.js';

function entry(over: Partial<GradlePomEntryFact>): GradlePomEntryFact {
  return { kind: 'developer', line: 14, present: [], blank: [], file: 'lib/build.gradle.kts', ...over };
}
function project(path: string, pomEntries: GradlePomEntryFact[], over: Partial<GradleProjectFacts> = {}): GradleProjectFacts {
  return { path, dir: path === ':' ? '.' : path.slice(1), dirExists: true, plugins: [{ id: 'maven-publish', file: 'build.gradle', line: 1, scope: 'self' }], repositories: [], hasWebapp: false, pomEntries, ...over };
}
function facts(projects: GradleProjectFacts[], repoUrl?: string): ProjectFacts {
  const repositories = repoUrl === undefined ? [] : [{ url: repoUrl, kind: 'release' as const, file: 'build.gradle', line: 3 }];
  const gradle: GradleFacts = {
    rootProjectName: 'demo',
    projects: [project(':', [], { repositories }), ...projects],
    user: { file: '/h/.gradle/gradle.properties', display: '~/.gradle/gradle.properties', state: 'ok', keys: [], tokenFromEnv: false },
    stagingApiUrl: 'https://ossrh-staging-api.central.sonatype.com',
    publishing: {},
  };
  const f: ProjectFacts = { root: '/p', buildTool: 'gradle', gatherFindings: [], gradle };
  return { ...f, route: detectRoute(f) };
}

describe('developer-empty / license-empty (Gradle)', () => {
  it('reports an empty developer and license at their opener, with the project path as module', () => {
    const found = gradleEmptyPomEntries.run(
      facts([
        project(':lib', [
          entry({ kind: 'license', line: 8, present: ['distribution'] }),
          entry({ line: 14, present: ['email'], email: 'jane@example.org' }),
        ]),
      ]),
    );
    expect(found.map((f) => [f.code, f.severity, f.file, f.line, f.module])).toEqual([
      ['license-empty', 'error', 'lib/build.gradle.kts', 8, ':lib'],
      ['developer-empty', 'error', 'lib/build.gradle.kts', 14, ':lib'],
    ]);
    expect(found[1]!.message).toContain('only email jane@example.org');
    expect(found[1]!.fix).toContain('name.set("Jane Doe")');
  });

  it('names blank literals and the root block the entry is written in; Groovy files get the Groovy fix', () => {
    const [f] = gradleEmptyPomEntries.run(facts([project(':', [entry({ file: 'build.gradle', line: 30, blank: ['id', 'name'], scopeBlock: 'subprojects' })])]));
    expect(f!.message).toContain('written in subprojects { }');
    expect(f!.message).toContain('id, name are set to an empty value');
    expect(f!.fix).toContain("name = 'Jane Doe'");
  });

  it('says nothing about entries that name something, computed values, or blocks it could not read', () => {
    const entries = [
      entry({ present: ['name'] }),
      entry({ present: ['organization', 'email'] }),
      entry({ kind: 'license', present: ['url'] }),
      entry({ blank: ['name'], unknown: true }),
    ];
    expect(gradleEmptyPomEntries.run(facts([project(':lib', entries)]))).toEqual([]);
  });

  it('does not apply Central rules to a build publishing elsewhere', () => {
    const f = facts([project(':lib', [entry({})])], 'https://maven.pkg.github.com/acme/demo');
    expect(f.route?.kind).toBe('other');
    expect(gradleEmptyPomEntries.run(f)).toEqual([]);
  });
});

describe('developer-empty / license-empty (Gradle): what could not be judged', () => {
  it('lists each project whose build file was not found, for both codes', () => {
    const missing = project(':api', [], { buildFileMissing: { lookedFor: ['api/api.gradle.kts'], why: 'settings.gradle.kts names api.gradle.kts, which does not exist' } });
    const skipped = gradleEmptyPomEntries.skipped!(facts([missing, project(':lib', [])]));
    expect(skipped.map((s) => [s.check, s.module])).toEqual([
      ['developer-empty', ':api'],
      ['license-empty', ':api'],
    ]);
    expect(skipped[0]!.why).toContain('no build file for :api');
  });
});
