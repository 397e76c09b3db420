import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { runCli } from '../helpers/cli.js';
import { createTestKey, type TestKey } from '../helpers/gpg.js';
import { sharedLocalRepo, writeMavenSettings } from '../helpers/maven.js';
import { git, tempDir, type TempDir } from '../helpers/temp.js';
import { publishKeyConfirmed } from './sandbox-fixture.js';
import { demoRepo, recorded, releaseEnv, subjects, tags } from './release-fixture.js';

/**
 * The whole chain against the sandbox: the fake mvn plays release:prepare's git effects and
 * release:perform deploys the tag checkout with the REAL Maven to the sandbox.
 */
interface SandboxState {
  repositories: { key: string; state: string; namespace: string }[];
  deployments: { id: string; state: string; namespace: string }[];
}

let sandbox: RunningSandbox;
let key: TestKey;
let t: TempDir;

beforeAll(async () => {
  t = await tempDir();
  sandbox = await startSandbox();
  key = await createTestKey();
  await publishKeyConfirmed(sandbox, key);
});
afterAll(async () => {
  await sandbox?.close();
  await key?.cleanup();
  await t?.[Symbol.asyncDispose]();
});

async function state(): Promise<SandboxState> {
  const origin = new URL(sandbox.urls.stagingApiUrl).origin;
  return (await (await fetch(`${origin}/sandbox/state`)).json()) as SandboxState;
}

let counter = 0;
async function project(): Promise<{ dir: string; home: string; log: string; env: Record<string, string>; groupId: string }> {
  const n = ++counter;
  const groupId = `org.example.chain${n}`;
  const dir = path.join(t.path, `p${n}`);
  const home = path.join(t.path, `h${n}`);
  await mkdir(home);
  await demoRepo(dir, home, { stagingUrl: sandbox.urls.stagingApiUrl, groupId });
  await writeMavenSettings(path.join(home, '.m2', 'settings.xml'), { username: 'sandbox', password: 'sandbox' });
  const log = path.join(t.path, `tools${n}.log`);
  const env = releaseEnv(home, log, {
    ...key.env,
    RELCTL_STAGING_API_URL: sandbox.urls.stagingApiUrl,
    RELCTL_PORTAL_URL: sandbox.urls.portalUrl,
    RELCTL_PUBLIC_REPO_URL: sandbox.urls.publicRepoUrl,
    RELCTL_KEYSERVER_URL: sandbox.urls.keyserverUrl,
    RELCTL_SECONDARY_KEYSERVER_URL: sandbox.urls.secondaryKeyserverUrl,
    RELCTL_MAVEN_LOCAL_REPO: sharedLocalRepo,
    RELCTL_FAKE_PERFORM_ARGS: `-Pgpg-cli -Dgpg.keyname=${key.fingerprint}`,
  });
  return { dir, home, log, env, groupId };
}

const releaseCommits = (s: string[]): string[] => s.filter((x) => x.startsWith('[maven-release-plugin]'));

describe('relctl release (whole chain, real Maven deploy to the sandbox)', () => {
  it('releases, verifies, uploads and waits for VALIDATED', async () => {
    const p = await project();
    const r = await runCli(['release', '--yes', '--cwd', p.dir], { home: p.home, env: p.env, timeoutMs: 170_000 });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toContain('state: VALIDATED');
    expect(r.stdout).toContain(`${sandbox.urls.portalUrl}/publishing/deployments`);
    expect(r.stdout).toMatch(/deploymentId: [0-9a-f-]{36}/);
    expect(await tags(p.dir, p.home)).toEqual(['relctl-demo-1.0.0']);
    const calls = (await recorded(p.log)).map((c) => c.args.filter((a) => !a.startsWith('-Dmaven.repo.local') && a !== '-s' && !a.endsWith('settings.xml')));
    expect(calls).toEqual([
      ['-B', 'javadoc:fix', '-Dforce=true'],
      ['-B', 'install'],
      ['-B', 'release:clean', '-DautoVersionSubmodules=true', '-DreleaseVersion=1.0.0', '-DdevelopmentVersion=1.0.1-SNAPSHOT', '-Dtag=relctl-demo-1.0.0'],
      ['-B', 'release:prepare', '-DautoVersionSubmodules=true', '-DreleaseVersion=1.0.0', '-DdevelopmentVersion=1.0.1-SNAPSHOT', '-Dtag=relctl-demo-1.0.0'],
      ['-B', 'release:perform', '-DautoVersionSubmodules=true', '-DreleaseVersion=1.0.0', '-DdevelopmentVersion=1.0.1-SNAPSHOT', '-Dtag=relctl-demo-1.0.0'],
    ]);
    const deployments = (await state()).deployments.filter((d) => d.namespace === p.groupId);
    expect(deployments.map((d) => d.state)).toEqual(['VALIDATED']);
  }, 180_000);
});
