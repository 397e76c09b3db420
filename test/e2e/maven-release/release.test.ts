import { access } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { git } from '../../helpers/temp.js';
import { releaseProps, remoteSubjects, remoteTags, sandboxState, tail, useWorld } from './fixture.js';

/**
 * `relctl release` with the REAL maven-release-plugin and maven-gpg-plugin from Maven Central (no
 * fake on PATH; a wrapper records relctl's argv and execs the real mvn): git commits and the tag
 * pushed to a bare remote, the tag checkout deployed signed to the sandbox, then verify, upload,
 * status and publish.
 */
const w = useWorld();

interface Summary {
  ok: boolean;
  steps: { id: string; status: string }[];
  context: { version: string; tag: string; deploymentId: string; deploymentState: string; skippedVersions: string[]; firstRelease: boolean };
}

const releaseCommits = (s: string[]): string[] => s.filter((x) => x.startsWith('[maven-release-plugin]'));

describe('relctl release with the real maven-release-plugin', () => {
  it('a first release: the three goals run separately, the tag is pushed, the signed deploy validates and publishes', async () => {
    const p = await w.project({ name: 'first' });
    const r = await p.relctl(['release', '--yes', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const summary = JSON.parse(r.stdout) as Summary;
    expect(summary.context).toMatchObject({ version: '1.0.0', tag: 'e2e-parent-1.0.0', firstRelease: true, deploymentState: 'VALIDATED' });

    const props = releaseProps('1.0.0', '1.0.1-SNAPSHOT', 'e2e-parent-1.0.0');
    expect(await p.calls()).toEqual([
      ['-B', 'install', ...tail(p)],
      ['-B', 'release:clean', ...props, ...tail(p)],
      ['-B', 'release:prepare', ...props, ...tail(p)],
      ['-B', 'release:perform', ...props, ...tail(p)],
    ]);
    // The real plugin pushed two commits and the tag, and cleaned up after perform.
    expect(await remoteTags(p)).toEqual(['e2e-parent-1.0.0']);
    expect(releaseCommits(await remoteSubjects(p))).toEqual([
      '[maven-release-plugin] prepare for next development iteration',
      '[maven-release-plugin] prepare release e2e-parent-1.0.0',
    ]);
    await expect(access(path.join(p.dir, 'release.properties'))).rejects.toThrow();
    expect(await git(p.dir, p.home, 'status', '--porcelain')).toBe('');
    // maven-gpg-plugin signed every file in the tag checkout.
    await access(path.join(p.dir, 'target', 'checkout', 'core', 'target', 'e2e-core-1.0.0.jar.asc'));

    // The real deploy of groupId org.e2efirst.lib landed under the shorter namespace org.e2efirst: the
    // upload named the namespace (issue 42), and search finds the repository from the project's groupId.
    expect(r.stderr).toContain(`namespace ${p.namespace}: the open staging repository <token user>/127.0.0.1/${p.namespace}--default-repository holds groupId ${p.groupId}`);
    const found = await p.relctl(['search', '--json']);
    expect(found.exitCode, found.stderr).toBe(0);
    expect(JSON.parse(found.stdout)).toMatchObject({
      groupId: p.groupId,
      namespace: p.namespace,
      namespaceFrom: 'staging repository',
      repositories: [{ key: `<token user>/127.0.0.1/${p.namespace}--default-repository`, deploymentId: summary.context.deploymentId }],
    });

    const published = await p.relctl(['publish', '--yes', '--deployment', summary.context.deploymentId]);
    expect(published.exitCode, published.stderr).toBe(0);
    const deployments = (await sandboxState(w.sandbox)).deployments.filter((d) => d.namespace === p.namespace);
    expect(deployments.map((d) => d.state)).toEqual(['PUBLISHED']);
    const jar = await fetch(`${w.sandbox.urls.publicRepoUrl}/${p.groupId.replaceAll('.', '/')}/e2e-core/1.0.0/e2e-core-1.0.0.jar`);
    expect(jar.status).toBe(200);
  });

  it('an orphan tag: relctl releases the next version before the plugin could trip over the tag', async () => {
    const p = await w.project({ name: 'orphan' });
    // Given this tag, the real plugin fails at phase 12 of 17 (scm-tag: "fatal: tag 'e2e-parent-1.0.0'
    // already exists"), after scm-commit-release committed (and by default pushed) the release
    // POMs: it never checks first. relctl must never let it get there.
    await git(p.dir, p.home, 'tag', 'e2e-parent-1.0.0');
    const head = await git(p.dir, p.home, 'rev-parse', 'HEAD');

    const r = await p.relctl(['release', '--yes', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const summary = JSON.parse(r.stdout) as Summary;
    expect(summary.context).toMatchObject({ version: '1.0.1', tag: 'e2e-parent-1.0.1', skippedVersions: ['1.0.0'], firstRelease: false, deploymentState: 'VALIDATED' });
    const calls = await p.calls();
    // Not a first release (a tag exists): the one invocation with the three goals.
    expect(calls.at(-1)).toEqual(['-B', 'release:clean', 'release:prepare', 'release:perform', ...releaseProps('1.0.1', '1.0.2-SNAPSHOT', 'e2e-parent-1.0.1'), ...tail(p)]);
    expect(await git(p.dir, p.home, 'rev-list', '-n', '1', 'e2e-parent-1.0.0')).toBe(head);
    expect(await remoteTags(p)).toEqual(['e2e-parent-1.0.1']);
    expect((await sandboxState(w.sandbox)).deployments.filter((d) => d.namespace === p.namespace).map((d) => d.state)).toEqual(['VALIDATED']);
  });
});
