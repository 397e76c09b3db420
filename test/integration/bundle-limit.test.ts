/**
 * The portal's 1 GiB cap on one deployment (DESIGN §5a): relctl refuses a bigger build output or
 * bundle before any upload call, and decodes the 413 the portal's front server answers above it
 * (the sandbox answers as nginx does). Both caps are injected small, so no test writes a gigabyte.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import type { TestKey } from '../helpers/gpg.js';
import type { TempDir } from '../helpers/temp.js';
import { control, sandboxEnv, writeComponent, type SandboxFixture, useSandboxFixture } from './upload-helpers.js';

/** The sandbox's cap: far below any signed component's bundle. */
const sandboxBundleBytes = 1024;

let sb: SandboxFixture['sb'];
let key: TestKey;
let work: TempDir;
let n = 0;
useSandboxFixture(
  (fx) => {
    ({ sb, key, work } = fx);
  },
  { sandbox: { maxBundleBytes: sandboxBundleBytes } },
);

const deployments = async () => ((await control(sb, 'GET', 'state')) as { deployments: unknown[] }).deployments;
const cli = (args: string[], cwd: string, limit: number) =>
  runCli([...args, '--cwd', cwd], { env: { ...sandboxEnv(sb), RELCTL_TEST_BUNDLE_BYTES: String(limit) } });
const errorOf = (stdout: string) => (JSON.parse(stdout) as { error: { code: string; message: string; fix: string } }).error;

/** A project whose release build produced a portal bundle (the portal-plugin route), as the journal records it. */
async function bundledProject(): Promise<string> {
  const dir = path.join(work.path, `b${++n}`);
  const stage = path.join(dir, 'stage');
  await writeComponent(stage, key, { groupId: 'org.example', artifactId: 'demo', version: '1.0.0' });
  const bundle = path.join(dir, 'central-bundle.zip');
  await execa('jar', ['--create', '--no-manifest', '--file', bundle, '-C', stage, 'org']);
  const build = { publishingRoute: 'portal-plugin', bundle, groupId: 'org.example', artifactId: 'demo', version: '1.0.0' };
  await mkdir(path.join(dir, '.relctl'), { recursive: true });
  await writeFile(path.join(dir, '.relctl', 'journal.json'), JSON.stringify({ version: 1, steps: [{ id: 'build', status: 'done', at: new Date().toISOString(), data: build }], uploads: [] }));
  return dir;
}

describe('the 1 GiB bundle limit', () => {
  it('relctl upload refuses a build output over the limit before any call: exit 1, bundle-too-large, split the release', async () => {
    const dir = path.join(work.path, `g${++n}`);
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'build.gradle'), "plugins { id 'java' }\n");
    await writeFile(path.join(dir, 'settings.gradle'), "rootProject.name = 'demo'\n");
    await writeFile(path.join(dir, 'gradle.properties'), 'group=org.example\nversion=1.0.1-SNAPSHOT\n');
    await writeComponent(path.join(dir, 'build', 'staging-deploy'), key, { groupId: 'org.example', artifactId: 'demo', version: '1.0.0' });
    const r = await cli(['upload', '--yes', '--json'], dir, 100);
    expect(r.exitCode, r.stdout + r.stderr).toBe(1);
    const error = errorOf(r.stdout);
    expect(error.code).toBe('bundle-too-large');
    expect(error.message).toMatch(/at most 100 B \(100 bytes\) in one deployment; nothing was uploaded/);
    expect(error.fix).toContain('Split the release into several deployments');
    expect(await deployments()).toEqual([]);
  });

  it("the release's bundle upload refuses a bundle over the limit before the Publisher API call", async () => {
    const r = await cli(['run', 'upload', '--yes', '--json'], await bundledProject(), 100);
    expect(r.exitCode, r.stdout + r.stderr).toBe(1);
    expect(r.stdout + r.stderr).toContain('bundle-too-large');
    // relctl's own check, not the sandbox's 413: the body never went out.
    expect(r.stdout + r.stderr).toContain('the portal takes at most 100 B (100 bytes) in one deployment');
    expect(r.stdout + r.stderr).not.toContain('HTTP 413');
    expect(r.stdout + r.stderr).toContain('Split the release into several deployments');
    expect(await deployments()).toEqual([]);
  });

  it("past relctl's check, the portal's 413 (nginx's HTML page) is decoded as the bundle limit, not a proxy problem", async () => {
    const r = await cli(['run', 'upload', '--yes', '--json'], await bundledProject(), 10 * 1024 * 1024);
    expect(r.exitCode, r.stdout + r.stderr).toBe(1);
    const out = r.stdout + r.stderr;
    expect(out).toContain('bundle-too-large');
    expect(out).toContain('HTTP 413');
    expect(out).toContain('Split the release into several deployments');
    expect(await deployments()).toEqual([]);
  });
});
