import { readFile, readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { git } from '../../helpers/temp.js';
import { releaseProps, remoteTags, sandboxState, useWorld, type ReleaseProject } from './fixture.js';

/**
 * release:perform failing half-way with the real plugin (the sandbox refuses the war's PUT, so the
 * parent and the jar are staged and the war is not), then `relctl release --resume`: release.properties
 * says prepare finished, so only release:perform runs again, on the same tag. The token comes from
 * the environment (a canary), and no file of the shared temp folder may hold it meanwhile.
 */
const canary = { username: 'canary-e2e-user-R4t', password: 'canary-e2e-pass-W8q' };
const w = useWorld([
  { name: 'sandbox', password: 'sandbox' },
  { name: canary.username, password: canary.password },
]);

/** Runs `work` while watching the shared temp folder for maven-release-plugin's settings copies holding the canary. */
async function watchingTemp<T>(work: Promise<T>): Promise<{ result: T; leaks: string[] }> {
  const leaks = new Set<string>();
  let done = false;
  const watch = (async () => {
    for (let i = 0; i < 6000 && !done; i++) {
      for (const name of await readdir(os.tmpdir()).catch(() => [] as string[])) {
        if (!/^release-settings.*\.xml$/.test(name)) continue;
        const text = await readFile(path.join(os.tmpdir(), name), 'utf8').catch(() => '');
        if (text.includes(canary.password)) leaks.add(name);
      }
      await sleep(50);
    }
  })();
  const result = await work;
  done = true;
  await watch;
  return { result, leaks: [...leaks] };
}

async function refuseNextPut(p: ReleaseProject, artifactId: string): Promise<void> {
  const origin = new URL(w.sandbox.urls.stagingApiUrl).origin;
  const prefix = `/staging/service/local/staging/deploy/maven2/${p.groupId.replaceAll('.', '/')}/${artifactId}/`;
  const r = await fetch(`${origin}/sandbox/faults`, {
    method: 'POST',
    headers: { 'x-sandbox-token': w.sandbox.controlToken },
    body: JSON.stringify([{ prefix, method: 'PUT', status: 500, count: 1 }]),
  });
  expect(r.status).toBe(200);
}

describe('release:perform fails half-way; --resume finishes it', () => {
  it('re-runs release:perform alone from release.properties: one tag, one prepare, VALIDATED', async () => {
    const p = await w.project({ name: 'resume', tokenInSettings: false });
    const env = { RELCTL_TOKEN_USERNAME: canary.username, RELCTL_TOKEN_PASSWORD: canary.password };
    await refuseNextPut(p, 'e2e-webapp');

    const failed = await watchingTemp(p.relctl(['release', '--yes'], { env }));
    expect(failed.result.exitCode).toBe(1);
    expect(failed.result.stderr).toContain('release:perform');
    expect(failed.result.stderr).toContain('only release:perform runs again, on the same tag');
    expect(await readFile(path.join(p.dir, 'release.properties'), 'utf8')).toContain('completedPhase=end-release');
    expect(await remoteTags(p)).toEqual(['e2e-parent-1.0.0']);

    const resumed = await watchingTemp(p.relctl(['release', '--yes', '--resume', '--json'], { env }));
    expect(resumed.result.exitCode, resumed.result.stderr).toBe(0);
    expect(resumed.result.stderr).toContain('release:prepare finished for e2e-parent-1.0.0; running release:perform only');
    const summary = JSON.parse(resumed.result.stdout) as { context: Record<string, unknown> };
    expect(summary.context).toMatchObject({ version: '1.0.0', tag: 'e2e-parent-1.0.0', nextVersion: '1.0.1-SNAPSHOT', skippedVersions: [], deploymentState: 'VALIDATED' });

    const calls = (await p.calls()).map((c) => c.filter((a) => a !== '-s' && !a.endsWith('settings.xml') && !a.startsWith('-Dmaven.repo.local')));
    const props = releaseProps('1.0.0', '1.0.1-SNAPSHOT', 'e2e-parent-1.0.0');
    expect(calls).toEqual([
      ['-B', 'install'],
      ['-B', 'release:clean', ...props],
      ['-B', 'release:prepare', ...props],
      ['-B', 'release:perform', ...props],
      ['-B', 'release:perform'],
    ]);
    expect(await git(p.dir, p.home, 'tag', '--list')).toBe('e2e-parent-1.0.0');
    expect(await remoteTags(p)).toEqual(['e2e-parent-1.0.0']);
    const deployments = (await sandboxState(w.sandbox)).deployments.filter((d) => d.namespace === p.namespace);
    expect(deployments.map((d) => d.state)).toEqual(['VALIDATED']);

    // The token reached Maven through the environment only.
    for (const out of [failed.result.stdout, failed.result.stderr, resumed.result.stdout, resumed.result.stderr, JSON.stringify(await p.calls())]) {
      expect(out).not.toContain(canary.password);
    }
    expect([...failed.leaks, ...resumed.leaks]).toEqual([]);
  });
});
