import { mkdir, readdir, rm } from 'node:fs/promises';
import { execa } from 'execa';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { binPath, runCli } from '../helpers/cli.js';
import { debianRepo } from '../helpers/maven.js';
import { mavenCache } from './maven-release/fixture.js';
import { createTestKey } from '../helpers/gpg.js';
import { processesUnder } from '../helpers/processes.js';
import { git, gitEnv, tempDir } from '../helpers/temp.js';
import { demoInTemp, tags } from '../integration/release-fixture.js';

/** `relctl rehearse` end to end: real Maven, real gpg, the embedded sandbox; nothing of the user's touched. */
interface Rehearsal {
  ok: boolean;
  verdict: string;
  deploymentId?: string;
  preflight: { findings: { code: string }[] };
  signing: { fingerprint?: string; throwaway: boolean };
  build?: { commands: string[]; redirect: string[] };
  chain?: { steps: { id: string; status: string }[] };
  fetched?: { file: string; bytes: number; matchesBuild: boolean }[];
  error?: { message: string };
}

// Debian's plugins first, then Maven Central for the release plugin (Debian does not package it),
// into the project-local cache that scripts/maven-cache.sh fills.
const args = ['--sign', '--maven-mirror', `file://${debianRepo}`, '--local-repo', mavenCache, '--json'];

async function snapshot(dir: string, home: string): Promise<string> {
  return [await git(dir, home, 'rev-parse', 'HEAD'), await git(dir, home, 'status', '--porcelain', '--ignored'), ...(await tags(dir, home)), ...(await readdir(dir))].join('\n');
}

describe('relctl rehearse', () => {
  it('rehearses the demo to VALIDATED, publishes it and fetches the jar back, leaving the project as it was', async () => {
    await using t = await tempDir();
    const { dir, home } = await demoInTemp(t.path);
    const before = await snapshot(dir, home);
    // The demo's group in the shared local repository, as on a machine that never built it.
    const group = path.join(mavenCache, 'org', 'example', 'relctl');
    await rm(group, { recursive: true, force: true });
    const r = await runCli(['rehearse', ...args, '--publish', '--cwd', dir], { home, env: gitEnv(home), timeoutMs: 170_000 });
    expect(r.exitCode, r.stderr).toBe(0);
    const result = JSON.parse(r.stdout) as Rehearsal;
    expect(result.ok).toBe(true);
    expect(result.verdict).toBe('PUBLISHED');
    expect(result.signing).toMatchObject({ throwaway: true });
    // The release's own commands ran, pointed at the sandbox only through MAVEN_OPTS.
    // A first release (no earlier tag): the three goals as three invocations, as relctl release runs them.
    expect(result.build!.commands.map((c) => c.split(' ').slice(0, 3).join(' '))).toEqual(['mvn -B release:clean', 'mvn -B release:prepare', 'mvn -B release:perform']);
    expect(result.build!.redirect[0]).toMatch(/^-DaltDeploymentRepository=central::default::http:\/\/127\.0\.0\.1:\d+\//);
    expect(result.chain!.steps.map((s) => `${s.id}:${s.status}`)).toEqual(['verify:done', 'upload:done', 'status:done']);
    expect(result.deploymentId).toMatch(/^[0-9a-f-]{36}$/);
    expect(result.fetched).toEqual([
      expect.objectContaining({ file: 'org/example/relctl/relctl-demo-core/1.0.0/relctl-demo-core-1.0.0.jar', matchesBuild: true }),
    ]);
    expect(await snapshot(dir, home)).toBe(before);
    // release:perform installed the rehearsed 1.0.0 into the local repository and its deploy cached the
    // sandbox's metadata there; the rehearsal took both back out (only the dependencies' downloads stay).
    for (const module of ['relctl-demo', 'relctl-demo-core', 'relctl-demo-webapp']) expect(await readdir(path.join(group, module)).catch(() => [])).toEqual([]);
  }, 180_000);

  it('stops before the upload when the portal would fail the release (missing developers)', async () => {
    await using t = await tempDir();
    const home = path.join(t.path, 'home');
    await mkdir(home);
    const r = await runCli(['rehearse', ...args, '--cwd', path.join(process.cwd(), 'examples', 'missing-developers')], {
      home,
      env: gitEnv(home),
      timeoutMs: 170_000,
    });
    expect(r.exitCode).toBe(1);
    const result = JSON.parse(r.stdout) as Rehearsal;
    expect(result.verdict).toBe('verify-failed');
    expect(result.preflight.findings.map((f) => f.code)).toContain('missing-developers');
    expect(result.chain!.steps.map((s) => `${s.id}:${s.status}`)).toEqual(['verify:failed', 'upload:not-run', 'status:not-run']);
    expect(result.error!.message).toContain('missing-developers');
    expect(result.error!.message).toContain('was dropped, so the namespace stays unblocked');
    expect(await readdir(path.join(process.cwd(), 'examples', 'missing-developers'))).not.toContain('target');
  }, 180_000);

  it("signs with the maintainer's own key, published and confirmed on the sandbox key server only; on branch master", async () => {
    await using t = await tempDir();
    await using key = await createTestKey();
    const { dir, home } = await demoInTemp(t.path);
    // Most Apereo repositories release from `master`: the throwaway remote's HEAD must name it, or
    // release:perform's clone fails ("couldn't find remote ref HEAD").
    await git(dir, home, 'branch', '-m', 'master');
    const own = args.filter((a) => a !== '--sign');
    const r = await runCli(['rehearse', ...own, '--cwd', dir], { home, env: { ...gitEnv(home), ...key.env }, timeoutMs: 170_000 });
    expect(r.exitCode, r.stderr).toBe(0);
    const result = JSON.parse(r.stdout) as Rehearsal;
    expect(result.verdict).toBe('VALIDATED');
    expect(result.signing).toEqual({ fingerprint: key.fingerprint, throwaway: false });
  }, 180_000);

  it('Ctrl-C during the build stops Maven, removes the throwaway copy, key and agent, and exits 130', async () => {
    await using t = await tempDir();
    const { dir, home } = await demoInTemp(t.path);
    const tmp = path.join(t.path, 'tmp');
    await mkdir(tmp);
    const env: Record<string, string | undefined> = { ...process.env, ...gitEnv(home), CI: 'true', NO_COLOR: '1', TMPDIR: tmp };
    for (const k of Object.keys(env)) if (k.startsWith('RELCTL_')) delete env[k];
    const child = execa('node', [binPath, 'rehearse', ...args.filter((a) => a !== '--json'), '--cwd', dir], { env, extendEnv: false, reject: false, timeout: 120_000, buffer: { stdout: true, stderr: true } });
    let seen = '';
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the build never started:\n${seen}`)), 100_000);
      child.stderr!.on('data', (chunk: Buffer) => {
        seen += chunk.toString();
        if (seen.includes('Building and deploying')) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    // Maven is running inside the throwaway copy; the agent of the throwaway key is up.
    await new Promise((r) => setTimeout(r, 1500));
    expect(await processesUnder(tmp)).not.toEqual([]);
    child.kill('SIGINT');
    const r = await child;
    expect(r.exitCode, String(r.stderr)).toBe(130);
    expect(String(r.stderr)).toContain('Interrupted');
    expect(String(r.stderr)).toContain('relctl rehearse again');
    expect(await readdir(tmp)).toEqual([]);
    expect(await processesUnder(tmp)).toEqual([]);
  }, 150_000);
});
