import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { debianRepo } from '../helpers/maven.js';
import { mavenCache } from './maven-release/fixture.js';
import { gitEnv, tempDir } from '../helpers/temp.js';
import { demoInTemp } from '../integration/release-fixture.js';

/**
 * `relctl rehearse --snapshot` (issue 42 item 5): the demo's -SNAPSHOT deployed by real Maven, as
 * CI deploys it, to the embedded sandbox's snapshot repository, which is off for the namespace by
 * default as on the real portal: the 403 comes back decoded with where to switch SNAPSHOTs on.
 */
interface SnapshotRehearsal {
  ok: boolean;
  verdict: string;
  namespace: string;
  snapshotsEnabled: boolean;
  command: string;
  error?: { code: string; message: string; fix: string };
}

const args = ['rehearse', '--snapshot', '--maven-mirror', `file://${debianRepo}`, '--local-repo', mavenCache, '--json'];

describe('relctl rehearse --snapshot', () => {
  it('a real mvn deploy of the snapshot: 403 decoded (enable SNAPSHOTs on the Namespaces page) by default, deployed with --snapshots-enabled', async () => {
    await using t = await tempDir();
    const { dir, home } = await demoInTemp(t.path);
    const off = await runCli([...args, '--cwd', dir], { home, env: gitEnv(home), timeoutMs: 170_000 });
    expect(off.exitCode, off.stdout + off.stderr).toBe(1);
    const refused = JSON.parse(off.stdout) as SnapshotRehearsal;
    expect(refused).toMatchObject({ ok: false, verdict: 'snapshots-disabled', namespace: 'org.example.relctl', snapshotsEnabled: false, error: { code: 'snapshots-not-enabled' } });
    expect(refused.error!.message).toContain('403 Forbidden');
    expect(refused.error!.fix).toContain("Enable SNAPSHOTs for the namespace holding org.example.relctl on the portal's Namespaces page (https://central.sonatype.com/publishing/namespaces");
    expect(refused.error!.fix).toContain('--snapshots-enabled');
    // The deploy CI runs, pointed at the sandbox's snapshot repository; the token is in no argument.
    expect(refused.command).toMatch(/^mvn -B deploy -DaltSnapshotDeploymentRepository=relctl-rehearsal-snapshots::http:\/\/127\.0\.0\.1:\d+\/portal\/repository\/maven-snapshots\/ /);

    const on = await runCli([...args, '--snapshots-enabled', '--cwd', dir], { home, env: gitEnv(home), timeoutMs: 170_000 });
    expect(on.exitCode, on.stdout + on.stderr).toBe(0);
    expect(JSON.parse(on.stdout)).toMatchObject({ ok: true, verdict: 'deployed', snapshotsEnabled: true });
  }, 400_000);

  it('--snapshots-enabled without --snapshot is a usage error', async () => {
    await using t = await tempDir();
    const { dir, home } = await demoInTemp(t.path);
    const r = await runCli(['rehearse', '--snapshots-enabled', '--cwd', dir], { home, env: gitEnv(home) });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('Add --snapshot.');
  });
});
