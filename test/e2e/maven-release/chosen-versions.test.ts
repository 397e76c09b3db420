import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { git } from '../../helpers/temp.js';
import { releaseProps, remoteSubjects, remoteTags, sandboxState, tail, useWorld } from './fixture.js';

/**
 * `relctl release --release-version 2.0.0 --next-version 2.0.1-SNAPSHOT` (issue 27 item 7) with
 * the REAL maven-release-plugin, from a project on branch `master` (issue 27 item 2: the plugin
 * pushes that branch and release:perform clones the tag back from the remote): the versions reach
 * the plugin as releaseVersion/developmentVersion, the portal validates 2.0.0, and the build shows
 * its progress without a terminal (issue 27 item 4).
 */
const w = useWorld();

describe('relctl release with named versions, on branch master, with the real release plugin', () => {
  it('releases 2.0.0 from 1.0.0-SNAPSHOT, leaves 2.0.1-SNAPSHOT, and shows the goal and module as it builds', async () => {
    const p = await w.project({ name: 'chosen', branch: 'master' });
    const r = await p.relctl(['release', '--yes', '--json', '--release-version', '2.0.0', '--next-version', '2.0.1-SNAPSHOT']);
    expect(r.exitCode, r.stderr).toBe(0);
    const summary = JSON.parse(r.stdout) as { context: Record<string, unknown> };
    expect(summary.context).toMatchObject({ version: '2.0.0', nextVersion: '2.0.1-SNAPSHOT', tag: 'e2e-parent-2.0.0', firstRelease: true, deploymentState: 'VALIDATED' });

    const props = releaseProps('2.0.0', '2.0.1-SNAPSHOT', 'e2e-parent-2.0.0');
    expect((await p.calls()).slice(1)).toEqual([
      ['-B', 'release:clean', ...props, ...tail(p)],
      ['-B', 'release:prepare', ...props, ...tail(p)],
      ['-B', 'release:perform', ...props, ...tail(p)],
    ]);
    // The plugin pushed branch master and the tag; the project is at the named development version.
    expect(await remoteTags(p)).toEqual(['e2e-parent-2.0.0']);
    expect((await remoteSubjects(p)).filter((s) => s.startsWith('[maven-release-plugin]'))).toEqual([
      '[maven-release-plugin] prepare for next development iteration',
      '[maven-release-plugin] prepare release e2e-parent-2.0.0',
    ]);
    expect(await git(p.remote, p.home, 'symbolic-ref', 'HEAD')).toBe('refs/heads/master');
    expect(await readFile(path.join(p.dir, 'pom.xml'), 'utf8')).toContain('<version>2.0.1-SNAPSHOT</version>');
    expect((await sandboxState(w.sandbox)).deployments.filter((d) => d.namespace === p.namespace).map((d) => d.state)).toEqual(['VALIDATED']);

    // Progress without a terminal: a line per goal and per reactor module of the forked builds.
    expect(r.stderr).toMatch(/^ {2}release:prepare · relctl e2e core 2\.0\.0 \[2\/3\] · (\d+m )?\d+s$/m);
    expect(r.stderr).toMatch(/^ {2}release:perform · relctl e2e core 2\.0\.0 \[2\/3\] · (\d+m )?\d+s$/m);
  });
});
