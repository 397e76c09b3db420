import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { copyProject } from './workspace.js';

describe('copyProject (the rehearsal copy)', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'relctl-copy-'));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  async function put(rel: string): Promise<void> {
    await mkdir(path.dirname(path.join(root, 'src', rel)), { recursive: true });
    await writeFile(path.join(root, 'src', rel), 'x');
  }

  it('leaves out build output beside a build file, VCS data and the journal, and keeps Java packages named build or target', async () => {
    for (const f of ['pom.xml', 'target/a.jar', 'core/pom.xml', 'core/target/b.jar', 'gradle/build.gradle', 'gradle/build/libs/c.jar', '.git/HEAD', '.relctl/journal.json', 'core/src/main/java/org/x/build/Tool.java', 'core/src/main/java/org/x/target/Aim.java']) await put(f);
    await copyProject(path.join(root, 'src'), path.join(root, 'copy'));
    const files = (await readdir(path.join(root, 'copy'), { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).map((e) => path.relative(path.join(root, 'copy'), path.join(e.parentPath, e.name))).sort();
    expect(files).toEqual(['core/pom.xml', 'core/src/main/java/org/x/build/Tool.java', 'core/src/main/java/org/x/target/Aim.java', 'gradle/build.gradle', 'pom.xml']);
  });
});
