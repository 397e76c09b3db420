import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli.js';
import { buildahStorageEnv, startRegistry, type LoopbackRegistry } from '../../helpers/registry.js';
import { git, gitRepo, tempDir, type TempDir } from '../../helpers/temp.js';

// Real buildah, real registry (Debian's docker-registry) on loopback with htpasswd auth.
const canary = 'registry-Canary-41c9';
let dir: TempDir;
let registry: LoopbackRegistry;
let project: string;
let env: Record<string, string>;
const home = (): string => path.join(dir.path, 'home');

beforeAll(async () => {
  dir = await tempDir('relctl-image-');
  await mkdir(path.join(dir.path, 'registry'));
  registry = await startRegistry(path.join(dir.path, 'registry'), { user: 'bot', password: canary });
  project = path.join(dir.path, 'project');
  await gitRepo(project, home(), {
    'pom.xml': '<project><modelVersion>4.0.0</modelVersion><groupId>org.example</groupId><artifactId>demo</artifactId><version>1.2.4-SNAPSHOT</version></project>\n',
    'relctl.config.json': JSON.stringify({ distribution: { image: { name: 'example/portal-demo', registry: registry.host, context: 'docker' } } }),
    'docker/Dockerfile': 'FROM scratch\nARG VERSION\nLABEL org.example.version=$VERSION\nCOPY hello.txt /hello.txt\n',
    'docker/hello.txt': 'hello\n',
  });
  await git(project, home(), 'tag', 'demo-1.2.3');
  // A buildah on PATH that records its argv before running the real one: the password must not be there.
  const bin = path.join(dir.path, 'bin');
  await mkdir(bin);
  await writeFile(path.join(bin, 'buildah'), `#!/bin/sh\nprintf '%s\\n' "$*" >> "${path.join(dir.path, 'argv.log')}"\nexec /usr/bin/buildah "$@"\n`);
  await chmod(path.join(bin, 'buildah'), 0o755);
  env = { ...(await buildahStorageEnv(dir.path)), PATH: `${bin}:${process.env.PATH}`, RELCTL_REGISTRY_USERNAME: 'bot', RELCTL_REGISTRY_PASSWORD: canary };
});
afterAll(async () => {
  await registry?.[Symbol.asyncDispose]();
  await dir?.[Symbol.asyncDispose]();
});

const relctl = (args: string[], extra: Record<string, string> = {}) => runCli([...args, '--cwd', project], { home: home(), env: { ...env, ...extra }, timeoutMs: 120_000 });

async function digestOf(tag: string): Promise<string | null> {
  const auth = `Basic ${Buffer.from(`bot:${canary}`).toString('base64')}`;
  const r = await fetch(`http://${registry.host}/v2/example/portal-demo/manifests/${tag}`, {
    method: 'HEAD',
    headers: { authorization: auth, accept: 'application/vnd.oci.image.manifest.v1+json, application/vnd.docker.distribution.manifest.v2+json' },
  });
  return r.headers.get('docker-content-digest');
}

describe('relctl image', () => {
  it('builds with buildah, logs in through stdin, pushes the version and latest, and checks both resolve to one digest', async () => {
    const r = await relctl(['image', '--builder', 'buildah', '--json', '--verbose']);
    expect(r.exitCode, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as { version: string; builder: string; refs: string[]; digest: string; loggedIn: boolean };
    expect(doc).toMatchObject({ version: '1.2.3', builder: 'buildah', loggedIn: true, refs: [`${registry.host}/example/portal-demo:1.2.3`, `${registry.host}/example/portal-demo:latest`] });
    expect(doc.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(await digestOf('1.2.3')).toBe(doc.digest);
    expect(await digestOf('latest')).toBe(doc.digest);

    const argv = await readFile(path.join(dir.path, 'argv.log'), 'utf8');
    expect(argv).toContain('--password-stdin');
    expect(argv).toContain('--tls-verify=false');
    expect(argv).not.toContain(canary);
    expect(r.stdout + r.stderr).not.toContain(canary);
  });

  it('a wrong registry password fails the login with exit 3, never echoing it', async () => {
    const r = await relctl(['image', '--builder', 'buildah', '--release-version', '1.2.3'], { RELCTL_REGISTRY_PASSWORD: 'Wrong-Registry-Pass' });
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toContain('buildah login');
    expect(r.stderr).toContain('RELCTL_REGISTRY_PASSWORD');
    expect(r.stdout + r.stderr).not.toContain('Wrong-Registry-Pass');
  });

  it('--dry-run prints the commands and pushes nothing', async () => {
    const r = await relctl(['image', '--builder', 'buildah', '--release-version', '9.9.9', '--dry-run']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/! buildah --storage-driver vfs push .*example\/portal-demo:9\.9\.9/);
    expect(await digestOf('9.9.9')).toBeNull();
  });

  it('without a builder that works, says which were tried and how to get one (exit 3)', async () => {
    const r = await relctl(['image', '--builder', 'podman', '--release-version', '1.2.3'], { PATH: path.dirname(process.execPath) });
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toContain('No image builder works here');
  });
});
