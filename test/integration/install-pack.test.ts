import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

/**
 * The install path of a packed relctl (issue 23 item 6): `npm pack` of the built checkout, installed
 * into an empty folder (its runtime dependencies from the npm cache or the registry), then
 * `npx relctl` there. The package must start from its bundle (the fast path), with or without the
 * V8 code caches built on this machine. Needs `npm run build` first, like every CLI test.
 */
const npmEnv = { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' };

describe('npm pack, then npx relctl from a clean folder', () => {
  it('ships the bin and its bundle, installs, and runs --version and preflight --help', async () => {
    await using t = await tempDir('relctl-pack-');
    // --ignore-scripts: pack the build the suite just made (prepare would only build it again).
    const packed = await execa('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', t.path], { cwd: repoRoot, env: npmEnv });
    const [info] = JSON.parse(String(packed.stdout)) as { filename: string; files: { path: string }[] }[];
    const files = info!.files.map((f) => f.path);
    expect(files).toEqual(expect.arrayContaining(['bin/relctl.js', 'bin/load-bundle.cjs', 'bundle/cli.cjs', 'bundle/cli.short.code-cache', 'bundle/cli.default.code-cache', 'bundle/preflight.pack.cjs', 'bundle/preflight.pack.short.code-cache', 'dist/cli.js', 'package.json', 'README.md']));
    expect(files.filter((f) => f.startsWith('src/') || f.startsWith('test/') || f.endsWith('.test.js'))).toEqual([]);

    const app = path.join(t.path, 'app');
    await mkdir(app);
    await writeFile(path.join(app, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', private: true }));
    await execa('npm', ['install', '--prefer-offline', path.join(t.path, info!.filename)], { cwd: app, env: npmEnv });
    const installed = path.join(app, 'node_modules', 'relctl');
    // Unpacked, dist/ may look newer than the bundle; an installed relctl must start from its bundle all the same.
    await writeFile(path.join(installed, 'dist', 'cli.js'), "throw new Error('dist/ was loaded instead of the bundle');\n");

    const version = await execa('npx', ['--no', '--', 'relctl', '--version'], { cwd: app, env: npmEnv, reject: false });
    expect(version.exitCode, String(version.stderr)).toBe(0);
    const pkg = JSON.parse(await readFile(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string };
    expect(String(version.stdout).trim()).toBe(pkg.version);

    // The code caches fit only the node that made them: without them the bundle still runs.
    await rm(path.join(installed, 'bundle', 'cli.short.code-cache'));
    await rm(path.join(installed, 'bundle', 'cli.default.code-cache'));
    const help = await execa('npx', ['--no', '--', 'relctl', 'preflight', '--help'], { cwd: app, env: npmEnv, reject: false });
    expect(help.exitCode, String(help.stderr)).toBe(0);
    expect(String(help.stdout)).toContain('Usage: relctl preflight');
    expect(String(help.stdout)).toContain('--offline');
  }, 240_000);
});
