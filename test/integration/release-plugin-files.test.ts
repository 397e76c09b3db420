import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { changedFiles, dirtyFiles } from '../../src/io/git.js';
import { gitEnv, gitRepo, tempDir } from '../helpers/temp.js';

/**
 * After a release:perform that failed, the real maven-release-plugin leaves release.properties and
 * pom.xml.releaseBackup files in the tree (test/e2e/maven-release/resume.test.ts sees them). They are
 * not changes: `release --restart` must pass preflight's clean-tree check, and prep must not commit them.
 */
describe("the release plugin's working files", () => {
  it('are neither dirty nor part of a prep commit; other untracked files still are', async () => {
    await using t = await tempDir();
    const home = path.join(t.path, 'home');
    const dir = path.join(t.path, 'repo');
    await gitRepo(dir, home, { 'pom.xml': '<project/>', 'core/pom.xml': '<project/>' });
    for (const f of ['release.properties', 'pom.xml.releaseBackup', 'core/pom.xml.releaseBackup', 'pom.xml.next', 'pom.xml.tag']) {
      await writeFile(path.join(dir, f), 'x');
    }
    const env = gitEnv(home);
    expect(await dirtyFiles(dir, { env })).toEqual([]);
    expect(await changedFiles(dir, { env })).toEqual([]);
    await writeFile(path.join(dir, 'NOTICE'), 'x');
    expect(await dirtyFiles(dir, { env })).toEqual(['NOTICE']);
    expect(await changedFiles(dir, { env })).toEqual(['NOTICE']);
  });
});
