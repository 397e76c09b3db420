import { mkdir, readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { readSignature } from 'openpgp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/server.js';
import { createCiKey, gnupgLeftovers, gpgRecorder, type CiKey, type GpgCall } from '../../helpers/ci-key.js';
import { textsUnder } from '../../helpers/secret-canaries.js';
import { tempDir, type TempDir } from '../../helpers/temp.js';
import { publishKeyConfirmed } from '../../integration/sandbox-fixture.js';
import { releaseProject, remoteTags, sandboxState, type ReleaseProject } from './fixture.js';

/**
 * `relctl release` as a CI job runs it (DESIGN §12), with the REAL maven-release-plugin and
 * maven-gpg-plugin: CI=true, no TTY, a HOME without ~/.gnupg, the signing key (a real
 * passphrase-protected key, armored) and the portal token only in the environment. The key lives
 * in relctl's throwaway GNUPGHOME for the run; maven-gpg-plugin (in the build release:perform
 * forks) signs with it, the passphrase reaching it as MAVEN_GPG_PASSPHRASE. Afterwards no key
 * material is on disk and none went to argv, output or the journal. A `gpg` first on PATH records
 * every call, relctl's and the plugin's.
 */
const token = { username: 'ci-canary-user-Z3', password: 'ci-canary-pass-K9w' };
let t: TempDir;
let sandbox: RunningSandbox;
let seedRepo: string;
let key: CiKey;

beforeAll(async () => {
  t = await tempDir('relctl-e2e-ci-');
  seedRepo = path.join(t.path, 'seed');
  await mkdir(seedRepo);
  sandbox = await startSandbox({ seedRepo, users: [{ name: 'sandbox', password: 'sandbox' }, { name: token.username, password: token.password }] });
  key = await createCiKey('e2e ci passphrase 4Tx');
  await publishKeyConfirmed(sandbox, key);
});
afterAll(async () => {
  await sandbox?.close();
  await t?.[Symbol.asyncDispose]();
});

interface CiRun {
  p: ReleaseProject;
  tmp: string;
  gpgCalls(): Promise<GpgCall[]>;
  release(args: string[]): ReturnType<ReleaseProject['relctl']>;
}

async function ciRun(name: string): Promise<CiRun> {
  // No key of the test's own: the project's environment has no GNUPGHOME at all.
  const p = await releaseProject(t.path, sandbox, { env: {} }, { name, tokenInSettings: false, seedRepo });
  const tmp = path.join(t.path, name, 'tmp');
  await mkdir(tmp);
  const recorder = await gpgRecorder(path.join(t.path, name));
  const env = {
    PATH: `${recorder.bin}:${p.env.PATH}`,
    TMPDIR: tmp,
    GNUPGHOME: undefined,
    GPG_PRIVATE_KEY: key.armoredSecretKey,
    GPG_PASSPHRASE: key.passphrase,
    RELCTL_TOKEN_USERNAME: token.username,
    RELCTL_TOKEN_PASSWORD: token.password,
  };
  return { p, tmp, gpgCalls: recorder.calls, release: (args) => p.relctl(args, { env }) };
}

const secrets = (): string[] => [key.passphrase, key.secretLine, token.password];

function assertClean(where: string, text: string): void {
  for (const s of secrets()) expect(text.includes(s), `${where} holds a secret (${s.slice(0, 6)}...)`).toBe(false);
}

/** The throwaway GNUPGHOME relctl named (--verbose), gone with every other trace of the key. */
async function assertNoKeyLeft(run: CiRun, stderr: string): Promise<string> {
  const gnupgHome = /GNUPGHOME=(\S+)/.exec(stderr)?.[1];
  expect(gnupgHome, 'relctl names its GNUPGHOME with --verbose').toBeDefined();
  expect(path.dirname(gnupgHome!)).toBe(run.tmp);
  await expect(readdir(gnupgHome!)).rejects.toThrow();
  expect(await gnupgLeftovers(run.tmp)).toEqual([]);
  expect(await readdir(run.p.home)).not.toContain('.gnupg');
  return gnupgHome!;
}

interface Summary {
  context: { version: string; tag: string; fingerprint: string; deploymentId: string; deploymentState: string };
}

describe('relctl release in CI: key and token only in the environment', () => {
  it('releases unattended, maven-gpg-plugin signs with the imported key, and no key material is left', async () => {
    const run = await ciRun('ci-ok');
    const r = await run.release(['release', '--yes', '--json', '--verbose']);
    expect(r.exitCode, r.stderr.slice(-3000)).toBe(0);
    const summary = JSON.parse(r.stdout) as Summary;
    expect(summary.context).toMatchObject({ version: '1.0.0', tag: 'e2e-parent-1.0.0', fingerprint: key.fingerprint, deploymentState: 'VALIDATED' });
    const gnupgHome = await assertNoKeyLeft(run, r.stderr);

    // The plugin's signatures are the imported key's.
    const asc = await readFile(path.join(run.p.dir, 'target', 'checkout', 'core', 'target', 'e2e-core-1.0.0.jar.asc'), 'utf8');
    const signature = await readSignature({ armoredSignature: asc });
    expect(signature.getSigningKeyIDs().map((id) => id.toHex().toUpperCase())).toContain(key.fingerprint.slice(-16));

    // Every gpg (relctl's and the plugin's) ran in the throwaway home, never with a secret in argv.
    const calls = await run.gpgCalls();
    for (const c of calls) {
      expect(c.gnupgHome, c.argv).toBe(gnupgHome);
      assertClean(`gpg argv ${c.argv}`, c.argv);
    }
    const pluginSignatures = calls.filter((c) => c.argv.includes('--detach-sign') && c.argv.includes(path.join('target', 'checkout')));
    expect(pluginSignatures.length).toBeGreaterThanOrEqual(4);
    // maven-gpg-plugin got the passphrase from MAVEN_GPG_PASSPHRASE (it then passes it on stdin).
    expect(pluginSignatures.every((c) => c.argv.includes('--passphrase-fd 0'))).toBe(true);

    assertClean('stdout', r.stdout);
    assertClean('stderr', r.stderr);
    assertClean('the journal', await readFile(path.join(run.p.dir, '.relctl', 'journal.json'), 'utf8'));
    assertClean('the project and HOME', [...(await textsUnder(run.p.dir)), ...(await textsUnder(run.p.home))].join('\n'));

    const published = await run.release(['publish', '--yes', '--deployment', summary.context.deploymentId]);
    expect(published.exitCode, published.stderr).toBe(0);
    const deployments = (await sandboxState(sandbox)).deployments.filter((d) => d.namespace === run.p.namespace);
    expect(deployments.map((d) => d.state)).toEqual(['PUBLISHED']);
  });

  it('release:perform fails half-way: the key is gone, the output names the journal and --resume, which finishes the release', async () => {
    const run = await ciRun('ci-resume');
    const origin = new URL(sandbox.urls.stagingApiUrl).origin;
    const prefix = `/staging/service/local/staging/deploy/maven2/${run.p.groupId.replaceAll('.', '/')}/e2e-webapp/`;
    const fault = await fetch(`${origin}/sandbox/faults`, {
      method: 'POST',
      headers: { 'x-sandbox-token': sandbox.controlToken },
      body: JSON.stringify([{ prefix, method: 'PUT', status: 500, count: 1 }]),
    });
    expect(fault.status).toBe(200);

    const failed = await run.release(['release', '--yes', '--verbose']);
    expect(failed.exitCode).toBe(1);
    expect(failed.stderr).toContain(`journal: ${path.join(run.p.dir, '.relctl', 'journal.json')}`);
    expect(failed.stderr).toContain('relctl release --resume');
    await assertNoKeyLeft(run, failed.stderr);
    assertClean('stderr of the failed run', failed.stderr);
    assertClean('the journal', await readFile(path.join(run.p.dir, '.relctl', 'journal.json'), 'utf8'));

    const resumed = await run.release(['release', '--yes', '--resume', '--json', '--verbose']);
    expect(resumed.exitCode, resumed.stderr.slice(-3000)).toBe(0);
    expect((JSON.parse(resumed.stdout) as Summary).context).toMatchObject({ version: '1.0.0', deploymentState: 'VALIDATED' });
    expect(await remoteTags(run.p)).toEqual(['e2e-parent-1.0.0']);
    await assertNoKeyLeft(run, resumed.stderr);
    assertClean('stderr of the resumed run', resumed.stderr);
  });
});
