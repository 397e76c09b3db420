import { execFile } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../helpers/cli.js';
import { startHangingRegistry, type HangingMode, type HangingRegistry } from '../../helpers/registry.js';
import { imageFixture, type ImageFixture } from './image-fixture.js';

// Ctrl-C / SIGTERM while buildah talks to a registry that never answers: relctl stops buildah's
// whole process group, removes the credentials folder and exits 130, well within the bound.
const exitBoundMs = 5000;
let fx: ImageFixture;
const registries: HangingRegistry[] = [];

beforeAll(async () => {
  fx = await imageFixture();
});
afterAll(async () => {
  for (const r of registries) await r[Symbol.asyncDispose]();
  await fx?.[Symbol.asyncDispose]();
});

/** buildah processes (the wrapper or the real one) still running against this registry. */
async function buildahLeft(host: string): Promise<string[]> {
  const { stdout } = await promisify(execFile)('ps', ['-eo', 'pid,pgid,args']);
  return stdout.split('\n').filter((l) => l.includes('buildah') && l.includes(host));
}

async function interrupt(mode: HangingMode, signal: 'SIGINT' | 'SIGTERM', creds: boolean): Promise<void> {
  const registry = await startHangingRegistry(mode);
  registries.push(registry);
  await fx.configure({ name: `${registry.host}/example/demo` });
  const cli = fx.spawn(['image', '--builder', 'buildah', '--release-version', '1.2.3'], creds ? { RELCTL_REGISTRY_USERNAME: 'bot', RELCTL_REGISTRY_PASSWORD: 'Signal-Canary-7d' } : {});
  let stderr = '';
  cli.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  // Wait until buildah is stuck on the registry (the build before it takes a second or so).
  const stuck = (): boolean => (mode === 'silent' ? registry.connections() > 0 : registry.requests.some((r) => r.includes('/token')));
  for (let i = 0; i < 600 && !stuck(); i++) await sleep(50);
  expect(stuck(), stderr).toBe(true);
  await sleep(300);
  if (creds) expect(await fx.authDirsLeft()).toHaveLength(1);
  const sent = Date.now();
  cli.kill(signal);
  const result = await Promise.race([cli, sleep(20_000).then(() => undefined)]);
  const tookMs = Date.now() - sent;
  if (result === undefined) cli.kill('SIGKILL');
  expect(result?.exitCode, stderr).toBe(130);
  expect(tookMs, `exit took ${tookMs} ms`).toBeLessThan(exitBoundMs);
  expect(await fx.authDirsLeft()).toEqual([]);
  expect(await buildahLeft(registry.host)).toEqual([]);
  expect(stderr).not.toContain('Signal-Canary-7d');
  console.log(`image ${mode} ${signal}${creds ? ' (login)' : ' (push)'}: exit 130 after ${tookMs} ms`);
}

describe('relctl image interrupted while the registry hangs', () => {
  it('SIGINT during the login to a registry that accepts and never answers', () => interrupt('silent', 'SIGINT', true));
  it('SIGTERM during the login to a registry that accepts and never answers', () => interrupt('silent', 'SIGTERM', true));
  it('SIGINT during the login when the token endpoint sends its headers, then stalls', () => interrupt('stalled-token', 'SIGINT', true));
  it('SIGTERM during the push (no login) when the token endpoint sends its headers, then stalls', () => interrupt('stalled-token', 'SIGTERM', false));
});

describe('the credentials folder', () => {
  it('is removed when relctl dies of an uncaught error', async () => {
    // The compiled module (npm run build), in a node of its own that then throws from a timer.
    const module = path.join(repoRoot, 'dist', 'io', 'credential-dir.js');
    const script = `import(${JSON.stringify(module)}).then(async (m) => { const d = await m.createCredentialDir('relctl-registry-auth-'); console.log(d.path); setTimeout(() => { throw new Error('boom'); }, 10); });`;
    const r = await execa('node', ['--input-type=module', '-e', script], { env: { TMPDIR: fx.tmp }, reject: false });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('boom');
    expect(String(r.stdout)).toContain(path.join(fx.tmp, 'relctl-registry-auth-'));
    expect((await readdir(fx.tmp)).filter((n) => n.startsWith('relctl-registry-auth-'))).toEqual([]);
  });
});
