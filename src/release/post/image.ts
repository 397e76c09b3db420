import os from 'node:os';
import path from 'node:path';
import { EnvironmentError, UsageError } from '../../core/errors.js';
import { builders, imageCommands, probeCommand, type Builder, type ImageCommand, type ImageLogin, type ImageSpec } from '../../core/post-release/image-plan.js';
import { imageRef, registryApiBase, resolveImageReference } from '../../core/post-release/image-reference.js';
import type { CommandContext } from '../../io/command-context.js';
import { checkSameDigest, type RegistryCredentials } from '../../io/container-registry.js';
import { createCredentialDir } from '../../io/credential-dir.js';
import type { ProcessRunner } from '../../io/process-runner.js';
import { requirePublished, resolveReleaseTarget } from '../../io/release-version.js';
import { HttpClient } from '../../io/http.js';
import { localDistributionDir } from './distribution-dir.js';

export interface ImageRequest {
  releaseVersion?: string;
  builder?: Builder;
  /** Build and push a version the public repository does not have. */
  force?: boolean;
}

export interface ImageResult {
  version: string;
  builder: Builder;
  refs: [string, string];
  registry: string;
  loggedIn: boolean;
  /** The one digest both tags resolve to (absent in a dry run). */
  digest?: string;
}

const authDirPrefix = 'relctl-registry-auth-';

/** The first builder that actually works here: docker with a reachable daemon, podman, buildah. */
async function pickBuilder(proc: ProcessRunner, cwd: string, wanted: Builder | undefined): Promise<Builder> {
  const tried: string[] = [];
  for (const b of wanted === undefined ? builders : [wanted]) {
    const r = await proc.run({ command: b, args: probeCommand(b), cwd, mutates: false }).catch((error: unknown) => {
      if (error instanceof EnvironmentError) return undefined;
      throw error;
    });
    if (r !== undefined && r.exitCode === 0) return b;
    tried.push(r === undefined ? `${b}: not installed` : `${b}: ${r.output.split('\n').find((l) => l.trim() !== '')?.trim() ?? `exit ${r.exitCode}`}`);
  }
  throw new EnvironmentError(`No image builder works here (${tried.join('; ')}).`, {
    kind: 'tool-missing',
    fix: 'Start the docker daemon, or install podman or buildah (Debian and Ubuntu: apt-get install buildah; rootless builds also need the uidmap package).',
  });
}

/** Both variables set: log in with them; neither (or one empty): push without logging in. */
function registryCredentials(ctx: CommandContext): RegistryCredentials | undefined {
  const username = ctx.env.RELCTL_REGISTRY_USERNAME;
  const password = ctx.env.RELCTL_REGISTRY_PASSWORD;
  if (username === undefined || username === '' || password === undefined || password === '') return undefined;
  ctx.out.redactor.add(password);
  return { username, password };
}

/** Login and push talk to the registry: a refusal there is a remote failure (exit 3), not the build's. */
function registryFailure(command: ImageCommand, exitCode: number, output: string, target: string, version: string): EnvironmentError {
  const tail = output.split('\n').filter((l) => l.trim() !== '').slice(-10).join('\n');
  const login = command.passwordOnStdin === true;
  return new EnvironmentError(`${command.purpose} failed (exit ${exitCode}).${tail === '' ? '' : `\n${tail}`}`, {
    kind: login ? 'registry-auth-rejected' : 'registry-push-failed',
    fix: login
      ? `Check RELCTL_REGISTRY_USERNAME and RELCTL_REGISTRY_PASSWORD for ${target.split('/')[0]}.`
      : `Check that you may push to ${target} (a registry that needs a login: set RELCTL_REGISTRY_USERNAME and RELCTL_REGISTRY_PASSWORD) and that the registry is up, then run relctl image --release-version ${version} again.`,
  });
}

async function runCommands(proc: ProcessRunner, builder: Builder, spec: ImageSpec, base: string, login: ImageLogin | undefined, creds: RegistryCredentials | undefined): Promise<void> {
  for (const command of imageCommands(builder, spec, login)) {
    const run = { command: builder, args: command.args, cwd: base, mutates: true, purpose: command.purpose, ...(command.passwordOnStdin === true ? { input: creds!.password } : {}) };
    if (command.remote !== true) {
      await proc.mustRun(run, `Fix what the output above shows, then run relctl image --release-version ${spec.version} again.`);
      continue;
    }
    const r = await proc.run(run);
    if (r.exitCode !== 0) throw registryFailure(command, r.exitCode, r.output, `${spec.registry}/${spec.repository}`, spec.version);
  }
}

/** `relctl image`: build, tag the version and latest, log in (when credentials are given), push both, check one digest. */
export async function runImage(ctx: CommandContext, proc: ProcessRunner, request: ImageRequest): Promise<ImageResult> {
  const config = ctx.config.distribution?.image;
  if (config?.name === undefined) {
    throw new UsageError('relctl.config.json sets no distribution.image.name: relctl does not know which image to build.', {
      kind: 'invalid-config',
      fix: 'Add "distribution": {"image": {"name": "ghcr.io/org/demo", "context": "docker"}} to relctl.config.json (the name as you would write it for docker push, without a tag).',
    });
  }
  const reference = resolveImageReference(config.name, config.registry);
  const target = await resolveReleaseTarget(ctx.cwd, ctx.env, request.releaseVersion);
  const { version } = target;
  await requirePublished(ctx, target, { force: request.force === true, dryRun: proc.dryRun, what: `the image ${reference.registry}/${reference.repository}` });
  const base = (await localDistributionDir(ctx)) ?? ctx.cwd;
  const context = path.resolve(base, config.context ?? '.');
  const spec: ImageSpec = { ...reference, version, context, dockerfile: path.resolve(context, config.dockerfile ?? 'Dockerfile') };
  const creds = registryCredentials(ctx);
  const builder = await pickBuilder(proc, base, request.builder);
  ctx.out.verbose(`image builder: ${builder}; ${creds === undefined ? 'no RELCTL_REGISTRY_USERNAME/RELCTL_REGISTRY_PASSWORD: pushing without logging in' : `logging in to ${reference.registry} as ${creds.username}`}`);
  const refs: [string, string] = [imageRef(reference, version), imageRef(reference, 'latest')];
  const result = { version, builder, refs, registry: reference.registry, loggedIn: creds !== undefined };

  if (proc.dryRun) {
    // Nothing is created in a dry run: the credentials folder is shown by its pattern.
    const login = creds === undefined ? undefined : { username: creds.username, authDir: path.join(os.tmpdir(), `${authDirPrefix}XXXXXX`) };
    await runCommands(proc, builder, spec, base, login, creds);
    ctx.out.wouldDo(`HEAD ${registryApiBase(reference.registry)}/v2/${reference.repository}/manifests/{${version},latest}: both must have one digest`);
    return result;
  }
  const authDir = creds === undefined ? undefined : await createCredentialDir(authDirPrefix);
  try {
    await runCommands(proc, builder, spec, base, authDir === undefined ? undefined : { username: creds!.username, authDir: authDir.path }, creds);
  } finally {
    // The pushes are done (or failed): the credentials file goes before anything else can fail.
    await authDir?.remove();
  }
  const http = new HttpClient({ timeoutMs: ctx.config.timeout * 1000, env: ctx.env, signal: ctx.signal, log: (l) => ctx.out.verbose(l) });
  try {
    return { ...result, digest: await checkSameDigest(http, registryApiBase(reference.registry), reference.repository, [version, 'latest'], creds) };
  } finally {
    await http.close();
  }
}
