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
});
