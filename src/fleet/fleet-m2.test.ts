import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir, writeTree } from '../../test/helpers/temp.js';
import { FleetM2 } from './fleet-m2.js';
import type { BuiltPom } from './pom-index.js';

describe("the fleet's own local repository", () => {
  it('removes only what lies inside it, whatever a hand-edited journal names', async () => {
    await using t = await tempDir();
    const workdir = path.join(t.path, 'work');
    await writeTree(t.path, { 'outside/keep.pom': 'mine', 'work/.relctl/m2/org/acme/lib/1/lib-1.pom': 'installed' });
    const outside = path.relative(path.join(workdir, '.relctl', 'm2'), path.join(t.path, 'outside'));
    const journal = { 'acme/lib': { version: '1', paths: ['org/acme/lib/1', outside, `${outside}/keep.pom`, path.join(t.path, 'outside'), '/etc', '.', 'org/../..'] }, 'acme/odd': { version: '1', paths: 'outside' } };
    await writeFile(path.join(workdir, '.relctl', 'rehearsed.json'), JSON.stringify(journal));
    await new FleetM2(workdir).forget(['acme/lib', 'acme/odd']);
    expect(await readFile(path.join(t.path, 'outside', 'keep.pom'), 'utf8')).toBe('mine');
    expect(await readdir(path.join(workdir, '.relctl', 'm2', 'org', 'acme', 'lib'))).toEqual([]);
    expect(await readdir(path.join(workdir, '.relctl', 'm2'))).toEqual(['org']);
  });

  it('installs nothing for coordinates Maven refuses', async () => {
    await using t = await tempDir();
    const workdir = path.join(t.path, 'work');
    const released = path.join(t.path, 'released');
    const hostile: BuiltPom = { repo: 'evil/lib', file: 'pom.xml', groupId: 'org.evil', artifactId: '../../outside', version: '1-SNAPSHOT' };
    // What the release would hold for it, had relctl followed the coordinates: released/outside/1.
    await mkdir(path.join(released, 'outside', '1'), { recursive: true });
    await writeFile(path.join(t.path, 'pom.xml'), '<project/>');
    const installed = await new FleetM2(workdir).install('evil/lib', '1', released, [{ pom: hostile, file: path.join(t.path, 'pom.xml') }]);
    expect(installed).toEqual([]);
    expect((await readdir(t.path)).sort()).toEqual(['pom.xml', 'released', 'work']);
    expect(await readdir(path.join(workdir, '.relctl'))).toEqual(['rehearsed.json']);
  });
});
