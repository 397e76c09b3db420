import { mkdir, readFile, readdir } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { processAlive } from '../../src/io/process-identity.js';
import { binPath } from '../helpers/cli.js';
import { writeMavenSettings } from '../helpers/maven.js';
import { tempDir } from '../helpers/temp.js';
import { demoInTemp, releaseEnv } from './release-fixture.js';

/**
 * Ctrl-C / SIGTERM during a release (issue 10 item 5): the fake mvn sleeps in release:perform
 * (its `sleep` child is a grandchild of relctl); the signal must stop the whole process group,
 * remove the private settings folder, say where the release stands and how to continue, and
 * exit 130.
 */
async function waitFor(file: string, ms: number): Promise<string> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const text = await readFile(file, 'utf8').catch(() => undefined);
    if (text !== undefined && text.trim() !== '') return text.trim();
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${file} never appeared`);
}

describe('interrupting relctl release', () => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`${signal} during release:perform stops Maven and its children, removes the settings folder, names the open staging repository and exits 130`, async () => {
      await using t = await tempDir();
      const { dir, home } = await demoInTemp(t.path);
      const tmp = path.join(t.path, 'tmp');
      await mkdir(tmp);
      await writeMavenSettings(path.join(home, '.m2', 'settings.xml'), { username: 'u', password: 'p' });
      const pidFile = path.join(t.path, 'sleep.pid');
      const env = {
        ...releaseEnv(home, path.join(t.path, 'tools.log')),
        CI: 'true',
        NO_COLOR: '1',
        TMPDIR: tmp,
        // The token from the environment: relctl writes a private settings file for Maven.
        RELCTL_TOKEN_USERNAME: 'user',
        RELCTL_TOKEN_PASSWORD: 'canary-interrupt-secret',
        RELCTL_FAKE_MVN_SLEEP: 'release:perform',
        RELCTL_FAKE_MVN_SLEEP_PID: pidFile,
      };
      const child = execa('node', [binPath, 'release', '--yes', '--offline', '--json', '--cwd', dir], { env, extendEnv: true, reject: false, timeout: 60_000 });
      const sleepPid = Number(await waitFor(pidFile, 45_000));
      expect(processAlive(sleepPid)).toBe(true);
      expect((await readdir(tmp)).filter((n) => n.startsWith('relctl-settings-'))).toHaveLength(1);
      const started = Date.now();
      child.kill(signal);
      const r = await child;
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(r.exitCode, String(r.stderr)).toBe(130);
      const stderr = String(r.stderr);
      expect(stderr).toContain('Interrupted during build');
      expect(stderr).toContain('release:perform');
      expect(stderr).toContain('Finished steps: preflight, prep');
      expect(stderr).toContain('relctl release --resume');
      expect(stderr).toContain('relctl drop --repository-key');
      expect(stderr).toContain('relctl search --group-id org.example.relctl');
      expect(stderr).not.toContain('canary-interrupt-secret');
      const doc = JSON.parse(String(r.stdout)) as { ok: boolean; error: { code: string; message: string; fix: string } };
      expect(doc.ok).toBe(false);
      expect(doc.error.code).toBe('interrupted');
      expect(doc.error.fix).toContain('relctl release --resume');
      expect(processAlive(sleepPid), 'the sleep grandchild was stopped').toBe(false);
      expect(await readdir(tmp)).toEqual([]);
      const journal = JSON.parse(await readFile(path.join(dir, '.relctl', 'journal.json'), 'utf8')) as { steps: { id: string; status: string }[] };
      expect(journal.steps.map((s) => `${s.id}:${s.status}`)).toEqual(['preflight:done', 'prep:done', 'build:failed']);
    }, 90_000);
  }
});

describe('interrupting the manual upload', () => {
  it('says the call may have reached the portal, how to see it, and exits 130', async () => {
    await using t = await tempDir();
    const { dir, home } = await demoInTemp(t.path);
    let received = 0;
    // A staging API that takes the upload call and never answers.
    const server = http.createServer(() => {
      received++;
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/staging`;
      const env = { ...releaseEnv(home, path.join(t.path, 'tools.log')), CI: 'true', NO_COLOR: '1', RELCTL_STAGING_API_URL: url, RELCTL_TOKEN_USERNAME: 'u', RELCTL_TOKEN_PASSWORD: 'canary-upload-secret' };
      const child = execa('node', [binPath, 'run', 'upload', '--timeout', '60', '--cwd', dir], { env, extendEnv: true, reject: false, timeout: 60_000 });
      for (let i = 0; i < 200 && received === 0; i++) await new Promise((r) => setTimeout(r, 50));
      expect(received).toBe(1);
      child.kill('SIGINT');
      const r = await child;
      expect(r.exitCode, String(r.stderr)).toBe(130);
      const stderr = String(r.stderr);
      expect(stderr).toContain('Interrupted during upload');
      expect(stderr).toContain('may have reached the portal');
      expect(stderr).toContain('relctl search --group-id org.example.relctl --ip any');
      expect(stderr).toContain('relctl run upload --resume');
      expect(stderr).not.toContain('canary-upload-secret');
    } finally {
      server.closeAllConnections();
      server.close();
    }
  }, 60_000);
});
