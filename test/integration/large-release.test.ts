import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { appendFile, mkdir, open, readFile, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { binPath } from '../helpers/cli.js';
import { createTestKey, type TestKey } from '../helpers/gpg.js';
import { runCliMeasured } from '../helpers/measure.js';
import { tempDir, type TempDir } from '../helpers/temp.js';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { uploadKey, writeComponent } from './upload-helpers.js';

/**
 * A release with one 600 MB artifact, verified and uploaded by relctl children, received by a
 * `relctl sandbox` child: each reports a peak resident size far below the artifact's size (the
 * old code held every file, and the bundle twice, in memory). The artifact is sparse (made in an
 * instant), but every byte of it is read, hashed, signed by real gpg and verified by openpgp.
 * This is the suite's one big-file test: it costs about half a minute on two cores.
 */
const artifactBytes = 600 * 1024 * 1024;
const mib = 1024 * 1024;
/** Far below the artifact: what a process with openpgp loaded needs, plus a few read buffers. */
const peakLimitMiB = 250;

let work: TempDir;
let key: TestKey;
let sandbox: ResultPromise;
let ready: { stagingApiUrl: string; portalUrl: string; publicRepoUrl: string; keyserverUrl: string; secondaryKeyserverUrl: string };
let stage: string;

async function digest(file: string, algorithm: string): Promise<string> {
  const hash = createHash(algorithm);
  for await (const chunk of createReadStream(file, { highWaterMark: 4 * mib })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** The peak resident size of a running process (VmHWM), in MiB. */
async function peakOf(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/^VmHWM:\s+(\d+)\s+kB/m.exec(status)![1]) / 1024);
}

function relctlEnv(): Record<string, string> {
  return {
    RELCTL_STAGING_API_URL: ready.stagingApiUrl,
    RELCTL_PORTAL_URL: ready.portalUrl,
    RELCTL_PUBLIC_REPO_URL: ready.publicRepoUrl,
    RELCTL_KEYSERVER_URL: ready.keyserverUrl,
    RELCTL_SECONDARY_KEYSERVER_URL: ready.secondaryKeyserverUrl,
    RELCTL_TOKEN_USERNAME: 'sandbox',
    RELCTL_TOKEN_PASSWORD: 'sandbox',
  };
}

beforeAll(async () => {
  work = await tempDir('relctl-large-');
  sandbox = execa('node', [binPath, 'sandbox', '--port', '0', '--json', '--accept-unconfirmed-keys', '--data-dir', path.join(work.path, 'sandbox')], {
    env: { CI: 'true', NO_COLOR: '1' },
    reject: false,
    buffer: false,
  });
  let out = '';
  ready = await new Promise((resolve, reject) => {
    sandbox.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      try {
        resolve(JSON.parse(out));
      } catch {
        // not complete yet
      }
    });
    void sandbox.then((r) => reject(new Error(`the sandbox exited ${r.exitCode} before it was ready`)));
  });
  key = await createTestKey();
  await uploadKey({ urls: ready } as unknown as RunningSandbox, key.armoredPublicKey);
  stage = path.join(work.path, 'stage');
  await writeComponent(stage, key, { groupId: 'org.example', artifactId: 'big', version: '1.0.0' });
  const jar = path.join(stage, 'org/example/big/1.0.0/big-1.0.0.jar');
  await truncate(jar, artifactBytes);
  await appendFile(jar, 'the end of a big jar');
  for (const algorithm of ['md5', 'sha1']) await writeFile(`${jar}.${algorithm}`, await digest(jar, algorithm));
  await key.sign(jar);
}, 120_000);

afterAll(async () => {
  sandbox?.kill('SIGTERM');
  await sandbox;
  await key?.cleanup();
  await work?.[Symbol.asyncDispose]();
});

describe('a release with a 600 MB artifact', () => {
  it('verify reads it as a stream: exit 0, every rule checked, peak memory far below its size', async () => {
    // 600 MB is far over the free tier's 15 MB a month: this test is about reading it, not the budget.
    const r = await runCliMeasured(['verify', '--over-budget', '--dir', stage, '--cwd', work.path], { env: relctlEnv(), killAfterMs: 120_000 });
    expect(r.exitCode, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('verify (1 component): passed');
    expect(r.peakMiB).toBeLessThan(peakLimitMiB);
  }, 150_000);

  it('a changed byte deep inside it fails its checksums and signature, read in the same single pass', async () => {
    const copy = path.join(work.path, 'tampered');
    await execa('cp', ['-r', '--sparse=always', stage, copy]);
    const jar = path.join(copy, 'org/example/big/1.0.0/big-1.0.0.jar');
    const handle = await open(jar, 'r+');
    await handle.write('X', artifactBytes / 2);
    await handle.close();
    const r = await runCliMeasured(['verify', '--dir', copy, '--json', '--cwd', work.path], { env: relctlEnv(), killAfterMs: 120_000 });
    expect(r.exitCode, r.stderr).toBe(1);
    const codes = (JSON.parse(r.stdout) as { findings: { code: string; file: string }[] }).findings.map((f) => `${f.code} ${path.basename(f.file)}`);
    expect(codes.sort()).toEqual(['bad-checksum big-1.0.0.jar.md5', 'bad-checksum big-1.0.0.jar.sha1', 'invalid-signature big-1.0.0.jar.asc']);
    expect(r.peakMiB).toBeLessThan(peakLimitMiB);
  }, 150_000);

  it('the bundle route: verified entry by entry from the zip, streamed to the sandbox, which validates it on disk', async () => {
    const project = path.join(work.path, 'project');
    const bundle = path.join(project, 'central-bundle.zip');
    await mkdir(path.join(project, '.relctl'), { recursive: true });
    // Stored, not deflated: the zip is as big as the release, so the upload really moves 600 MB.
    await execa('jar', ['--create', '--no-manifest', '--no-compress', '--file', bundle, '-C', stage, 'org']);
    const build = { publishingRoute: 'portal-plugin', bundle, groupId: 'org.example', artifactId: 'big', version: '1.0.0' };
    const journal = { version: 1, steps: [{ id: 'build', status: 'done', at: new Date().toISOString(), data: build }], uploads: [] };
    await writeFile(path.join(project, '.relctl', 'journal.json'), JSON.stringify(journal));

    const r = await runCliMeasured(['run', 'verify', 'upload', '--yes', '--over-budget', '--json', '--cwd', project], { env: relctlEnv(), killAfterMs: 240_000 });
    expect(r.exitCode, r.stdout + r.stderr).toBe(0);
    const deploymentId = (JSON.parse(r.stdout) as { context: { deploymentId?: string } }).context.deploymentId;
    expect(deploymentId).toMatch(/^[0-9a-f-]{36}$/);
    expect(r.peakMiB).toBeLessThan(peakLimitMiB);

    const status = await fetch(`${ready.portalUrl}/api/v1/publisher/status?id=${deploymentId}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${Buffer.from('sandbox:sandbox').toString('base64')}` },
    });
    expect(((await status.json()) as { deploymentState: string }).deploymentState).toBe('VALIDATED');
    expect(await peakOf(sandbox.pid!)).toBeLessThan(peakLimitMiB);
  }, 300_000);
});
