import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import type { TestKey } from '../helpers/gpg.js';
import type { TempDir } from '../helpers/temp.js';
import { sandboxEnv, stage, writeComponent, type SandboxFixture, useSandboxFixture } from './upload-helpers.js';

let sb: SandboxFixture['sb'];
let key: TestKey;
let work: TempDir;
let n = 0;

useSandboxFixture((fx) => {
  ({ sb, key, work } = fx);
}, {
  sandbox: {
    users: [
      { name: 'sandbox', password: 'sandbox' },
      { name: 'limited', password: 'limited-pw', namespaces: ['org.other'] },
    ],
  },
});

async function project(): Promise<string> {
  const dir = path.join(work.path, `p${++n}`);
  await mkdir(dir, { recursive: true });
  return dir;
}

async function stageDemo(opts: { developers?: boolean; localAddress?: string; version?: string } = {}): Promise<void> {
  const files = await writeComponent(path.join(work.path, `stage${++n}`), key, {
    groupId: 'org.example',
    artifactId: 'demo',
    version: opts.version ?? '1.0.0',
    ...(opts.developers === undefined ? {} : { developers: opts.developers }),
  });
  await stage(sb, files, opts.localAddress === undefined ? {} : { localAddress: opts.localAddress });
}

const json = (s: string): Record<string, unknown> => JSON.parse(s) as Record<string, unknown>;

describe('relctl upload', () => {
  it('moves a valid staging repository into the portal, prints the ids, records the journal; status then says a person must publish', async () => {
    await stageDemo();
    const cwd = await project();
    const r = await runCli(['upload', '--group-id', 'org.example', '--yes', '--no-verify', '--json', '--cwd', cwd], { env: sandboxEnv(sb) });
    expect(r.exitCode, r.stderr).toBe(0);
    const doc = json(r.stdout);
    expect(doc.ok).toBe(true);
    expect(doc.deploymentId).toMatch(/^[0-9a-f-]{36}$/);
    expect(String(doc.repositoryKey)).toContain('org.example--default-repository');
    const journal = JSON.parse(await readFile(path.join(cwd, '.relctl', 'journal.json'), 'utf8')) as { uploads: { deploymentId: string }[] };
    expect(journal.uploads[0]!.deploymentId).toBe(doc.deploymentId);

    const st = await runCli(['status', '--cwd', cwd], { env: sandboxEnv(sb) });
    expect(st.exitCode).toBe(0);
    expect(st.stdout).toContain('VALIDATED');
    expect(st.stdout).toContain('NOT published yet');
    expect(st.stderr).toContain(`relctl publish --deployment ${String(doc.deploymentId)}`);
  });

  it('explains "No repository found" when nothing was staged, with the search and the by-key way', async () => {
    const r = await runCli(['upload', '--group-id', 'org.example', '--yes', '--no-verify', '--cwd', await project()], { env: sandboxEnv(sb) });
    expect(r.exitCode).toBe(1);
    // The portal's sentence first, verbatim (what users search for; the token's user masked), then relctl's reading.
    expect(r.stderr).toContain('error portal said: No repository found for <token user>/127.0.0.1/org.example--default-repository\nNo staging repository');
    expect(r.stderr).toContain('relctl search --group-id org.example --ip any');
    expect(r.stderr).toContain('--repository-key');
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('applies the source-address rule: staged from 127.0.0.2, found by search --ip any and uploaded by key', async () => {
    await stageDemo({ localAddress: '127.0.0.2' });
    const cwd = await project();
    const env = sandboxEnv(sb);
    const miss = await runCli(['upload', '--group-id', 'org.example', '--yes', '--no-verify', '--json', '--cwd', cwd], { env });
    expect(miss.exitCode).toBe(1);
    expect(json(miss.stdout)).toMatchObject({ ok: false, error: { kind: 'no-repository' } });

    const fromTwo = await runCli(['search', '--group-id', 'org.example', '--ip', 'client', '--json', '--cwd', cwd], {
      env: { ...env, RELCTL_LOCAL_ADDRESS: '127.0.0.2' },
    });
    expect((json(fromTwo.stdout).repositories as unknown[]).length).toBe(1);
    const any = await runCli(['search', '--group-id', 'org.example', '--ip', 'any', '--json', '--cwd', cwd], { env });
    const repos = json(any.stdout).repositories as { key: string; state: string }[];
    expect(repos).toHaveLength(1);
    expect(repos[0]!.state).toBe('open');
    // The key starts with the token user, which relctl masks as <token user> (a bare *** looked
    // like a fault); the masked key works as input.
    expect(repos[0]!.key).toBe('<token user>/127.0.0.2/org.example--default-repository');
    const text = await runCli(['search', '--group-id', 'org.example', '--cwd', cwd], { env });
    expect(text.stdout).toContain('open');

    const byKey = await runCli(['upload', '--group-id', 'org.example', '--yes', '--no-verify', '--repository-key', repos[0]!.key, '--json', '--cwd', cwd], { env });
    expect(byKey.exitCode, byKey.stderr).toBe(0);
    expect(json(byKey.stdout).deploymentId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('turns a validation failure into portal-validation findings, then decodes the namespace block, and drop unblocks it', async () => {
    await stageDemo({ developers: false });
    const cwd = await project();
    const env = sandboxEnv(sb);
    const r = await runCli(['upload', '--group-id', 'org.example', '--yes', '--no-verify', '--json', '--cwd', cwd], { env });
    expect(r.exitCode).toBe(1);
    const doc = json(r.stdout) as { deploymentId: string; deploymentsUrl: string; findings: { code: string; module: string; message: string; fix: string }[] };
    expect(doc.deploymentId).toMatch(/^[0-9a-f-]{36}$/);
    expect(doc.deploymentsUrl).toBe(`${sb.urls.portalUrl}/publishing/deployments`);
    expect(doc.findings).toContainEqual(
      expect.objectContaining({ code: 'portal-validation', module: 'pkg:maven/org.example/demo@1.0.0', message: 'Developers information is missing' }),
    );
    expect(doc.findings[0]!.fix).toContain('<developers>');

    const st = await runCli(['status', '--deployment', doc.deploymentId, '--cwd', cwd], { env });
    expect(st.exitCode).toBe(1);
    expect(st.stdout).toContain('FAILED');
    expect(st.stdout).toContain('Developers information is missing');

    const blocked = await runCli(['upload', '--group-id', 'org.example', '--yes', '--no-verify', '--cwd', cwd], { env });
    expect(blocked.exitCode).toBe(1);
    expect(blocked.stderr).toContain('namespace is blocked');
    expect(blocked.stderr).toContain(`relctl drop --deployment ${doc.deploymentId}`);
    expect(blocked.stderr).toContain('/publishing/deployments');
    expect(blocked.stderr).toContain('release the next version');

    const noYes = await runCli(['drop', '--deployment', doc.deploymentId, '--cwd', cwd], { env });
    expect(noYes.exitCode).toBe(2);
    expect(noYes.stderr).toContain('--yes');
    const dry = await runCli(['drop', '--deployment', doc.deploymentId, '--dry-run', '--cwd', cwd], { env });
    expect(dry.stdout).toContain(`DELETE ${sb.urls.portalUrl}/api/v1/publisher/deployment/${doc.deploymentId}`);
    const drop = await runCli(['drop', '--deployment', doc.deploymentId, '--yes', '--cwd', cwd], { env });
    expect(drop.exitCode, drop.stderr).toBe(0);
    await stageDemo({ version: '1.0.1' });
    const retry = await runCli(['upload', '--group-id', 'org.example', '--yes', '--no-verify', '--json', '--cwd', cwd], { env });
    expect(retry.exitCode, retry.stderr).toBe(0);
  });

  it('refuses a bad token with token-rejected (exit 3) and a token without the namespace', async () => {
    await stageDemo();
    const cwd = await project();
    const bad = await runCli(['upload', '--group-id', 'org.example', '--yes', '--no-verify', '--cwd', cwd], { env: sandboxEnv(sb, { name: 'sandbox', password: 'wrong-password' }) });
    expect(bad.exitCode).toBe(3);
    expect(bad.stderr).toContain('HTTP 401');
    expect(bad.stderr).toContain('user token');
    const limited = await runCli(['upload', '--group-id', 'org.example', '--yes', '--no-verify', '--json', '--cwd', cwd], {
      env: sandboxEnv(sb, { name: 'limited', password: 'limited-pw' }),
    });
    expect(limited.exitCode).not.toBe(0);
    expect(JSON.stringify(json(limited.stdout))).toMatch(/no-repository|namespace-not-authorized/);
  });

  it('warns when the last upload of the release was made on another machine', async () => {
    const cwd = await project();
    await mkdir(path.join(cwd, '.relctl'), { recursive: true });
    await writeFile(
      path.join(cwd, '.relctl', 'journal.json'),
      JSON.stringify({ version: 1, steps: [], uploads: [{ machine: 'build-runner-7', groupId: 'org.example', at: new Date().toISOString() }] }),
    );
    const r = await runCli(['upload', '--group-id', 'org.example', '--yes', '--no-verify', '--dry-run', '--cwd', cwd], { env: sandboxEnv(sb) });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain('build-runner-7');
    expect(r.stderr).toContain('relctl search --namespace org.example --ip any');
    expect(r.stdout).toContain('would POST');
  });
});
