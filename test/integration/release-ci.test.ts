import { chmod, mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { binPath, runCli } from '../helpers/cli.js';
import { createCiKey, gnupgLeftovers, gpgRecorder, type CiKey, type GpgCall } from '../helpers/ci-key.js';
import { writeMavenSettings } from '../helpers/maven.js';
import { gitEnv, tempDir, type TempDir } from '../helpers/temp.js';
import { demoRepo, fakeBin } from './release-fixture.js';
import { publishKeyConfirmed } from './sandbox-fixture.js';

/**
 * The release in CI (DESIGN §12), fast half: the signing key and its passphrase only in the
 * environment (CI=true, no TTY, a HOME without ~/.gnupg), imported into a throwaway GNUPGHOME that
 * is gone after success, a failed build, a bad passphrase and Ctrl-C alike; neither the key nor the
 * passphrase reaches argv, output, the journal or a child that has no use for it. The fake mvn
 * stands in for the build (test/e2e/release-ci.test.ts runs the real plugins).
 */
let t: TempDir;
let sandbox: RunningSandbox;
let key: CiKey;
let n = 0;

beforeAll(async () => {
  t = await tempDir('relctl-ci-');
  sandbox = await startSandbox();
  key = await createCiKey('ci pass phrase 7Qz');
  await publishKeyConfirmed(sandbox, key);
});
afterAll(async () => {
  await sandbox?.close();
  await t?.[Symbol.asyncDispose]();
});

interface CiProject {
  dir: string;
  home: string;
  tmp: string;
  env: Record<string, string | undefined>;
  gpgCalls(): Promise<GpgCall[]>;
  /** Environments the build tool (mvn) was started with. */
  mvnEnvs(): Promise<string[]>;
}

/** The demo reactor with the key and token in the environment only, a `gpg` and an `mvn` that record. */
async function ciProject(extra: Record<string, string | undefined> = {}): Promise<CiProject> {
  const root = path.join(t.path, `p${++n}`);
  const dir = path.join(root, 'demo');
  const home = path.join(root, 'home');
  const tmp = path.join(root, 'tmp');
  await mkdir(home, { recursive: true });
  await mkdir(tmp);
  await demoRepo(dir, home, { stagingUrl: sandbox.urls.stagingApiUrl, groupId: `org.example.ci${n}` });
  // A Maven settings file without a token: the token comes from RELCTL_TOKEN_* as in CI.
  await writeMavenSettings(path.join(home, '.m2', 'settings.xml'));
  const recorder = await gpgRecorder(root);
  const mvnBin = path.join(root, 'mvn-bin');
  const mvnLog = path.join(root, 'mvn-env');
  await mkdir(mvnBin);
  await mkdir(mvnLog);
  await writeFile(path.join(mvnBin, 'mvn'), `#!/bin/sh\nenv > "${mvnLog}/$$"\nexec ${path.join(fakeBin, 'mvn')} "$@"\n`);
  await chmod(path.join(mvnBin, 'mvn'), 0o755);
  const env = {
    ...gitEnv(home),
    PATH: `${recorder.bin}:${mvnBin}:${fakeBin}:${process.env.PATH ?? ''}`,
    RELCTL_FAKE_LOG: path.join(root, 'tools.log'),
    GNUPGHOME: undefined,
    TMPDIR: tmp,
    RELCTL_GPG_PRIVATE_KEY: key.armoredSecretKey,
    GPG_PASSPHRASE: key.passphrase,
    RELCTL_TOKEN_USERNAME: 'sandbox',
    RELCTL_TOKEN_PASSWORD: 'sandbox',
    RELCTL_STAGING_API_URL: sandbox.urls.stagingApiUrl,
    RELCTL_PORTAL_URL: sandbox.urls.portalUrl,
    RELCTL_PUBLIC_REPO_URL: sandbox.urls.publicRepoUrl,
    RELCTL_KEYSERVER_URL: sandbox.urls.keyserverUrl,
    RELCTL_SECONDARY_KEYSERVER_URL: sandbox.urls.secondaryKeyserverUrl,
    ...extra,
  };
  return {
    dir,
    home,
    tmp,
    env,
    gpgCalls: recorder.calls,
    mvnEnvs: async () => Promise.all((await readdir(mvnLog)).map((f) => readFile(path.join(mvnLog, f), 'utf8'))),
  };
}

function assertNoKeyMaterial(where: string, text: string): void {
  expect(text.includes(key.passphrase), `${where} holds the passphrase`).toBe(false);
  expect(text.includes(key.secretLine), `${where} holds part of the secret key`).toBe(false);
}

/** The GNUPGHOME relctl named with --verbose. */
function namedGnupgHome(stderr: string): string {
  const home = /GNUPGHOME=(\S+)/.exec(stderr)?.[1];
  expect(home, 'relctl names its GNUPGHOME with --verbose').toBeDefined();
  return home!;
}

async function gone(dir: string): Promise<boolean> {
  return readdir(dir).then(
    () => false,
    () => true,
  );
}

describe('the release in CI: the signing key from the environment', () => {
  it('checks the imported key (not a ~/.gnupg one) and leaves no key material behind', async () => {
    const p = await ciProject();
    const r = await runCli(['run', 'keys', '--json', '--verbose', '--cwd', p.dir], { home: p.home, env: p.env });
    expect(r.exitCode, r.stderr).toBe(0);
    const summary = JSON.parse(r.stdout) as { context: { fingerprint: string } };
    expect(summary.context.fingerprint).toBe(key.fingerprint);
    expect(r.stderr).toContain(`Signing key ${key.fingerprint} from RELCTL_GPG_PRIVATE_KEY`);
    const gnupgHome = namedGnupgHome(r.stderr);
    expect(path.dirname(gnupgHome)).toBe(p.tmp);
    expect(await gone(gnupgHome)).toBe(true);
    expect(await gnupgLeftovers(p.tmp)).toEqual([]);
    expect(await readdir(p.home)).not.toContain('.gnupg');
    // Every gpg ran in the throwaway home; none got the key or the passphrase in argv or env.
    const calls = await p.gpgCalls();
    expect(calls.length).toBeGreaterThanOrEqual(3);
    for (const c of calls) {
      expect(c.gnupgHome, c.argv).toBe(gnupgHome);
      assertNoKeyMaterial(`gpg ${c.argv}`, `${c.argv}\n${c.env}`);
    }
    assertNoKeyMaterial('stdout', r.stdout);
    assertNoKeyMaterial('stderr', r.stderr);
  });

  it('a failed build: the GNUPGHOME is gone, the output names the journal and --resume, Maven got the passphrase by contract only', async () => {
    const p = await ciProject({ RELCTL_FAKE_MVN_FAIL: 'release:prepare', GPG_PRIVATE_KEY: undefined });
    const r = await runCli(['release', '--yes', '--offline', '--verbose', '--cwd', p.dir], { home: p.home, env: p.env });
    expect(r.exitCode, r.stderr).toBe(1);
    const journal = path.join(p.dir, '.relctl', 'journal.json');
    expect(r.stderr).toContain(`journal: ${journal}`);
    expect(r.stderr).toContain('resume: relctl release --resume');
    const gnupgHome = namedGnupgHome(r.stderr);
    expect(await gone(gnupgHome)).toBe(true);
    expect(await gnupgLeftovers(p.tmp)).toEqual([]);
    expect(await readdir(p.home)).not.toContain('.gnupg');
    const envs = await p.mvnEnvs();
    expect(envs.length).toBeGreaterThan(0);
    for (const env of envs) {
      const vars = new Map(env.split('\n').map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
      expect(vars.get('GNUPGHOME')).toBe(gnupgHome);
      expect(vars.get('MAVEN_GPG_PASSPHRASE')).toBe(key.passphrase);
      expect([...vars.keys()].filter((k) => /GPG_PRIVATE_KEY|^GPG_PASSPHRASE|RELCTL_GPG/.test(k))).toEqual([]);
      expect(env.includes(key.secretLine)).toBe(false);
    }
    for (const c of await p.gpgCalls()) assertNoKeyMaterial(`gpg ${c.argv}`, `${c.argv}\n${c.env}`);
    assertNoKeyMaterial('stderr', r.stderr);
    assertNoKeyMaterial('journal', await readFile(journal, 'utf8'));
  });

  it('a wrong passphrase stops before anything changes, naming the variable; nothing is left', async () => {
    const p = await ciProject({ GPG_PASSPHRASE: 'not the pass phrase' });
    const r = await runCli(['release', '--yes', '--cwd', p.dir], { home: p.home, env: p.env });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('The passphrase in GPG_PASSPHRASE does not unlock the key');
    expect(r.stderr).not.toContain('not the pass phrase');
    expect(await gnupgLeftovers(p.tmp)).toEqual([]);
    expect(await readdir(p.dir)).not.toContain('.relctl');
  });

  it('a CI job without a git identity is a usage error before anything changes', async () => {
    const p = await ciProject({ GIT_AUTHOR_EMAIL: undefined, GIT_COMMITTER_EMAIL: undefined, EMAIL: undefined });
    const r = await runCli(['release', '--yes', '--cwd', p.dir], { home: p.home, env: p.env });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('git has no identity to make the release commits with: GIT_AUTHOR_EMAIL and GIT_COMMITTER_EMAIL are not set');
    expect(r.stderr).toContain('GIT_COMMITTER_EMAIL');
    expect(await readdir(p.dir)).not.toContain('.relctl');
    expect(await gnupgLeftovers(p.tmp)).toEqual([]);
  });

  it('SIGINT during the build: the GNUPGHOME and its agent are gone, exit 130 with the resume command', async () => {
    const p = await ciProject({ RELCTL_FAKE_MVN_SLEEP: 'release:perform', RELCTL_FAKE_MVN_SLEEP_PID: path.join(t.path, `sleep${n}.pid`), RELCTL_FAKE_PERFORM_DEPLOY: '0' });
    const pidFile = p.env.RELCTL_FAKE_MVN_SLEEP_PID!;
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('RELCTL_') && k !== 'GNUPGHOME' && v !== undefined) env[k] = v;
    for (const [k, v] of Object.entries({ ...p.env, HOME: p.home, CI: 'true', NO_COLOR: '1' })) if (v !== undefined) env[k] = v;
    const child = execa('node', [binPath, 'release', '--yes', '--offline', '--verbose', '--cwd', p.dir], { env, extendEnv: false, reject: false, timeout: 60_000 });
    let gnupgHomes: string[];
    try {
      const until = Date.now() + 45_000;
      while (Date.now() < until && (await readFile(pidFile, 'utf8').catch(() => '')).trim() === '') await new Promise((r) => setTimeout(r, 50));
      gnupgHomes = await gnupgLeftovers(p.tmp);
      expect(gnupgHomes).toHaveLength(1);
    } finally {
      child.kill('SIGINT');
    }
    const r = await child;
    expect(r.exitCode, String(r.stderr)).toBe(130);
    expect(String(r.stderr)).toContain('relctl release --resume');
    expect(String(r.stderr)).toContain(`journal: ${path.join(p.dir, '.relctl', 'journal.json')}`);
    expect(await gnupgLeftovers(p.tmp)).toEqual([]);
    // The agent of that home is gone too (it would keep running for hours otherwise).
    const agents = await execa('pgrep', ['-f', `gpg-agent --homedir ${path.join(p.tmp, gnupgHomes[0]!)}`], { reject: false });
    expect(String(agents.stdout)).toBe('');
    assertNoKeyMaterial('stderr', String(r.stderr));
  }, 90_000);
});
