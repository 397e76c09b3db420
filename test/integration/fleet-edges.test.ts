import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { bareRepo } from '../helpers/fleet.js';
import { gitEnv, tempDir, type TempDir } from '../helpers/temp.js';

/**
 * Verdicts at the edges (DESIGN §13, issue 43 item 8): a repository that only tags its releases
 * with maven-release-plugin (uPortal's esup-filemanager: no distribution, no signing, no CI
 * deploy, its versions not on Central) publishes nothing; it is `not-published`, not blocked for a
 * missing distribution, and `fleet fix` proposes no change there.
 */
const taggedOnly = `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>org.esup</groupId>
  <artifactId>esup-filemanager</artifactId>
  <version>3.1.0-SNAPSHOT</version>
  <packaging>war</packaging>
  <name>esup-filemanager</name>
  <scm><developerConnection>scm:git:https://example.org/esup.git</developerConnection></scm>
  <build>
    <plugins>
      <plugin><artifactId>maven-release-plugin</artifactId><version>3.1.1</version></plugin>
    </plugins>
  </build>
</project>
`;

/** A reactor whose samples module skips deploy (never published) and whose lib module is published; neither names itself. */
const reactorPom = `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>org.acme</groupId>
  <artifactId>reactor</artifactId>
  <version>1.0.0-SNAPSHOT</version>
  <packaging>pom</packaging>
  <name>Reactor</name>
  <description>A reactor.</description>
  <url>https://example.org/reactor</url>
  <licenses><license><name>Apache-2.0</name><url>https://www.apache.org/licenses/LICENSE-2.0</url></license></licenses>
  <developers><developer><name>Jane Doe</name><email>jane@example.org</email></developer></developers>
  <scm><url>https://example.org/reactor</url><connection>scm:git:https://example.org/reactor.git</connection></scm>
  <modules><module>lib</module><module>samples</module></modules>
</project>
`;
const modulePom = (artifactId: string, own: string): string => `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <parent><groupId>org.acme</groupId><artifactId>reactor</artifactId><version>1.0.0-SNAPSHOT</version></parent>
  <artifactId>${artifactId}</artifactId>${own}
</project>
`;

describe('relctl fleet at the edges', () => {
  let tmp: TempDir;
  let home: string;
  let repos: string;
  const cli = (...args: string[]) => runCli(['fleet', ...args, '--repos', repos, '--workdir', path.join(tmp.path, 'work'), '--offline'], { cwd: tmp.path, home, env: gitEnv(home) });

  beforeAll(async () => {
    tmp = await tempDir('relctl-fleet-edges-');
    home = path.join(tmp.path, 'home');
    const root = path.join(tmp.path, 'git');
    await bareRepo(root, home, 'esup/esup-filemanager', [{ files: { 'pom.xml': taggedOnly.replace('3.1.0-SNAPSHOT', '3.0.0') }, tag: 'esup-filemanager-3.0.0' }, { files: { 'pom.xml': taggedOnly } }]);
    await bareRepo(root, home, 'acme/reactor', [
      { files: { 'pom.xml': reactorPom, 'lib/pom.xml': modulePom('lib', ''), 'samples/pom.xml': modulePom('samples', '\n  <properties><maven.deploy.skip>true</maven.deploy.skip></properties>') } },
    ]);
    await writeFile(path.join(tmp.path, 'reactor.txt'), `acme/reactor ${path.join(root, 'acme/reactor.git')}\n`);
    repos = path.join(tmp.path, 'repos.txt');
    await writeFile(repos, `esup/esup-filemanager ${path.join(root, 'esup/esup-filemanager.git')}\n`);
  });
  afterAll(async () => {
    await tmp[Symbol.asyncDispose]();
  });

  it('a repository that maven-release-plugin only tags is not-published, and fleet fix changes nothing there', async () => {
    const audit = await cli('audit', '--json');
    expect(audit.exitCode, audit.stderr).toBe(0);
    const report = JSON.parse(audit.stdout) as { repositories: { verdict: string; blocking: string[] }[]; summary: { nextSteps: unknown[] } };
    expect(report.repositories[0]).toMatchObject({ verdict: 'not-published', blocking: [] });
    expect(report.summary.nextSteps).toEqual([]);

    const fix = await cli('fix', '--dry-run', '--json');
    expect(fix.exitCode, fix.stderr).toBe(0);
    const fixed = JSON.parse(fix.stdout) as { repositories: { change?: { action: string; diff?: string } }[] };
    expect(fixed.repositories[0]!.change).toMatchObject({ action: 'none' });
    expect(fixed.repositories[0]!.change?.diff).toBeUndefined();
  });

  it('a module that skips deploy (never published) raises no <name> or metadata finding; a published one does', async () => {
    const audit = await runCli(['fleet', 'audit', '--repos', path.join(tmp.path, 'reactor.txt'), '--workdir', path.join(tmp.path, 'work-reactor'), '--offline', '--json'], { cwd: tmp.path, home, env: gitEnv(home) });
    const report = JSON.parse(audit.stdout) as { repositories: { name: string; findings: { code: string; module?: string; file?: string }[] }[] };
    const findings = report.repositories[0]!.findings;
    const about = (module: string) => findings.filter((f) => (f.module ?? '').includes(`:${module}:`) || (f.file ?? '').startsWith(`${module}/`)).map((f) => f.code);
    expect(about('lib'), JSON.stringify(findings)).toContain('missing-pom-metadata');
    expect(about('samples'), JSON.stringify(findings)).toEqual([]);
  });
});
