import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

/**
 * Installing relctl from its git URL (issue 23 item 6), the way the README says: `npm pack
 * <git url>` clones, installs the dependencies and devDependencies and runs `prepare` (the build),
 * then `npm install -g` of that package. A clone of the committed HEAD stands in for the remote.
 * Minutes, not seconds (a full dependency install and build), hence the e2e project.
 *
 * Not `npm install -g <git url>` directly: npm (10 and 11, npm/cli#8440) prepares a git package of
 * a global install in a nested install that inherits the global flag, installs none of its
 * devDependencies, and leaves a dangling link; every package that builds in `prepare` meets it.
 */
const npmEnv = { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' };

describe('install from a git URL', () => {
  it('npm pack <git url> builds through prepare; npm install -g of it gives a working relctl', async () => {
    await using t = await tempDir('relctl-git-install-');
    const clone = path.join(t.path, 'relctl.git');
    await execa('git', ['clone', '-q', '--depth', '1', `file://${repoRoot}`, clone]);
    const packed = await execa('npm', ['pack', '--prefer-offline', '--json', `git+file://${clone}`], { cwd: t.path, env: npmEnv });
    const [info] = JSON.parse(String(packed.stdout)) as { filename: string; files: { path: string }[] }[];
    // The build ran in the clone (bundle/ is git-ignored: only `prepare` can have made it).
    expect(info!.files.map((f) => f.path)).toEqual(expect.arrayContaining(['bin/relctl.js', 'bundle/cli.cjs', 'dist/cli.js']));

    const prefix = path.join(t.path, 'prefix');
    await execa('npm', ['install', '-g', '--prefix', prefix, '--prefer-offline', path.join(t.path, info!.filename)], { cwd: t.path, env: npmEnv });
    const relctl = path.join(prefix, 'bin', 'relctl');
    const version = await execa(relctl, ['--version'], { cwd: t.path, reject: false });
    expect(version.exitCode, String(version.stderr)).toBe(0);
    const pkg = JSON.parse(await readFile(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string };
    expect(String(version.stdout).trim()).toBe(pkg.version);
    const help = await execa(relctl, ['preflight', '--help'], { cwd: t.path, reject: false });
    expect(help.exitCode).toBe(0);
    expect(String(help.stdout)).toContain('Usage: relctl preflight');
    expect(await readdir(path.join(prefix, 'lib', 'node_modules', 'relctl'))).toEqual(expect.arrayContaining(['bin', 'bundle', 'node_modules']));
  }, 600_000);
});
