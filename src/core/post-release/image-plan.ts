import { imageRef, isLoopbackRegistry, type ImageReference } from './image-reference.js';

/**
 * The demo image's command lines (seed part 4.8 step 3): build, tag the version and latest, log
 * in, push both. Pure argv builders for docker, podman and buildah; the password only ever goes
 * to the login's stdin (`--password-stdin`), never into an argument.
 */
export type Builder = 'docker' | 'podman' | 'buildah';
export const builders: readonly Builder[] = ['docker', 'podman', 'buildah'];

export interface ImageSpec extends ImageReference {
  version: string;
  context: string;
  dockerfile: string;
}

/** The registry login, when credentials were given: its user, and a throwaway folder for the credentials file. */
export interface ImageLogin {
  username: string;
  /** Removed after the push, on every exit path. */
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

/**
 * Every command, in order: build, tag latest, (login), push the version, push latest. Without a
 * login nothing names a credentials file: the builder pushes with what it has (anonymous, or the
 * user's own `docker login`).
 */
export function imageCommands(builder: Builder, spec: ImageSpec, login: ImageLogin | undefined): ImageCommand[] {
  const versioned = imageRef(spec, spec.version);
  const latest = imageRef(spec, 'latest');
  const insecure = isLoopbackRegistry(spec.registry) && builder !== 'docker' ? ['--tls-verify=false'] : [];
  // buildah runs rootless without fuse or overlay support: vfs storage, chroot isolation.
  const global = builder === 'buildah' ? ['--storage-driver', 'vfs'] : [];
  const auth =
    login === undefined
      ? { pre: [], post: [] }
      : builder === 'docker'
        ? { pre: ['--config', login.authDir], post: [] }
        : { pre: [], post: ['--authfile', `${login.authDir}/auth.json`] };
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
