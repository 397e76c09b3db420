import { describe, expect, it } from 'vitest';
import { imageCommands, probeCommand, type ImageSpec } from './image-plan.js';

const spec: ImageSpec = { registry: '127.0.0.1:5000', repository: 'apereo/uportal-demo', version: '5.1.0', context: '/d', dockerfile: '/d/Dockerfile' };
const login = { username: 'bot', authDir: '/tmp/a' };

describe('image plan', () => {
  it('buildah: vfs, chroot isolation, plain HTTP on loopback, password on stdin, the version and latest pushed', () => {
    const cmds = imageCommands('buildah', spec, login);
    expect(cmds.map((c) => c.args.join(' '))).toEqual([
      '--storage-driver vfs bud --isolation chroot -f /d/Dockerfile --build-arg VERSION=5.1.0 -t 127.0.0.1:5000/apereo/uportal-demo:5.1.0 /d',
      '--storage-driver vfs tag 127.0.0.1:5000/apereo/uportal-demo:5.1.0 127.0.0.1:5000/apereo/uportal-demo:latest',
      '--storage-driver vfs login --authfile /tmp/a/auth.json --tls-verify=false --username bot --password-stdin 127.0.0.1:5000',
      '--storage-driver vfs push --authfile /tmp/a/auth.json --tls-verify=false 127.0.0.1:5000/apereo/uportal-demo:5.1.0',
      '--storage-driver vfs push --authfile /tmp/a/auth.json --tls-verify=false 127.0.0.1:5000/apereo/uportal-demo:latest',
    ]);
    expect(cmds.filter((c) => c.passwordOnStdin).length).toBe(1);
  });

  it('without credentials: no login, and no credentials file named (a registry that needs none just works)', () => {
    for (const builder of ['buildah', 'podman', 'docker'] as const) {
      const cmds = imageCommands(builder, spec, undefined);
      expect(cmds.map((c) => c.purpose)).toEqual([
        `${builder} build 127.0.0.1:5000/apereo/uportal-demo:5.1.0`,
        `${builder} tag 127.0.0.1:5000/apereo/uportal-demo:latest`,
        `${builder} push 127.0.0.1:5000/apereo/uportal-demo:5.1.0`,
        `${builder} push 127.0.0.1:5000/apereo/uportal-demo:latest`,
      ]);
      expect(cmds.flatMap((c) => c.args).filter((a) => a === '--authfile' || a === '--config')).toEqual([]);
    }
  });

  it('docker: a throwaway config folder, TLS left to docker', () => {
    const cmds = imageCommands('docker', { ...spec, registry: 'ghcr.io' }, login);
    expect(cmds.map((c) => c.args.join(' '))).toEqual([
      'build -f /d/Dockerfile --build-arg VERSION=5.1.0 -t ghcr.io/apereo/uportal-demo:5.1.0 /d',
      'tag ghcr.io/apereo/uportal-demo:5.1.0 ghcr.io/apereo/uportal-demo:latest',
      '--config /tmp/a login --username bot --password-stdin ghcr.io',
      '--config /tmp/a push ghcr.io/apereo/uportal-demo:5.1.0',
      '--config /tmp/a push ghcr.io/apereo/uportal-demo:latest',
    ]);
  });

  it('podman off loopback verifies TLS', () => {
    const cmds = imageCommands('podman', { ...spec, registry: 'registry.example.org:5000' }, login);
    expect(cmds.some((c) => c.args.includes('--tls-verify=false'))).toBe(false);
  });

  it('probes each builder the way that fails when it cannot build', () => {
    expect(probeCommand('docker')).toEqual(['info', '--format', '{{.ID}}']);
    expect(probeCommand('podman')).toEqual(['info']);
    expect(probeCommand('buildah')).toEqual(['--storage-driver', 'vfs', 'version']);
  });
});
