import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { writeMavenSettings } from '../helpers/maven.js';
import { tempDir } from '../helpers/temp.js';
import { demoInTemp, recorded, releaseEnv } from './release-fixture.js';

/** What `run` and `release --dry-run` tell the user (issue 10 item 6), with the fake tools on PATH. */
async function demo(t: { path: string }, settings: boolean): Promise<{ dir: string; home: string; env: Record<string, string>; log: string }> {
  const { dir, home } = await demoInTemp(t.path);
  if (settings) await writeMavenSettings(path.join(home, '.m2', 'settings.xml'), { username: 'u', password: 'p' });
  const log = path.join(t.path, 'tools.log');
  return { dir, home, env: releaseEnv(home, log), log };
}

describe('relctl run', () => {
  it('names an unknown step and lists the valid ones (exit 2)', async () => {
    const r = await runCli(['run', 'bogus']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('Unknown step "bogus"');
    expect(r.stderr).toContain('preflight, keys, prep, build, verify, upload, status');
    const json = await runCli(['run', 'verify', 'bogus', '--json']);
    expect(json.exitCode).toBe(2);
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: false, error: { code: 'unknown-step', message: expect.stringContaining('"bogus"') as unknown } });
  });

  it('dry-runs verify and upload offline without a token: the upload call it would make, no stack trace', async () => {
    await using t = await tempDir();
    const p = await demo(t, false);
    const r = await runCli(['run', 'verify', 'upload', '--dry-run', '--offline', '--cwd', p.dir], { home: p.home, env: p.env });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain('! POST https://ossrh-staging-api.central.sonatype.com/manual/upload/defaultRepository/org.example.relctl?publishing_type=user_managed');
    expect(r.stderr).not.toContain('internal error');
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('relctl release --dry-run', () => {
  it('reports preflight errors as where a real run would stop (exit 1), and prints the plan once', async () => {
    await using t = await tempDir();
    const p = await demo(t, false);
    const r = await runCli(['release', '--dry-run', '--offline', '--cwd', p.dir], { home: p.home, env: p.env });
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stderr).toContain('server-id-mismatch');
    expect(r.stderr).toContain('Preflight audit: a real run would stop here');
    expect(r.stderr).not.toContain('Preflight audit: dry run, nothing changed');
    expect(r.stdout).toContain('a real run would stop at preflight');
    // The plan (the `!` lines) once on stderr; the result does not list the steps again.
    expect(r.stderr.split('! mvn -B release:perform').length - 1).toBe(1);
    expect(r.stdout).not.toMatch(/^\s+(preflight|prep|build|upload)\s+done/m);
    expect(await recorded(p.log)).toEqual([]);
    const json = await runCli(['release', '--dry-run', '--offline', '--json', '--cwd', p.dir], { home: p.home, env: p.env });
    expect(json.exitCode).toBe(1);
    const doc = JSON.parse(json.stdout) as { ok: boolean; dryRun: boolean; steps: { id: string; status: string }[]; error: { code: string } };
    expect(doc).toMatchObject({ ok: false, dryRun: true, error: { code: 'preflight-failed' } });
    expect(doc.steps[0]).toMatchObject({ id: 'preflight', status: 'would-stop' });
  });

  it('says nothing would stop a real run when preflight passes (exit 0)', async () => {
    await using t = await tempDir();
    const p = await demo(t, true);
    const r = await runCli(['release', '--dry-run', '--offline', '--cwd', p.dir], { home: p.home, env: p.env });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toContain('nothing in the plan above would stop a real run');
  });
});
