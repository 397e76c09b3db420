import { describe, expect, it } from 'vitest';
import { imageCommands, isLoopbackRegistry, probeCommand, registryApiBase, type ImageSpec } from './image-plan.js';

const spec: ImageSpec = { registry: '127.0.0.1:5000', name: 'apereo/uportal-demo', version: '5.1.0', context: '/d', dockerfile: '/d/Dockerfile', authDir: '/tmp/a' };

describe('image plan', () => {
  it('reaches only loopback registries over plain HTTP', () => {
    expect(isLoopbackRegistry('127.0.0.1:5000')).toBe(true);
    expect(isLoopbackRegistry('127.0.0.2')).toBe(true);
    expect(isLoopbackRegistry('localhost:5000')).toBe(true);
    expect(isLoopbackRegistry('[::1]:5000')).toBe(true);
    expect(isLoopbackRegistry('127.example.org')).toBe(false);
    expect(isLoopbackRegistry('registry.example.org:5000')).toBe(false);
    expect(registryApiBase('127.0.0.1:5000')).toBe('http://127.0.0.1:5000');
    expect(registryApiBase('ghcr.io')).toBe('https://ghcr.io');
    expect(registryApiBase('docker.io')).toBe('https://registry-1.docker.io');
  });

  it('buildah: vfs, chroot isolation, plain HTTP on loopback, password on stdin, the version and latest pushed', () => {
    const cmds = imageCommands('buildah', spec, { username: 'bot' });
    expect(cmds.map((c) => c.args.join(' '))).toEqual([
      '--storage-driver vfs bud --isolation chroot -f /d/Dockerfile --build-arg VERSION=5.1.0 -t 127.0.0.1:5000/apereo/uportal-demo:5.1.0 /d',
      '--storage-driver vfs tag 127.0.0.1:5000/apereo/uportal-demo:5.1.0 127.0.0.1:5000/apereo/uportal-demo:latest',
      '--storage-driver vfs login --authfile /tmp/a/auth.json --tls-verify=false --username bot --password-stdin 127.0.0.1:5000',
      '--storage-driver vfs push --authfile /tmp/a/auth.json --tls-verify=false 127.0.0.1:5000/apereo/uportal-demo:5.1.0',
      '--storage-driver vfs push --authfile /tmp/a/auth.json --tls-verify=false 127.0.0.1:5000/apereo/uportal-demo:latest',
    ]);
    expect(cmds.filter((c) => c.passwordOnStdin).length).toBe(1);
  });

  it('docker: a throwaway config folder, TLS left to docker, no login without a user', () => {
    const cmds = imageCommands('docker', { ...spec, registry: 'ghcr.io' }, undefined);
    expect(cmds.map((c) => c.args[0] === '--config' ? c.args.slice(2).join(' ') : c.args.join(' '))).toEqual([
      'build -f /d/Dockerfile --build-arg VERSION=5.1.0 -t ghcr.io/apereo/uportal-demo:5.1.0 /d',
      'tag ghcr.io/apereo/uportal-demo:5.1.0 ghcr.io/apereo/uportal-demo:latest',
      'push ghcr.io/apereo/uportal-demo:5.1.0',
      'push ghcr.io/apereo/uportal-demo:latest',
    ]);
    expect(cmds.some((c) => c.args.includes('--tls-verify=false'))).toBe(false);
  });

  it('probes each builder the way that fails when it cannot build', () => {
    expect(probeCommand('docker')).toEqual(['info', '--format', '{{.ID}}']);
    expect(probeCommand('podman')).toEqual(['info']);
    expect(probeCommand('buildah')).toEqual(['--storage-driver', 'vfs', 'version']);
  });
});
