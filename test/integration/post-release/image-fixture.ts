import { chmod, mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ResultPromise } from 'execa';
import { runCli, spawnCli, type CliResult } from '../../helpers/cli.js';
import { startPublicRepo, type PublicRepo } from '../../helpers/public-repo.js';
import { buildahStorageEnv } from '../../helpers/registry.js';
import { git, gitEnv, gitRepo, tempDir, type TempDir } from '../../helpers/temp.js';

/**
 * What every `relctl image` test needs: a project (org.example:demo, tag demo-1.2.3) with a tiny
 * Dockerfile, a loopback public repository that has 1.2.3, buildah's storage in the temp folder,
 * a private TMPDIR (so a left-over relctl-registry-auth-* folder is seen), and a `buildah` first on
 * PATH that records each call (argv, the sha256 of its stdin, its environment) before it runs the
 * real one.
 */
export interface ImageFixture extends AsyncDisposable {
  dir: string;
  project: string;
  home: string;
  /** The TMPDIR relctl and buildah run with. */
  tmp: string;
  publicRepo: PublicRepo;
  /** Writes relctl.config.json with this distribution.image section. */
  configure(image: Record<string, string>): Promise<void>;
  relctl(args: string[], env?: Record<string, string | undefined>): Promise<CliResult>;
  /** Starts the CLI without waiting (for the signal tests). */
  spawn(args: string[], env?: Record<string, string | undefined>): ResultPromise;
  /** One line per buildah call: `argv: ...` then `stdin: <sha256>`. */
  calls(): Promise<string>;
  /** The environments buildah was started with (`env` output of every call). */
  environments(): Promise<string>;
  /** Names of relctl-registry-auth-* folders left in TMPDIR. */
  authDirsLeft(): Promise<string[]>;
}

const dockerfile = 'FROM scratch\nARG VERSION\nLABEL org.example.version=$VERSION\nCOPY hello.txt /hello.txt\n';

export async function imageFixture(): Promise<ImageFixture> {
  const dir: TempDir = await tempDir('relctl-image-');
  const project = path.join(dir.path, 'project');
  const home = path.join(dir.path, 'home');
  const tmp = path.join(dir.path, 'tmp');
  const bin = path.join(dir.path, 'bin');
  await Promise.all([mkdir(tmp), mkdir(bin), mkdir(home)]);
  await gitRepo(project, home, {
    'pom.xml': '<project><modelVersion>4.0.0</modelVersion><groupId>org.example</groupId><artifactId>demo</artifactId><version>1.2.4-SNAPSHOT</version></project>\n',
    'docker/Dockerfile': dockerfile,
    'docker/hello.txt': 'hello\n',
  });
  await git(project, home, 'tag', 'demo-1.2.3');
  const calls = path.join(dir.path, 'buildah-calls.log');
  const environments = path.join(dir.path, 'buildah-env.log');
  // stdin is hashed, not stored: the test proves the password arrived there without writing it
  // down. The real buildah replaces the wrapper (exec, stdin from a here-document, which adds the
  // newline --password-stdin drops), so it stays relctl's own child, as without the wrapper.
  await writeFile(
    path.join(bin, 'buildah'),
    [
      '#!/bin/sh',
      `printf 'argv: %s\\n' "$*" >> "${calls}"`,
      `env >> "${environments}"`,
      'input=$(cat)',
      `printf 'stdin: %s\\n' "$(printf '%s' "$input" | sha256sum | cut -d' ' -f1)" >> "${calls}"`,
      'exec /usr/bin/buildah "$@" <<EOF',
      '$input',
      'EOF',
      '',
    ].join('\n'),
  );
  await chmod(path.join(bin, 'buildah'), 0o755);
  const publicRepo = await startPublicRepo('org.example', 'demo', ['1.2.3']);
  const env = {
    ...gitEnv(home),
    ...(await buildahStorageEnv(dir.path)),
    PATH: `${bin}:${process.env.PATH}`,
    TMPDIR: tmp,
    RELCTL_PUBLIC_REPO_URL: publicRepo.url,
  };
  const read = (file: string) => readFile(file, 'utf8').catch(() => '');
  return {
    dir: dir.path,
    project,
    home,
    tmp,
    publicRepo,
    configure: (image) => writeFile(path.join(project, 'relctl.config.json'), JSON.stringify({ distribution: { image: { context: 'docker', ...image } } })),
    relctl: (args, extra = {}) => runCli([...args, '--cwd', project], { home, env: { ...env, ...extra }, timeoutMs: 120_000 }),
    spawn: (args, extra = {}) => {
      const clean: Record<string, string | undefined> = {};
      for (const k of Object.keys(process.env)) if (k.startsWith('RELCTL_')) clean[k] = undefined;
      return spawnCli([...args, '--cwd', project], { env: { ...clean, ...env, ...extra } });
    },
    calls: () => read(calls),
    environments: () => read(environments),
    authDirsLeft: async () => (await readdir(tmp)).filter((n) => n.startsWith('relctl-registry-auth-')),
    [Symbol.asyncDispose]: async () => {
      await publicRepo[Symbol.asyncDispose]();
      await dir[Symbol.asyncDispose]();
    },
  };
}

/** The digest a tag resolves to on a loopback registry (null when it does not resolve). */
export async function digestOf(host: string, repository: string, tag: string, auth?: { user: string; password: string }): Promise<string | null> {
  const r = await fetch(`http://${host}/v2/${repository}/manifests/${tag}`, {
    method: 'HEAD',
    headers: {
      accept: 'application/vnd.oci.image.manifest.v1+json, application/vnd.docker.distribution.manifest.v2+json',
      ...(auth === undefined ? {} : { authorization: `Basic ${Buffer.from(`${auth.user}:${auth.password}`).toString('base64')}` }),
    },
  });
  return r.headers.get('docker-content-digest');
}
