import { appendFile, mkdir, symlink } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { fleetDemo, fleetDemoGroup } from '../helpers/fleet-demo.js';
import { fleetSchemaErrors } from '../helpers/report-validators.js';
import { gitEnv, gitRepo, tempDir } from '../helpers/temp.js';

/**
 * `relctl fleet rehearse` when a parent's rehearsal fails, without Maven: the PATH has no `mvn`,
 * so the parent's build cannot start. Its child, which names the parent's snapshot, is skipped and
 * says why; a repository that publishes nothing is not rehearsed; the run fails (exit 1) with the
 * report in every format. The rehearsals that succeed: test/e2e/fleet-rehearse.test.ts.
 */
interface Report {
  ok: boolean;
  error?: { code: string; message: string };
  repositories: { name: string; verdict: string; rehearsal: { verdict: string; version?: string; reason?: string; installed?: string[] } | null }[];
}

describe('relctl fleet rehearse without a successful parent', () => {
  it('skips the child of a failed parent, says why, and fails the run', async () => {
    await using t = await tempDir();
    const { repos, home } = await fleetDemo(t.path);
    await gitRepo(path.join(t.path, 'src', 'site'), home, { 'README.md': '# the fleet site\n' });
    await appendFile(repos, 'example/site src/site\n');
    const bin = path.join(t.path, 'bin');
    await mkdir(bin);
    for (const tool of ['git', 'gpg', 'gpgconf', 'gpg-agent']) await symlink(`/usr/bin/${tool}`, path.join(bin, tool));
    await symlink(process.execPath, path.join(bin, 'node'));
    const workdir = path.join(t.path, 'work');
    const run = (extra: string[]) =>
      runCli(['fleet', 'rehearse', '--repos', repos, '--workdir', workdir, '--offline', '--sign', ...extra], { home, env: { ...gitEnv(home), PATH: bin }, timeoutMs: 60_000 });

    const r = await run(['--json']);
    expect(r.exitCode, r.stderr).toBe(1);
    const report = JSON.parse(r.stdout) as Report;
    expect(await fleetSchemaErrors(report)).toEqual([]);
    expect(report.ok).toBe(false);
    expect(report.error?.code).toBe('fleet-rehearsal-failed');
    expect(report.error?.message).toBe("2 of 2 ready repositories did not reach the portal's success verdict in their rehearsal.");
    // Parents first: the child after its parent (the site, with no parent, in the first layer by name).
    expect(report.repositories.map((x) => x.name)).toEqual(['example/fleet-parent', 'example/site', 'example/fleet-core']);
    const [parent, site, child] = report.repositories;
    expect(parent!.verdict).toBe('ready');
    // Nothing is installed for a rehearsal that did not succeed.
    expect(parent!.rehearsal).toEqual({ verdict: 'error', reason: 'Cannot start mvn: not found.' });
    expect(child!.rehearsal).toEqual({
      verdict: 'skipped',
      reason: `its parent ${fleetDemoGroup}:fleet-parent:1.0.0-SNAPSHOT is the current version of example/fleet-parent, and the rehearsal of example/fleet-parent could not finish`,
    });
    expect(site!.rehearsal).toEqual({ verdict: 'skipped', reason: 'not rehearsed: it publishes nothing to Maven Central' });

    const text = await run([]);
    expect(text.exitCode).toBe(1);
    expect(text.stdout).toContain('rehearsals: 0 succeeded, 2 failed, 1 not rehearsed (parents first):');
    expect(text.stdout).toMatch(/\n {2}failed {2}example\/fleet-core: skipped \(its parent /);
    const junit = await run(['--format', 'junit']);
    expect(junit.stdout).toContain('failures="2"');
    expect(junit.stdout).toContain('<failure type="rehearsal" message="rehearsal example/fleet-core: skipped');
  }, 120_000);
});
