import { describe, expect, it } from 'vitest';
import { UsageError } from '../errors.js';
import { imageRef, isLoopbackRegistry, registryApiBase, resolveImageReference } from './image-reference.js';

function refusal(name: string, registry?: string): UsageError {
  try {
    resolveImageReference(name, registry);
  } catch (error) {
    if (error instanceof UsageError) return error;
    throw error;
  }
  throw new Error(`${name} was accepted`);
}

describe('image reference (docker reference grammar)', () => {
  it.each([
    ['127.0.0.1:5000/example/uportal-demo', '127.0.0.1:5000', 'example/uportal-demo'],
    ['localhost/demo', 'localhost', 'demo'],
    ['localhost:5000/a/b/c', 'localhost:5000', 'a/b/c'],
    ['[::1]:5000/demo', '[::1]:5000', 'demo'],
    ['ghcr.io/apereo/uportal-demo', 'ghcr.io', 'apereo/uportal-demo'],
    ['registry.example.org:8443/team/demo', 'registry.example.org:8443', 'team/demo'],
    ['apereo/uportal-demo', 'docker.io', 'apereo/uportal-demo'],
    ['nginx', 'docker.io', 'library/nginx'],
    ['docker.io/nginx', 'docker.io', 'library/nginx'],
    ['index.docker.io/apereo/demo', 'docker.io', 'apereo/demo'],
    ['a/b.c_d__e-f--g', 'docker.io', 'a/b.c_d__e-f--g'],
    // Docker reads a first component that is not lower case as a registry host.
    ['Example/demo', 'Example', 'demo'],
  ])('%s → %s, %s', (name, registry, repository) => {
    expect(resolveImageReference(name)).toEqual({ registry, repository });
  });

  it('the older registry key applies only to a name without a registry', () => {
    expect(resolveImageReference('example/demo', '127.0.0.1:5000')).toEqual({ registry: '127.0.0.1:5000', repository: 'example/demo' });
    expect(resolveImageReference('demo', 'ghcr.io')).toEqual({ registry: 'ghcr.io', repository: 'demo' });
    expect(resolveImageReference('demo', 'docker.io')).toEqual({ registry: 'docker.io', repository: 'library/demo' });
    expect(resolveImageReference('ghcr.io/org/demo', 'ghcr.io')).toEqual({ registry: 'ghcr.io', repository: 'org/demo' });
    expect(resolveImageReference('docker.io/org/demo', 'index.docker.io')).toEqual({ registry: 'docker.io', repository: 'org/demo' });
  });

  it('a name and a registry key that disagree are a usage error naming both', () => {
    const e = refusal('127.0.0.1:5000/example/demo', 'ghcr.io');
    expect(e.exitCode).toBe(2);
    expect(e.message).toContain('127.0.0.1:5000');
    expect(e.message).toContain('ghcr.io');
    expect(e.fix).toContain('Remove distribution.image.registry');
  });

  it.each([
    ['example/demo:1.0', 'carries the tag "1.0"'],
    ['127.0.0.1:5000/example/demo:latest', 'carries the tag "latest"'],
    [`example/demo@sha256:${'a'.repeat(64)}`, 'pins a digest'],
    ['example/Demo', '"Demo" is not lower case'],
    ['example//demo', 'an empty path component'],
    ['example/-demo', '"-demo" is not a repository path component'],
    ['example/demo_', '"demo_" is not a repository path component'],
    ['ghcr.io/', 'an empty path component'],
    ['bad_host.io/demo', 'is not a registry host'],
    [`ghcr.io/${'a'.repeat(250)}`, 'longer than the 255 characters'],
  ])('%s is refused: %s', (name, why) => {
    const e = refusal(name);
    expect(e.exitCode).toBe(2);
    expect(e.message).toContain(why);
    expect(e.fix).toBeDefined();
  });

  it('a registry key with a scheme or path is refused', () => {
    expect(refusal('demo', 'https://ghcr.io').message).toContain('not a registry host[:port]');
    expect(refusal('demo', 'ghcr.io/org').message).toContain('not a registry host[:port]');
  });

  it('references, API bases: plain HTTP only on loopback', () => {
    expect(imageRef({ registry: '127.0.0.1:5000', repository: 'a/b' }, '1.0.0')).toBe('127.0.0.1:5000/a/b:1.0.0');
    expect(isLoopbackRegistry('127.0.0.1:5000')).toBe(true);
    expect(isLoopbackRegistry('127.0.0.2')).toBe(true);
    expect(isLoopbackRegistry('localhost:5000')).toBe(true);
    expect(isLoopbackRegistry('[::1]:5000')).toBe(true);
    expect(isLoopbackRegistry('127.example.org')).toBe(false);
    expect(isLoopbackRegistry('registry.example.org:5000')).toBe(false);
    expect(registryApiBase('127.0.0.1:5000')).toBe('http://127.0.0.1:5000');
    expect(registryApiBase('[::1]:5000')).toBe('http://[::1]:5000');
    expect(registryApiBase('ghcr.io')).toBe('https://ghcr.io');
    expect(registryApiBase('docker.io')).toBe('https://registry-1.docker.io');
  });
});
