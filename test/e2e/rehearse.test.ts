import { mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { debianRepo, sharedLocalRepo } from '../helpers/maven.js';
import { createTestKey } from '../helpers/gpg.js';
import { git, gitEnv, tempDir } from '../helpers/temp.js';
import { demoRepo, tags } from '../integration/release-fixture.js';

/** `relctl rehearse` end to end: real Maven, real gpg, the embedded sandbox; nothing of the user's touched. */
interface Rehearsal {
  ok: boolean;
  verdict: string;
  deploymentId?: string;
  preflight: { findings: { code: string }[] };
  signing: { fingerprint?: string; throwaway: boolean; profiles: string[] };
  chain?: { steps: { id: string; status: string }[] };
  fetched?: { file: string; bytes: number; matchesBuild: boolean }[];
  error?: { message: string };
}

const args = ['--sign', '--maven-mirror', `file://${debianRepo}`, '--local-repo', sharedLocalRepo, '--json'];

async function snapshot(dir: string, home: string): Promise<string> {
  return [await git(dir, home, 'rev-parse', 'HEAD'), await git(dir, home, 'status', '--porcelain', '--ignored'), ...(await tags(dir, home)), ...(await readdir(dir))].join('\n');
}

describe('relctl rehearse', () => {
  it('rehearses the demo to VALIDATED, publishes it and fetches the jar back, leaving the project as it was', async () => {
    await using t = await tempDir();
    const home = path.join(t.path, 'home');
    await mkdir(home);
    const dir = path.join(t.path, 'demo');
    await demoRepo(dir, home);
    const before = await snapshot(dir, home);
    const r = await runCli(['rehearse', ...args, '--publish', '--cwd', dir], { home, env: gitEnv(home), timeoutMs: 170_000 });
    expect(r.exitCode, r.stderr).toBe(0);
    const result = JSON.parse(r.stdout) as Rehearsal;
    expect(result.ok).toBe(true);
    expect(result.verdict).toBe('PUBLISHED');
    expect(result.signing).toMatchObject({ throwaway: true, profiles: ['gpg-cli'] });
    expect(result.chain!.steps.map((s) => `${s.id}:${s.status}`)).toEqual(['verify:done', 'upload:done', 'status:done']);
    expect(result.deploymentId).toMatch(/^[0-9a-f-]{36}$/);
    expect(result.fetched).toEqual([
      expect.objectContaining({ file: 'org/example/relctl/relctl-demo-core/1.0.0/relctl-demo-core-1.0.0.jar', matchesBuild: true }),
    ]);
    expect(await snapshot(dir, home)).toBe(before);
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

  it("signs with the maintainer's own key, published and confirmed on the sandbox key server only", async () => {
    await using t = await tempDir();
    await using key = await createTestKey();
    const home = path.join(t.path, 'home');
    await mkdir(home);
    const dir = path.join(t.path, 'demo');
    await demoRepo(dir, home);
    const own = args.filter((a) => a !== '--sign');
    const r = await runCli(['rehearse', ...own, '--cwd', dir], { home, env: { ...gitEnv(home), ...key.env }, timeoutMs: 170_000 });
    expect(r.exitCode, r.stderr).toBe(0);
    const result = JSON.parse(r.stdout) as Rehearsal;
    expect(result.verdict).toBe('VALIDATED');
    expect(result.signing).toEqual({ fingerprint: key.fingerprint, throwaway: false, profiles: ['gpg-cli'] });
  }, 180_000);
});
