import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { git, writeTree } from './temp.js';

/**
 * A small fleet of real git repositories, laid out as a git root (`ROOT/OWNER/NAME.git`, bare, as
 * `relctl sandbox --git-root` serves them) with a repos file beside it:
 *
 * - `acme/acme-parent` builds org.acme:acme-parent. Tag `acme-parent-1` deploys to the retired
 *   OSSRH host (the error every child inherits); its tip is 2-SNAPSHOT, fixed.
 * - `acme/child-waits` names parent 1, which only the tag has (not the tip, not Central): waits on the parent.
 * - `acme/child-own` names parent 1 but writes its own retired URL: blocked, its own fix.
 * - `acme/child-fixed` names parent 2-SNAPSHOT (the tip): ready.
 * - `acme/site` publishes nothing (a site: no distribution, no release plugin): not-published.
 * - `acme/gone` points at a path with no repository: error.
 */
export const stagingUrl = 'https://ossrh-staging-api.central.sonatype.com/service/local/staging/deploy/maven2/';
export const legacyUrl = 'https://oss.sonatype.org/service/local/staging/deploy/maven2/';

const metadata = `
  <description>A member of the acme fleet.</description>
  <url>https://example.org/acme</url>
  <licenses><license><name>Apache-2.0</name><url>https://www.apache.org/licenses/LICENSE-2.0.txt</url></license></licenses>
  <developers><developer><id>ann</id><name>Ann Acme</name><organization>Acme</organization><organizationUrl>https://example.org</organizationUrl></developer></developers>
  <scm><url>https://example.org/acme/git</url></scm>`;

export function parentPom(version: string, deployUrl: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>org.acme</groupId>
  <artifactId>acme-parent</artifactId>
  <version>${version}</version>
  <packaging>pom</packaging>
  <name>Acme parent</name>${metadata}
  <distributionManagement>
    <repository><id>central</id><url>${deployUrl}</url></repository>
  </distributionManagement>
</project>
`;
}

export function childPom(artifactId: string, parentVersion: string, own = ''): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <parent>
    <groupId>org.acme</groupId>
    <artifactId>acme-parent</artifactId>
    <version>${parentVersion}</version>
  </parent>
  <artifactId>${artifactId}</artifactId>
  <version>1.0.0-SNAPSHOT</version>
  <name>${artifactId}</name>${own}
</project>
`;
}

export const sitePom = `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>org.acme</groupId>
  <artifactId>acme-site</artifactId>
  <version>1</version>
  <packaging>pom</packaging>
  <name>Acme site</name>
</project>
`;

export interface Fleet {
  /** The git root: `ROOT/OWNER/NAME.git`. */
  root: string;
  /** `OWNER/NAME PATH` lines, `acme/gone` pointing at nothing. */
  reposFile: string;
  bare(name: string): string;
}

/** Makes a working repository, commits `steps` in order (tagging where asked), and pushes it into a bare one. */
export async function bareRepo(root: string, home: string, name: string, steps: { files: Record<string, string>; tag?: string }[]): Promise<string> {
  const work = path.join(`${root}.work`, name);
  const bare = path.join(root, `${name}.git`);
  await mkdir(work, { recursive: true });
  await git(work, home, 'init', '-q', '-b', 'main');
  for (const [i, step] of steps.entries()) {
    await writeTree(work, step.files);
    await git(work, home, 'add', '-A');
    await git(work, home, 'commit', '-q', '-m', `step ${i + 1}`);
    if (step.tag !== undefined) await git(work, home, 'tag', step.tag);
  }
  await mkdir(path.dirname(bare), { recursive: true });
  await git(root, home, 'clone', '-q', '--bare', work, bare);
  return bare;
}

export async function makeFleet(root: string, home: string): Promise<Fleet> {
  await bareRepo(root, home, 'acme/acme-parent', [
    { files: { 'pom.xml': parentPom('1', legacyUrl) }, tag: 'acme-parent-1' },
    { files: { 'pom.xml': parentPom('2-SNAPSHOT', stagingUrl) } },
  ]);
  await bareRepo(root, home, 'acme/child-waits', [{ files: { 'pom.xml': childPom('child-waits', '1') }, tag: 'child-waits-0.9.0' }]);
  const ownDistribution = `\n  <distributionManagement>\n    <repository><id>central</id><url>${legacyUrl}</url></repository>\n  </distributionManagement>`;
  await bareRepo(root, home, 'acme/child-own', [{ files: { 'pom.xml': childPom('child-own', '1', ownDistribution) } }]);
  await bareRepo(root, home, 'acme/child-fixed', [{ files: { 'pom.xml': childPom('child-fixed', '2-SNAPSHOT') } }]);
  await bareRepo(root, home, 'acme/site', [{ files: { 'pom.xml': sitePom, 'src/site/site.xml': '<project/>\n' } }]);
  const names = ['acme/acme-parent', 'acme/child-fixed', 'acme/child-own', 'acme/child-waits', 'acme/site'];
  const reposFile = path.join(root, 'repos.txt');
  const lines = [...names.map((n) => `${n} ${path.join(root, `${n}.git`)}`), '# a repository that is not there', `acme/gone ${path.join(root, 'acme/gone.git')}`];
  await writeFile(reposFile, lines.join('\n') + '\n');
  return { root, reposFile, bare: (name) => path.join(root, `${name}.git`) };
}
