import { describe, expect, it } from 'vitest';
import type { GitFacts } from '../io/git.js';
import type { ProjectFacts, ReleaseFacts } from './facts.js';
import type { RouteKind } from './route-types.js';
import { repoDetachedHead, repoDirtyWorktree } from './repo-git.js';
import { repoNotSnapshot, repoOrphanTag } from './repo-version.js';
import { runChecks } from './run-checks.js';

function git(over: Partial<GitFacts> = {}): GitFacts {
  return { isRepository: true, branch: 'main', detached: false, headCommit: 'a'.repeat(40), dirtyFiles: [], tags: [], ...over };
}
function facts(over: { git?: GitFacts; release?: ReleaseFacts; buildTool?: 'maven' | 'gradle'; route?: RouteKind } = {}): ProjectFacts {
  const f: ProjectFacts = {
    root: '/p',
    buildTool: over.buildTool ?? 'maven',
    gatherFindings: [],
    git: over.git ?? git(),
    release: over.release ?? { currentVersion: '1.2.3-SNAPSHOT', artifactId: 'demo', groupId: 'org.example', versionFile: 'pom.xml', versionLine: 6 },
  };
  if (over.route !== undefined) f.route = { kind: over.route, evidence: [] };
  return f;
}
const all = [repoDirtyWorktree, repoDetachedHead, repoNotSnapshot, repoOrphanTag];

describe('dirty-worktree', () => {
  it('fires listing the first changed paths', () => {
    const paths = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
    const [f] = repoDirtyWorktree.run(facts({ git: git({ dirtyFiles: paths }) }));
    expect(f).toMatchObject({ code: 'dirty-worktree', severity: 'error' });
    expect(f!.message).toContain('7 uncommitted changes (a, b, c, d, e and 2 more)');
  });
  it('does not fire on a clean tree', () => {
    expect(repoDirtyWorktree.run(facts())).toEqual([]);
  });
});

describe('detached-head', () => {
  it('fires with the short commit', () => {
    const [f] = repoDetachedHead.run(facts({ git: git({ detached: true, branch: undefined }) }));
    expect(f).toMatchObject({ code: 'detached-head', severity: 'error' });
    expect(f!.message).toContain('a'.repeat(12));
  });
  it('does not fire on a branch', () => {
    expect(repoDetachedHead.run(facts())).toEqual([]);
  });
});

describe('outside a git repository', () => {
  it('no repository finding at all, even with a release tag name computed', () => {
    const found = runChecks(all, facts({ git: { isRepository: false, detached: false, dirtyFiles: [], tags: [] } }), { offline: true });
    expect(found).toEqual([]);
  });
});

describe('not-snapshot', () => {
  it('fires on a release version and on a version that is no X.Y.Z at all, at the declaring line', () => {
    const [f] = repoNotSnapshot.run(facts({ release: { currentVersion: '1.2.3', artifactId: 'demo', groupId: 'g', versionFile: 'pom.xml', versionLine: 6 } }));
    expect(f).toMatchObject({ code: 'not-snapshot', severity: 'error', file: 'pom.xml', line: 6, module: 'g:demo' });
    expect(f!.fix).toContain('1.2.3-SNAPSHOT');
    expect(repoNotSnapshot.run(facts({ release: { currentVersion: '1.2-rc1' } }))).toHaveLength(1);
  });
  it('fires for a Gradle build that declares no version', () => {
    const [f] = repoNotSnapshot.run(facts({ buildTool: 'gradle', route: 'staging-api', release: { artifactId: 'demo' } }));
    expect(f!.message).toContain('declares no version');
    expect(f!.module).toBe(':');
  });
  it('stays quiet for a Gradle build with neither a version nor any way of publishing (a deployment skeleton)', () => {
    expect(repoNotSnapshot.run(facts({ buildTool: 'gradle', route: 'unknown', release: { artifactId: 'uPortal-start' } }))).toEqual([]);
    expect(repoNotSnapshot.run(facts({ buildTool: 'gradle', route: 'unknown', release: { artifactId: 'x', currentVersion: '1.0.0' } }))).toHaveLength(1);
  });
  it('does not fire on X.Y.Z-SNAPSHOT, nor on other snapshot shapes real projects use', () => {
    expect(repoNotSnapshot.run(facts())).toEqual([]);
    for (const currentVersion of ['4.13-SNAPSHOT', '1.7.22-8-SNAPSHOT', 'HEAD-jre-SNAPSHOT', '999999-SNAPSHOT']) {
      expect(repoNotSnapshot.run(facts({ release: { currentVersion } }))).toEqual([]);
    }
  });
  it('does not fire on a two-part snapshot such as 1.1-SNAPSHOT (a snapshot all the same)', () => {
    expect(repoNotSnapshot.run(facts({ release: { currentVersion: '1.1-SNAPSHOT', artifactId: 'demo' } }))).toEqual([]);
  });
});

describe('orphan-tag', () => {
  it('warns when the tag exists and the version is confirmed absent, naming the version released instead', () => {
    const f = facts({
      git: git({ tags: ['demo-1.2.2', 'demo-1.2.3'] }),
      release: { currentVersion: '1.2.3-SNAPSHOT', artifactId: 'demo', publishedVersions: { '1.2.3': false }, versionFile: 'pom.xml', versionLine: 6 },
    });
    const [w] = repoOrphanTag.run(f);
    expect(w).toMatchObject({ code: 'orphan-tag', severity: 'warning', file: 'pom.xml', line: 6 });
    expect(w!.message).toContain('demo-1.2.3 already exists but 1.2.3 is not published (public repository)');
    expect(w!.message).toContain('release 1.2.4 (tag demo-1.2.4)');
    expect(w!.fix).toContain('1.2.3 was prepared but not published');
  });

  it('still warns offline, saying publication could not be checked', () => {
    const f = facts({ git: git({ tags: ['demo-1.2.3'] }), release: { currentVersion: '1.2.3-SNAPSHOT', artifactId: 'demo', publishedUnknownReason: '--offline' } });
    const [w] = repoOrphanTag.run(f);
    expect(w!.message).toContain('could not be checked (--offline)');
    expect(w!.fix).toContain('without --offline');
  });

  it('uses the Gradle tag template', () => {
    const f = facts({ git: git({ tags: ['v1.2.3'] }), release: { currentVersion: '1.2.3-SNAPSHOT', artifactId: 'demo', tagTemplate: 'v$version' } });
    expect(repoOrphanTag.run(f)[0]!.message).toContain('v1.2.3 already exists');
  });

  it('plans any count of numeric parts (X.Y) in the configured tag form', () => {
    const two = facts({ git: git({ tags: ['r4.12', 'r4.13'] }), release: { currentVersion: '4.13-SNAPSHOT', artifactId: 'junit', tagTemplate: 'r@{project.version}', publishedUnknownReason: '--offline' } });
    const [w] = repoOrphanTag.run(two);
    expect(w!.message).toContain('The release tag r4.13 already exists');
    expect(w!.message).toContain('release 4.14 (tag r4.14)');
  });

  it('warns for snapshots the plan does not compute (X.Y.Z-N) and leaves the next version to the maintainer', () => {
    const build = facts({ git: git({ tags: ['demo-1.7.22-8'] }), release: { currentVersion: '1.7.22-8-SNAPSHOT', artifactId: 'demo', publishedVersions: { '1.7.22-8': false } } });
    expect(repoOrphanTag.run(build)[0]!.message).toContain('but 1.7.22-8 is not published (public repository)');
    expect(repoOrphanTag.run(facts({ git: git({ tags: ['r4.12'] }), release: { currentVersion: '4.13-SNAPSHOT', artifactId: 'junit', tagTemplate: 'r@{project.version}' } }))).toEqual([]);
  });

  it('does not warn when the tag is absent, or when the tagged version is published (not an orphan)', () => {
    expect(repoOrphanTag.run(facts({ git: git({ tags: ['demo-1.2.2', 'other-1.2.3'] }) }))).toEqual([]);
    const published = facts({ git: git({ tags: ['demo-1.2.3'] }), release: { currentVersion: '1.2.3-SNAPSHOT', artifactId: 'demo', publishedVersions: { '1.2.3': true } } });
    expect(repoOrphanTag.run(published)).toEqual([]);
  });
});
