import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { createTestKey } from '../helpers/gpg.js';
import { gitEnv, gitRepo, tempDir } from '../helpers/temp.js';
import { writeComponent } from './upload-helpers.js';

/** A Gradle project whose build published release 1.0.0 into `folder` (Maven layout), as its maven-publish repository would. */
async function gradleProject(root: string, home: string, folder: string, key: Parameters<typeof writeComponent>[1], spec: { javadoc?: boolean } = {}): Promise<string> {
  const dir = path.join(root, 'lib');
  await gitRepo(dir, home, {
    'settings.gradle': "rootProject.name = 'lib'\n",
    'gradle.properties': 'group=org.example.gradle\nversion=1.0.0-SNAPSHOT\n',
    'build.gradle': "plugins { id 'java-library'; id 'maven-publish'; id 'signing' }\n",
    '.gitignore': 'build/\n',
  });
  await writeComponent(path.join(dir, folder), key, { groupId: 'org.example.gradle', artifactId: 'lib', version: '1.0.0', ...spec });
  return dir;
}

/**
 * Gradle as far as this machine allows (issue 19 item 6): the build is not rehearsed (no property
 * points a Gradle build's publishing at the sandbox, and Debian's Gradle 4.4.1 cannot publish);
 * the Maven-layout folder it published is deployed to the sandbox, verified, uploaded and judged.
 */
describe('relctl rehearse, Gradle', () => {
  it("deploys the build's staging folder to the sandbox, and the portal validates it", async () => {
    await using t = await tempDir();
    await using key = await createTestKey();
    const home = path.join(t.path, 'home');
    await mkdir(home);
    const dir = await gradleProject(t.path, home, 'build/staging-deploy', key);
    const r = await runCli(['rehearse', '--json', '--cwd', dir], { home, env: { ...gitEnv(home), ...key.env }, timeoutMs: 120_000 });
    expect(r.exitCode, r.stderr).toBe(0);
    const result = JSON.parse(r.stdout) as { verdict: string; project: { buildTool: string }; build: { notes: string[]; commands: string[] }; chain: { steps: { id: string; status: string }[] } };
    expect(result.verdict).toBe('VALIDATED');
    expect(result.project.buildTool).toBe('gradle');
    expect(result.build.commands).toEqual([]);
    expect(result.build.notes[0]).toMatch(/^the Gradle build is not rehearsed: the 16 files of build\/staging-deploy were deployed/);
    expect(result.chain.steps.map((s) => `${s.id}:${s.status}`)).toEqual(['verify:done', 'upload:done', 'status:done']);
  }, 150_000);

  it('verifies a folder given with --staging-dir and stops before the upload when javadoc is missing', async () => {
    await using t = await tempDir();
    await using key = await createTestKey();
    const home = path.join(t.path, 'home');
    await mkdir(home);
    const dir = await gradleProject(t.path, home, 'out/m2', key, { javadoc: false });
    const r = await runCli(['rehearse', '--json', '--staging-dir', 'out/m2', '--cwd', dir], { home, env: { ...gitEnv(home), ...key.env }, timeoutMs: 120_000 });
    expect(r.exitCode).toBe(1);
    const result = JSON.parse(r.stdout) as { verdict: string; error: { message: string } };
    expect(result.verdict).toBe('verify-failed');
    expect(result.error.message).toContain('missing-javadoc');
  }, 150_000);

  it('names the folder to publish when the Gradle build published none', async () => {
    await using t = await tempDir();
    const home = path.join(t.path, 'home');
    await mkdir(home);
    const dir = path.join(t.path, 'lib');
    await gitRepo(dir, home, { 'settings.gradle': "rootProject.name = 'lib'\n", 'gradle.properties': 'group=org.example.gradle\nversion=1.0.0-SNAPSHOT\n', 'build.gradle': '' });
    const r = await runCli(['rehearse', '--json', '--cwd', dir], { home, env: gitEnv(home) });
    expect(r.exitCode).toBe(3);
    const doc = JSON.parse(r.stdout) as { error: { code: string; fix: string } };
    expect(doc.error.code).toBe('rehearse-gradle');
    expect(doc.error.fix).toContain('build/staging-deploy');
  });
});
