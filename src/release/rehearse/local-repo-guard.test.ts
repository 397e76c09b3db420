import { mkdir, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir, writeTree } from '../../../test/helpers/temp.js';
import { guardLocalRepo, journalName, restoreFromJournal } from './local-repo-guard.js';

describe('the local repository guard of a rehearsal', () => {
  it('puts back a version that existed (files and metadata), removes what the build added, keeps other versions', async () => {
    await using t = await tempDir();
    const repo = path.join(t.path, 'm2');
    const a = path.join(repo, 'org', 'example', 'lib');
    await writeTree(a, {
      '1.0.0/lib-1.0.0.jar': 'the real 1.0.0',
      '1.0.0/planted-marker.txt': 'mine',
      '0.9.0/lib-0.9.0.jar': 'older',
      'maven-metadata-central.xml': '<metadata>central</metadata>',
    });
    const backup = path.join(t.path, 'work', 'local-repo-backup');
    const guard = await guardLocalRepo(repo, [{ groupId: 'org.example', artifactId: 'lib' }, { groupId: 'org.example', artifactId: 'fresh' }, { groupId: 'org.example.newgroup', artifactId: 'x' }], ['1.0.0', '1.0.1-SNAPSHOT'], backup);
    // What a rehearsed release:perform does there.
    await writeFile(path.join(a, '1.0.0', 'lib-1.0.0.jar'), 'the rehearsal');
    await writeFile(path.join(a, '1.0.0', 'lib-1.0.0.jar.asc'), 'throwaway signature');
    await rm(path.join(a, '1.0.0', 'planted-marker.txt'));
    await writeFile(path.join(a, 'maven-metadata-central.xml'), '<metadata>sandbox</metadata>');
    await writeFile(path.join(a, 'resolver-status.properties'), 'x');
    await writeTree(path.join(repo, 'org', 'example', 'fresh'), { '1.0.0/fresh-1.0.0.jar': 'new', 'maven-metadata-local.xml': 'm' });
    await writeTree(path.join(repo, 'org', 'example', 'newgroup', 'x'), { '1.0.0/x-1.0.0.jar': 'new' });
    await guard.restore();
    expect((await readdir(path.join(a, '1.0.0'))).sort()).toEqual(['lib-1.0.0.jar', 'planted-marker.txt']);
    expect(await readFile(path.join(a, '1.0.0', 'lib-1.0.0.jar'), 'utf8')).toBe('the real 1.0.0');
    expect(await readFile(path.join(a, 'maven-metadata-central.xml'), 'utf8')).toBe('<metadata>central</metadata>');
    expect((await readdir(a)).sort()).toEqual(['0.9.0', '1.0.0', 'maven-metadata-central.xml']);
    expect(await stat(path.join(repo, 'org', 'example', 'fresh')).catch(() => undefined)).toBeUndefined();
    // A group folder the build created goes when nothing else is left in it; the user's stay.
    expect(await readdir(path.join(repo, 'org', 'example'))).toEqual(['lib']);
    expect(await readdir(backup)).not.toContain(journalName);
  });

  it('restoreFromJournal (a later run after a SIGKILL) restores from the backup alone; without a journal it does nothing', async () => {
    await using t = await tempDir();
    const repo = path.join(t.path, 'm2');
    const a = path.join(repo, 'g', 'a');
    await writeTree(a, { '2.0/a-2.0.pom': 'real' });
    const backup = path.join(t.path, 'backup');
    await guardLocalRepo(repo, [{ groupId: 'g', artifactId: 'a' }], ['2.0'], backup);
    await writeFile(path.join(a, '2.0', 'a-2.0.pom'), 'rehearsed');
    await restoreFromJournal(backup);
    expect(await readFile(path.join(a, '2.0', 'a-2.0.pom'), 'utf8')).toBe('real');
    await writeFile(path.join(a, '2.0', 'a-2.0.pom'), 'changed later by the user');
    await restoreFromJournal(backup);
    expect(await readFile(path.join(a, '2.0', 'a-2.0.pom'), 'utf8')).toBe('changed later by the user');
    await mkdir(path.join(t.path, 'empty'));
    await restoreFromJournal(path.join(t.path, 'empty'));
  });
});
