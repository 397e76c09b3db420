/**
 * "Is it published?" asks the portal's Publisher API when a token is at hand (no lag), the public
 * repository otherwise, and says which answered (DESIGN §5a). The public repository here lags: it
 * answers 404 for everything, as repo1 does for up to half an hour after PUBLISHED.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import type { TestKey } from '../helpers/gpg.js';
import { gitEnv, type TempDir } from '../helpers/temp.js';
import { demoRepo, fakePublicRepo } from './release-fixture.js';
import { sandboxEnv, stage, writeComponent, type SandboxFixture, useSandboxFixture } from './upload-helpers.js';
import type { Finding as JsonFinding } from '../../src/core/findings.js';

let sb: SandboxFixture['sb'];
let key: TestKey;
let work: TempDir;
useSandboxFixture((fx) => {
  ({ sb, key, work } = fx);
});

let lagging: Awaited<ReturnType<typeof fakePublicRepo>>;
beforeAll(async () => {
  lagging = await fakePublicRepo(new Set());
});
afterAll(() => lagging?.close());

const g = 'org.example.relctl';
const a = 'relctl-demo';

/** Publishes g:a:version on the sandbox's portal through the real commands. */
async function publishOnPortal(version: string): Promise<void> {
  await stage(sb, await writeComponent(path.join(work.path, `pub-${version}`), key, { groupId: g, artifactId: a, version }));
  const up = await runCli(['upload', '--group-id', g, '--yes', '--no-verify', '--json', '--cwd', work.path], { env: sandboxEnv(sb) });
  const id = (JSON.parse(up.stdout) as { deploymentId: string }).deploymentId;
  const pub = await runCli(['publish', '--deployment', id, '--yes', '--cwd', work.path], { env: sandboxEnv(sb) });
  expect(pub.exitCode, pub.stderr).toBe(0);
}

describe('published: the portal with a token, the public repository without', () => {
  it('verify finds a version the portal has published although the public repository lags; without a token it cannot know', async () => {
    await publishOnPortal('1.0.0');
    const dir = path.join(work.path, 'again');
    await writeComponent(dir, key, { groupId: g, artifactId: a, version: '1.0.0' });
    const env: Record<string, string> = { ...sandboxEnv(sb), RELCTL_PUBLIC_REPO_URL: lagging.url };
    const withToken = await runCli(['verify', '--dir', dir, '--json', '--verbose', '--cwd', work.path], { env });
    expect(withToken.exitCode, withToken.stderr).toBe(1);
    expect((JSON.parse(withToken.stdout) as { findings: JsonFinding[] }).findings.map((f) => f.code)).toEqual(['already-published']);
    expect(withToken.stderr).toContain(`${g}:${a}:1.0.0: published (portal)`);

    const noToken: Record<string, string> = { ...env };
    delete noToken.RELCTL_TOKEN_USERNAME;
    delete noToken.RELCTL_TOKEN_PASSWORD;
    const without = await runCli(['verify', '--dir', dir, '--json', '--verbose', '--cwd', work.path], { env: noToken });
    expect((JSON.parse(without.stdout) as { findings: JsonFinding[] }).findings.map((f) => f.code)).toEqual([]);
    expect(without.stderr).toContain(`${g}:${a}:1.0.0: not published (public repository)`);
  });

  it("the release's version rule refuses a version the portal published, and names the portal", async () => {
    await publishOnPortal('1.1.0');
    const dir = path.join(work.path, 'project');
    const home = path.join(work.path, 'home');
    await mkdir(home, { recursive: true });
    await demoRepo(dir, home);
    const env = { ...gitEnv(home), ...sandboxEnv(sb), RELCTL_PUBLIC_REPO_URL: lagging.url };
    const r = await runCli(['release', '--yes', '--offline', '--release-version', '1.1.0', '--cwd', dir], { home, env });
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toContain(`${g}:${a}:1.1.0 is already published (portal)`);
  });
});
