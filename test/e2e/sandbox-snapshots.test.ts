import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { copyExample, runMaven, writeMavenSettings, type MavenResult } from '../helpers/maven.js';
import { tempDir, type TempDir } from '../helpers/temp.js';
import { basic, call, controlCall } from '../integration/sandbox-fixture.js';

/**
 * The portal's snapshot repository in the sandbox (issue 42 item 5), driven by real Maven
 * (maven-deploy-plugin from Debian, offline) as a CI snapshot deploy drives the real one: refused
 * with 403 until SNAPSHOTs are enabled for the namespace, then kept and served back with the
 * maven-metadata.xml Maven wrote.
 */
let tmp: TempDir;
let sandbox: RunningSandbox;
let settings: string;
// The account owns org.example, shorter than the demo's group id org.example.relctl.
const user = { name: 'ci-user', password: 'ci-pass-9', namespaces: ['org.example'] };
const core = 'org/example/relctl/relctl-demo-core';

function snapshotsUrl(): string {
  return `${sandbox.urls.portalUrl}/repository/maven-snapshots/`;
}

async function deploySnapshot(settingsFile = settings): Promise<MavenResult> {
  const dir = await copyExample('demo', path.join(tmp.path, `demo-${Date.now()}`), '1.0.0-SNAPSHOT');
  return runMaven([`-DaltSnapshotDeploymentRepository=central::${snapshotsUrl()}`, '-Dmaven.javadoc.skip=true', '-Dmaven.source.skip=true', 'deploy'], { cwd: dir, settings: settingsFile });
}

beforeAll(async () => {
  tmp = await tempDir('relctl-snap-');
  sandbox = await startSandbox({ users: [user] });
  settings = await writeMavenSettings(path.join(tmp.path, 'settings.xml'), { username: user.name, password: user.password });
});

afterAll(async () => {
  await sandbox?.close();
  await tmp?.[Symbol.asyncDispose]();
});

describe('the sandbox portal snapshot repository, with real Maven', () => {
  test('403 Forbidden until SNAPSHOTs are enabled for the namespace, then deployed and served with its metadata', async () => {
    const refused = await deploySnapshot();
    expect(refused.exitCode).not.toBe(0);
    expect(refused.output).toMatch(/maven-snapshots\/org\/example\/relctl\/.*status: 403 Forbidden/);

    // The portal's "Enable SNAPSHOTs" on the namespace, through the sandbox's control service.
    const enabled = await controlCall(sandbox, 'POST', 'snapshots', JSON.stringify({ namespace: 'org.example' }));
    expect(enabled.status).toBe(200);
    expect((await call(`http://127.0.0.1:${sandbox.port}/sandbox/state`)).json().snapshotNamespaces).toEqual(['org.example']);

    const deployed = await deploySnapshot();
    expect(deployed.exitCode, deployed.output).toBe(0);
    const versionMeta = await call(`${snapshotsUrl()}${core}/1.0.0-SNAPSHOT/maven-metadata.xml`);
    expect(versionMeta.status).toBe(200);
    const stamp = /<timestamp>([^<]+)<\/timestamp>\s*<buildNumber>(\d+)<\/buildNumber>/.exec(versionMeta.text);
    expect(stamp).not.toBeNull();
    const jar = await call(`${snapshotsUrl()}${core}/1.0.0-SNAPSHOT/relctl-demo-core-1.0.0-${stamp![1]}-${stamp![2]}.jar`);
    expect(jar.status).toBe(200);
    expect(jar.bytes.subarray(0, 2).toString()).toBe('PK');
    const artifactMeta = await call(`${snapshotsUrl()}${core}/maven-metadata.xml`);
    expect(artifactMeta.text).toContain('<version>1.0.0-SNAPSHOT</version>');

    // A second deploy reads the metadata back and counts on: build number 2, as on the real repository.
    const again = await deploySnapshot();
    expect(again.exitCode, again.output).toBe(0);
    expect((await call(`${snapshotsUrl()}${core}/1.0.0-SNAPSHOT/maven-metadata.xml`)).text).toMatch(/<buildNumber>2<\/buildNumber>/);
  }, 170_000);

  test('a release version, a wrong token, and a foreign namespace are refused as the repository refuses them', async () => {
    const auth = basic(user.name, user.password);
    const release = await call(`${snapshotsUrl()}org/example/relctl/x/1.0.0/x-1.0.0.pom`, { method: 'PUT', auth, body: '<project/>' });
    expect(release.status).toBe(400);
    expect(release.text).toBe('Repository version policy: SNAPSHOT does not allow version: 1.0.0');
    const wrong = await call(`${snapshotsUrl()}org/example/relctl/x/1.0-SNAPSHOT/x-1.0-SNAPSHOT.pom`, { method: 'PUT', auth: basic(user.name, 'nope'), body: '<project/>' });
    expect(wrong.status).toBe(401);
    expect(wrong.headers['www-authenticate']).toBe('Basic realm="Sonatype Nexus Repository Manager"');
    const foreign = await call(`${snapshotsUrl()}com/other/x/1.0-SNAPSHOT/x-1.0-SNAPSHOT.pom`, { method: 'PUT', auth, body: '<project/>' });
    expect(foreign.status).toBe(403);
  });
});
