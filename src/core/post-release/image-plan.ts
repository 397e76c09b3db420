/**
 * The demo image's command lines (seed part 4.8 step 3): build, tag the version and latest, log
 * in, push both. Pure argv builders for docker, podman and buildah; the password only ever goes
 * to the login's stdin (`--password-stdin`), never into an argument.
 */
export type Builder = 'docker' | 'podman' | 'buildah';
export const builders: readonly Builder[] = ['docker', 'podman', 'buildah'];

export interface ImageSpec {
  /** Registry host[:port]; docker.io when not configured. */
  registry: string;
  /** Repository name, e.g. apereo/uportal-demo. */
  name: string;
  version: string;
  context: string;
  dockerfile: string;
  /** A folder for a throwaway credentials file (removed after the push). */
  authDir: string;
}

export interface ImageCommand {
  args: string[];
  purpose: string;
  /** Feed the registry password on stdin. */
  passwordOnStdin?: boolean;
  /** Talks to the registry (login, push): its failures are remote ones. */
  remote?: boolean;
}

/** 127.0.0.0/8, localhost and ::1: reached over plain HTTP, as docker does; nothing else is. */
export function isLoopbackRegistry(registry: string): boolean {
  const bracketed = /^\[([^\]]+)\](:\d+)?$/.exec(registry);
  const host = bracketed !== null ? bracketed[1]! : registry.replace(/:\d+$/, '');
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host) || host === 'localhost' || host === '::1';
}

export function imageRef(spec: Pick<ImageSpec, 'registry' | 'name'>, tag: string): string {
  return `${spec.registry}/${spec.name}:${tag}`;
}

/** The registry's HTTP API base (v2): plain HTTP on loopback only; Docker Hub's API host for docker.io. */
export function registryApiBase(registry: string): string {
  if (registry === 'docker.io' || registry === 'index.docker.io') return 'https://registry-1.docker.io';
  return `${isLoopbackRegistry(registry) ? 'http' : 'https'}://${registry}`;
}

/** Every command, in order: build, tag latest, (login), push the version, push latest. */
export function imageCommands(builder: Builder, spec: ImageSpec, login: { username: string } | undefined): ImageCommand[] {
  const versioned = imageRef(spec, spec.version);
  const latest = imageRef(spec, 'latest');
  const insecure = isLoopbackRegistry(spec.registry) && builder !== 'docker' ? ['--tls-verify=false'] : [];
  // buildah runs rootless without fuse or overlay support: vfs storage, chroot isolation.
  const global = builder === 'buildah' ? ['--storage-driver', 'vfs'] : [];
  const auth = builder === 'docker' ? { pre: ['--config', spec.authDir], post: [] } : { pre: [], post: ['--authfile', `${spec.authDir}/auth.json`] };
  const build =
    builder === 'buildah'
      ? [...global, 'bud', '--isolation', 'chroot', '-f', spec.dockerfile, '--build-arg', `VERSION=${spec.version}`, '-t', versioned, spec.context]
      : ['build', '-f', spec.dockerfile, '--build-arg', `VERSION=${spec.version}`, '-t', versioned, spec.context];
  const commands: ImageCommand[] = [
    { args: build, purpose: `${builder} build ${versioned}` },
    { args: [...global, 'tag', versioned, latest], purpose: `${builder} tag ${latest}` },
  ];
  if (login !== undefined) {
    commands.push({
      args: [...auth.pre, ...global, 'login', ...auth.post, ...insecure, '--username', login.username, '--password-stdin', spec.registry],
      purpose: `${builder} login ${spec.registry}`,
      passwordOnStdin: true,
      remote: true,
    });
  }
  for (const ref of [versioned, latest]) {
    commands.push({ args: [...auth.pre, ...global, 'push', ...auth.post, ...insecure, ref], purpose: `${builder} push ${ref}`, remote: true });
  }
  return commands;
}

/** The argv that tells whether a builder works here (docker: a reachable daemon; podman: its storage and runtime). */
export function probeCommand(builder: Builder): string[] {
  if (builder === 'buildah') return ['--storage-driver', 'vfs', 'version'];
  // `docker info` fails without a daemon; podman's info has no .ID, so it is asked plainly.
  return builder === 'docker' ? ['info', '--format', '{{.ID}}'] : ['info'];
}
