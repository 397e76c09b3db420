import { mkdir, readFile, rm, stat, symlink } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { fleetDemo, fleetDemoGroup } from '../helpers/fleet-demo.js';
import { gitEnv, tempDir } from '../helpers/temp.js';
import { debianRepo } from '../helpers/maven.js';
import { mavenCache } from './maven-release/fixture.js';

/**
 * `relctl fleet rehearse` end to end (DESIGN §13 Done): a fleet of two git repositories made from
 * the demo (test/helpers/fleet-demo.ts), a parent POM and a jar whose <parent> is the parent's
 * snapshot, rehearsed with real Maven, the release plugin and gpg against the sandbox. The
 * parent's release exists nowhere but where the fleet installs it: neither Debian's repository,
 * the test cache, nor Central holds the fleet's group.
 */
interface Report {
  ok: boolean;
  repositories: { name: string; verdict: string; rehearsal: { verdict: string; version?: string; reason?: string; parents?: string[]; installed?: string[] } | null }[];
}

const group = fleetDemoGroup;
const groupPath = group.split('.');

describe('relctl fleet rehearse', () => {
  it('rehearses the parent, installs its release in the fleet repository, and the child builds on it: both VALIDATED', async () => {
    await using t = await tempDir();
    const { repos, home } = await fleetDemo(t.path);
    await rm(path.join(mavenCache, ...groupPath), { recursive: true, force: true });
    const workdir = path.join(t.path, 'work');
    // The fleet's local repository is the test suite's Maven cache (scripts/maven-cache.sh), as
    // --local-repo is for the other rehearsal tests: a warm workspace (the release plugin and what
    // it loads), Debian's packaged plugins as the mirror, no network. The fleet's group is in
    // neither until the fleet installs the parent's release there.
    await mkdir(path.join(workdir, '.relctl'), { recursive: true });
    await symlink(mavenCache, path.join(workdir, '.relctl', 'm2'));
    await using _ = { [Symbol.asyncDispose]: () => rm(path.join(mavenCache, ...groupPath), { recursive: true, force: true }) };

    const r = await runCli(['fleet', 'rehearse', '--repos', repos, '--workdir', workdir, '--offline', '--sign', '--maven-mirror', `file://${debianRepo}`, '--json'], {
      home,
      env: gitEnv(home),
      timeoutMs: 560_000,
    });
    expect(r.exitCode, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as Report;
    expect(report.ok).toBe(true);
    const [parent, child] = report.repositories;
    expect(report.repositories.map((x) => `${x.name} ${x.verdict}`)).toEqual(['example/fleet-parent ready', 'example/fleet-core ready']);

    const m2 = path.join(workdir, '.relctl', 'm2');
    const parentDir = [...groupPath, 'fleet-parent'].join('/');
    expect(parent!.rehearsal).toEqual({
      verdict: 'VALIDATED',
      version: '1.0.0',
      installed: [`${parentDir}/1.0.0`, `${parentDir}/1.0.0-SNAPSHOT/fleet-parent-1.0.0-SNAPSHOT.pom`, `${parentDir}/1.0.0-SNAPSHOT/_remote.repositories`],
    });
    // The release POM as release:perform installed it (version 1.0.0, signed), and the tip's snapshot POM.
    const released = await readFile(path.join(m2, parentDir, '1.0.0', 'fleet-parent-1.0.0.pom'), 'utf8');
    expect(released).toContain('<version>1.0.0</version>');
    expect((await stat(path.join(m2, parentDir, '1.0.0', 'fleet-parent-1.0.0.pom.asc'))).isFile()).toBe(true);
    expect(await readFile(path.join(m2, parentDir, '1.0.0-SNAPSHOT', 'fleet-parent-1.0.0-SNAPSHOT.pom'), 'utf8')).toContain('<version>1.0.0-SNAPSHOT</version>');

    // The child named the parent's snapshot; it was rehearsed on the parent's rehearsed 1.0.0, which
    // only the fleet's repository holds: its build resolved it there, and the sandbox portal
    // validated its POM against it (the parent gives it licenses, developers, scm).
    const childDir = [...groupPath, 'fleet-core'].join('/');
    expect(child!.rehearsal).toEqual({
      verdict: 'VALIDATED',
      version: '2.0.0',
      parents: [`${group}:fleet-parent:1.0.0`],
      installed: [`${childDir}/2.0.0`, `${childDir}/2.0.0-SNAPSHOT/fleet-core-2.0.0-SNAPSHOT.pom`, `${childDir}/2.0.0-SNAPSHOT/_remote.repositories`],
    });
    // Built on the parent's release: the child's released POM names it.
    expect(await readFile(path.join(m2, childDir, '2.0.0', 'fleet-core-2.0.0.pom'), 'utf8')).toMatch(/<artifactId>fleet-parent<\/artifactId>\s*<version>1\.0\.0<\/version>/);
    // Nothing was written to the user's local repository.
    await expect(stat(path.join(home, '.m2', 'repository'))).rejects.toThrow();
  }, 600_000);
});
