import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRegistry, type LoopbackRegistry } from '../../helpers/registry.js';
import { digestOf, imageFixture, type ImageFixture } from './image-fixture.js';

// Real buildah, real registries (Debian's docker-registry) on loopback: one with htpasswd auth,
// one that needs no login.
const canary = 'registry-Canary-41c9';
const bot = { RELCTL_REGISTRY_USERNAME: 'bot', RELCTL_REGISTRY_PASSWORD: canary };
let fx: ImageFixture;
let locked: LoopbackRegistry;
let open: LoopbackRegistry;

beforeAll(async () => {
  fx = await imageFixture();
  await Promise.all([mkdir(path.join(fx.dir, 'locked')), mkdir(path.join(fx.dir, 'open'))]);
  [locked, open] = await Promise.all([startRegistry(path.join(fx.dir, 'locked'), { user: 'bot', password: canary }), startRegistry(path.join(fx.dir, 'open'))]);
});
afterAll(async () => {
  await locked?.[Symbol.asyncDispose]();
  await open?.[Symbol.asyncDispose]();
  await fx?.[Symbol.asyncDispose]();
});

describe('relctl image', () => {
  it('builds with buildah, logs in through stdin, pushes the version and latest, and checks both resolve to one digest (name and the older registry key)', async () => {
    await fx.configure({ name: 'example/portal-demo', registry: locked.host });
    const r = await fx.relctl(['image', '--builder', 'buildah', '--json', '--verbose'], bot);
    expect(r.exitCode, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as { version: string; builder: string; refs: string[]; digest: string; loggedIn: boolean };
    expect(doc).toMatchObject({ version: '1.2.3', builder: 'buildah', loggedIn: true, refs: [`${locked.host}/example/portal-demo:1.2.3`, `${locked.host}/example/portal-demo:latest`] });
    expect(doc.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    const auth = { user: 'bot', password: canary };
    expect(await digestOf(locked.host, 'example/portal-demo', '1.2.3', auth)).toBe(doc.digest);
    expect(await digestOf(locked.host, 'example/portal-demo', 'latest', auth)).toBe(doc.digest);

    const calls = await fx.calls();
    expect(calls).toContain('--password-stdin');
    expect(calls).toContain('--tls-verify=false');
    expect(calls).not.toContain(canary);
    expect(r.stdout + r.stderr).not.toContain(canary);
    expect(await fx.authDirsLeft()).toEqual([]);
  });

  it('a full reference as docker users write it (registry:port/path), to a registry that needs no login: pushed without logging in, no credentials file named', async () => {
    await fx.configure({ name: `${open.host}/example/open-demo` });
    const before = (await fx.calls()).length;
    const r = await fx.relctl(['image', '--builder', 'buildah', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as { refs: string[]; digest: string; loggedIn: boolean; registry: string };
    expect(doc).toMatchObject({ loggedIn: false, registry: open.host, refs: [`${open.host}/example/open-demo:1.2.3`, `${open.host}/example/open-demo:latest`] });
    expect(await digestOf(open.host, 'example/open-demo', '1.2.3')).toBe(doc.digest);
    expect(await digestOf(open.host, 'example/open-demo', 'latest')).toBe(doc.digest);
    const calls = (await fx.calls()).slice(before);
    expect(calls).toContain(`push --tls-verify=false ${open.host}/example/open-demo:latest`);
    expect(calls).not.toMatch(/ login |--authfile/);
    expect(await fx.authDirsLeft()).toEqual([]);
  });

  it('a name with a tag, a bad path, or a registry that the registry key contradicts is exit 2 before anything runs', async () => {
    const before = (await fx.calls()).length;
    for (const [image, says] of [
      [{ name: `${open.host}/example/demo:1.0` }, 'carries the tag "1.0"'],
      [{ name: `${open.host}/Example/demo` }, '"Example" is not lower case'],
      [{ name: `${open.host}/example/demo`, registry: 'ghcr.io' }, `names the registry ${open.host}, but distribution.image.registry says ghcr.io`],
    ] as const) {
      await fx.configure(image);
      const r = await fx.relctl(['image', '--builder', 'buildah']);
      expect(r.exitCode, r.stderr).toBe(2);
      expect(r.stderr).toContain(says);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
    expect((await fx.calls()).length).toBe(before);
  });

  it('refuses a version the public repository does not have (exit 1, naming relctl status); --force builds and pushes it', async () => {
    await fx.configure({ name: `${open.host}/example/orphan-demo` });
    const refused = await fx.relctl(['image', '--builder', 'buildah', '--release-version', '1.2.4']);
    expect(refused.exitCode, refused.stderr).toBe(1);
    expect(refused.stderr).toContain('org.example:demo:1.2.4 is not on');
    expect(refused.stderr).toContain('relctl status');
    expect(await digestOf(open.host, 'example/orphan-demo', '1.2.4')).toBeNull();

    const forced = await fx.relctl(['image', '--builder', 'buildah', '--release-version', '1.2.4', '--force', '--yes']);
    expect(forced.exitCode, forced.stderr).toBe(0);
    expect(forced.stderr).toContain('going on because of --force');
    expect(await digestOf(open.host, 'example/orphan-demo', '1.2.4')).toMatch(/^sha256:/);
  });

  it('a wrong registry password fails the login with exit 3, never echoing it', async () => {
    await fx.configure({ name: `${locked.host}/example/portal-demo` });
    const r = await fx.relctl(['image', '--builder', 'buildah', '--release-version', '1.2.3'], { ...bot, RELCTL_REGISTRY_PASSWORD: 'Wrong-Registry-Pass' });
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toContain('buildah login');
    expect(r.stderr).toContain('RELCTL_REGISTRY_PASSWORD');
    expect(r.stdout + r.stderr).not.toContain('Wrong-Registry-Pass');
    expect(await fx.authDirsLeft()).toEqual([]);
  });

  it('--dry-run prints the build, login and push commands, runs none, needs no registry and no published version; --yes is accepted', async () => {
    // Port 1 on loopback: nothing listens there.
    await fx.configure({ name: '127.0.0.1:1/example/portal-demo' });
    const before = (await fx.calls()).length;
    const r = await fx.relctl(['image', '--builder', 'buildah', '--release-version', '9.9.9', '--dry-run', '--yes'], bot);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/! buildah --storage-driver vfs bud .*-t 127\.0\.0\.1:1\/example\/portal-demo:9\.9\.9/);
    expect(r.stderr).toMatch(/! buildah --storage-driver vfs login --authfile \S+relctl-registry-auth-XXXXXX\/auth\.json --tls-verify=false --username bot --password-stdin 127\.0\.0\.1:1/);
    expect(r.stderr).toMatch(/! buildah --storage-driver vfs push .*127\.0\.0\.1:1\/example\/portal-demo:latest/);
    expect(r.stderr).toContain('is not on');
    expect(r.stderr).not.toContain(canary);
    // Only the builder probe ran.
    expect((await fx.calls()).slice(before)).toMatch(/^argv: --storage-driver vfs version\nstdin: \w+\n$/);
    expect(await fx.authDirsLeft()).toEqual([]);
  });

  it('--release-version is validated once: a trailing space is exit 2', async () => {
    const r = await fx.relctl(['image', '--release-version', '1.0.0 ']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('is not a release version');
  });

  it('without a builder that works, says which were tried and what to install, not a path in relctl (exit 3)', async () => {
    await fx.configure({ name: `${open.host}/example/portal-demo` });
    const r = await fx.relctl(['image', '--builder', 'podman', '--release-version', '1.2.3'], { PATH: path.dirname(process.execPath) });
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toContain('No image builder works here');
    expect(r.stderr).toContain('apt-get install buildah');
    expect(r.stderr).not.toContain('scripts/');
  });
});
