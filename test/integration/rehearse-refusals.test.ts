import { mkdir, rm, symlink } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { git, gitEnv, gitRepo, tempDir } from '../helpers/temp.js';

const pom = (build: string): string => `<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>
  <groupId>org.example.refuse</groupId><artifactId>lib</artifactId><version>1.0.0-SNAPSHOT</version>
  <build>${build}</build>
</project>
`;

const staging = '<plugin><groupId>org.sonatype.plugins</groupId><artifactId>nexus-staging-maven-plugin</artifactId><version>1.6.13</version><extensions>true</extensions><configuration><serverId>ossrh</serverId><nexusUrl>https://s01.oss.sonatype.org/</nexusUrl></configuration></plugin>';

/** A PATH with git and node only: no Maven can start. */
async function noMaven(root: string): Promise<string> {
  const bin = path.join(root, 'bin');
  await mkdir(bin);
  for (const tool of ['git', 'gpg']) await symlink(`/usr/bin/${tool}`, path.join(bin, tool));
  await symlink(process.execPath, path.join(bin, 'node'));
  return bin;
}

/** What `relctl rehearse` refuses before any build runs (no Maven on PATH, so none can start). */
describe('relctl rehearse refusals', () => {
  it("refuses a nexus-staging-maven-plugin build whose <nexusUrl> is not written in the project: its deploy would reach the Nexus a parent names", async () => {
    await using t = await tempDir();
    const home = path.join(t.path, 'home');
    await mkdir(home);
    const dir = path.join(t.path, 'lib');
    await gitRepo(dir, home, { 'pom.xml': pom(`<plugins>${staging.replace(/<nexusUrl>.*<\/nexusUrl>/, '')}</plugins>`) });
    const r = await runCli(['rehearse', '--json', '--cwd', dir], { home, env: { ...gitEnv(home), PATH: await noMaven(t.path) } });
    expect(r.exitCode, r.stderr).toBe(3);
    const doc = JSON.parse(r.stdout) as { ok: boolean; error: { code: string; message: string } };
    expect(doc.error.code).toBe('rehearse-nexus-staging');
    expect(doc.error.message).toContain('<nexusUrl> is not written in the project');
  });

  it('goes on (to the build) with a nexus-staging-maven-plugin build whose <nexusUrl> the copy can point at the sandbox', async () => {
    await using t = await tempDir();
    const home = path.join(t.path, 'home');
    await mkdir(home);
    const dir = path.join(t.path, 'lib');
    await gitRepo(dir, home, { 'pom.xml': pom(`<plugins>${staging}</plugins>`) });
    const r = await runCli(['rehearse', '--json', '--cwd', dir], { home, env: { ...gitEnv(home), PATH: await noMaven(t.path) } });
    expect(r.exitCode, r.stderr).toBe(3);
    expect((JSON.parse(r.stdout) as { error: { code: string } }).error.code).toBe('tool-missing');
  });

  it('goes on (to the build) when the plugin is only managed, not the deployer', async () => {
    await using t = await tempDir();
    const home = path.join(t.path, 'home');
    await mkdir(home);
    const dir = path.join(t.path, 'lib');
    await gitRepo(dir, home, { 'pom.xml': pom(`<pluginManagement><plugins>${staging}</plugins></pluginManagement>`) });
    // No Maven on PATH: the rehearsal gets as far as starting the build.
    const r = await runCli(['rehearse', '--json', '--cwd', dir], { home, env: { ...gitEnv(home), PATH: await noMaven(t.path) } });
    expect(r.exitCode, r.stderr).toBe(3);
    expect((JSON.parse(r.stdout) as { error: { code: string } }).error.code).toBe('tool-missing');
  });

  it("puts the throwaway remote on the project's own branch, slashes included: its HEAD names that branch", async () => {
    await using t = await tempDir();
    const home = path.join(t.path, 'home');
    await mkdir(home);
    const dir = path.join(t.path, 'lib');
    await gitRepo(dir, home, { 'pom.xml': pom('') });
    await git(dir, home, 'branch', '-m', 'release/2.0');
    // --keep: the rehearsal's folder (bare remote included) stays; no Maven, so it stops at the build.
    const r = await runCli(['rehearse', '--keep', '--json', '--cwd', dir], { home, env: { ...gitEnv(home), PATH: await noMaven(t.path) } });
    expect(r.exitCode, r.stderr).toBe(3);
    const work = /in (\S+)\/project against a sandbox/.exec(r.stderr)?.[1];
    expect(work, r.stderr).toBeDefined();
    try {
      const remote = path.join(work!, 'remote.git');
      expect(await git(remote, home, 'symbolic-ref', 'HEAD')).toBe('refs/heads/release/2.0');
      expect(await git(remote, home, 'log', '--format=%s', 'release/2.0')).toContain('relctl rehearsal: the working tree as the rehearsal found it');
      expect(await git(path.join(work!, 'project'), home, 'rev-parse', '--abbrev-ref', '--symbolic-full-name', '@{upstream}')).toBe('origin/release/2.0');
    } finally {
      await rm(work!, { recursive: true, force: true });
    }
  });

  it('refuses a detached HEAD before any build (exit 2)', async () => {
    await using t = await tempDir();
    const home = path.join(t.path, 'home');
    await mkdir(home);
    const dir = path.join(t.path, 'lib');
    await gitRepo(dir, home, { 'pom.xml': pom('') });
    await git(dir, home, 'checkout', '-q', '--detach');
    const r = await runCli(['rehearse', '--json', '--cwd', dir], { home, env: { ...gitEnv(home), PATH: await noMaven(t.path) } });
    expect(r.exitCode, r.stderr).toBe(2);
    const doc = JSON.parse(r.stdout) as { error: { code: string; message: string; fix: string } };
    expect(doc.error).toMatchObject({ code: 'detached-head' });
    expect(doc.error.fix).toContain('git switch <branch>');
  });

  it('--release-version counts as the release does: a Y not above the version the orphan rule moves to is exit 2', async () => {
    await using t = await tempDir();
    const home = path.join(t.path, 'home');
    await mkdir(home);
    const dir = path.join(t.path, 'lib');
    await gitRepo(dir, home, { 'pom.xml': pom('') });
    await git(dir, home, 'tag', 'lib-2.0.0');
    const r = await runCli(['rehearse', '--json', '--release-version', '2.0.0', '--next-version', '2.0.1-SNAPSHOT', '--cwd', dir], { home, env: { ...gitEnv(home), PATH: await noMaven(t.path) } });
    expect(r.exitCode, r.stderr).toBe(2);
    expect((JSON.parse(r.stdout) as { error: { message: string } }).error.message).toContain('--next-version 2.0.1-SNAPSHOT is not above 2.0.1');
  });
});
