import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectPrepGoals, reactorPomTexts } from '../../src/build-tools/maven-release.js';
import { localRepoFor } from '../../src/build-tools/maven/settings.js';
import { tempDir, writeTree } from '../helpers/temp.js';

const plugin = (artifactId: string): string => `<build><plugins><plugin><artifactId>${artifactId}</artifactId></plugin></plugins></build>`;

/** The release chain reads the reactor through the POM model, as preflight does, not by regex. */
describe('the release chain reads the reactor through the POM model', () => {
  it('walks only the modules the model lists: a commented-out <module> and its parent are not read', async () => {
    await using t = await tempDir();
    const repo = path.join(t.path, 'repo');
    await writeTree(t.path, {
      'p/pom.xml': `<project>
        <!-- <parent><groupId>org.eco</groupId><artifactId>eco-parent</artifactId><version>1</version></parent> -->
        <groupId>org.x</groupId><artifactId>root</artifactId><version>1.0.0-SNAPSHOT</version><packaging>pom</packaging>
        <modules>
          <module>core</module>
          <!-- <module>legacy</module> -->
        </modules>
      </project>`,
      'p/core/pom.xml': `<project><groupId>org.x</groupId><artifactId>core</artifactId><version>1.0.0-SNAPSHOT</version></project>`,
      'p/legacy/pom.xml': `<project><groupId>org.x</groupId><artifactId>legacy</artifactId><version>1</version>${plugin('maven-javadoc-plugin')}</project>`,
      'repo/org/eco/eco-parent/1/eco-parent-1.pom': `<project><groupId>org.eco</groupId><artifactId>eco-parent</artifactId><version>1</version>${plugin('license-maven-plugin')}</project>`,
    });
    const root = path.join(t.path, 'p');
    expect(await reactorPomTexts(root)).toHaveLength(2);
    expect(await detectPrepGoals(root, repo)).toEqual([]);
  });

  it('reads the parent named by the model from the local repository', async () => {
    await using t = await tempDir();
    const repo = path.join(t.path, 'repo');
    await writeTree(t.path, {
      'p/pom.xml': `<project><parent><groupId>org.eco</groupId><artifactId>eco-parent</artifactId><version>1</version></parent><artifactId>root</artifactId></project>`,
      'repo/org/eco/eco-parent/1/eco-parent-1.pom': `<project><groupId>org.eco</groupId><artifactId>eco-parent</artifactId><version>1</version>${plugin('license-maven-plugin')}</project>`,
    });
    expect((await detectPrepGoals(path.join(t.path, 'p'), repo)).map((g) => g.id)).toEqual(['license']);
  });

  it("looks up the parent in the settings' <localRepository>, as preflight does, unless --local-repo says otherwise", async () => {
    await using t = await tempDir();
    const home = path.join(t.path, 'h');
    await writeTree(t.path, {
      'h/.m2/settings.xml': `<settings><localRepository>\${user.home}/elsewhere</localRepository></settings>`,
      'p/pom.xml': `<project><parent><groupId>org.eco</groupId><artifactId>eco-parent</artifactId><version>1</version></parent><artifactId>root</artifactId></project>`,
      'h/elsewhere/org/eco/eco-parent/1/eco-parent-1.pom': `<project><groupId>org.eco</groupId><artifactId>eco-parent</artifactId><version>1</version>${plugin('license-maven-plugin')}</project>`,
    });
    const repo = await localRepoFor({ env: { HOME: home }, home });
    expect(repo).toBe(path.join(home, 'elsewhere'));
    expect((await detectPrepGoals(path.join(t.path, 'p'), repo)).map((g) => g.id)).toEqual(['license']);
    expect(await localRepoFor({ localRepo: path.join(t.path, 'r'), env: { HOME: home }, home })).toBe(path.join(t.path, 'r'));
  });
});
