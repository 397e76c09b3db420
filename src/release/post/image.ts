import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { EnvironmentError, UsageError } from '../../core/errors.js';
import { builders, imageCommands, imageRef, probeCommand, registryApiBase, type Builder } from '../../core/post-release/image-plan.js';
import type { CommandContext } from '../../io/command-context.js';
import { checkSameDigest, type RegistryCredentials } from '../../io/container-registry.js';
import type { ProcessRunner } from '../../io/process-runner.js';
import { resolveReleaseTarget } from '../../io/release-version.js';
import { HttpClient } from '../../portal/http.js';
import { localDistributionDir } from './distribution-dir.js';

export interface ImageRequest {
  releaseVersion?: string;
  builder?: Builder;
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
    fix: 'Start the docker daemon, or install podman or buildah (Debian: scripts/system-deps.sh --image installs buildah).',
  });
}

function registryCredentials(ctx: CommandContext): RegistryCredentials | undefined {
  const username = ctx.env.RELCTL_REGISTRY_USERNAME;
  const password = ctx.env.RELCTL_REGISTRY_PASSWORD;
  if (username === undefined || username === '' || password === undefined || password === '') return undefined;
  ctx.out.redactor.add(password);
  return { username, password };
}

/** `relctl image`: build, tag the version and latest, log in, push both, check one digest. */
export async function runImage(ctx: CommandContext, proc: ProcessRunner, request: ImageRequest): Promise<ImageResult> {
  const config = ctx.config.distribution?.image;
  if (config?.name === undefined) {
    throw new UsageError('relctl.config.json sets no distribution.image.name: relctl does not know which image to build.', {
      kind: 'invalid-config',
      fix: 'Add "distribution": {"image": {"name": "org/demo", "registry": "ghcr.io", "context": "docker"}} to relctl.config.json.',
    });
  }
  const { version } = await resolveReleaseTarget(ctx.cwd, ctx.env, request.releaseVersion);
  const base = (await localDistributionDir(ctx)) ?? ctx.cwd;
  const context = path.resolve(base, config.context ?? '.');
  const registry = config.registry ?? 'docker.io';
  const name = registry === 'docker.io' && !config.name.includes('/') ? `library/${config.name}` : config.name;
  const creds = registryCredentials(ctx);
  const builder = await pickBuilder(proc, base, request.builder);
  ctx.out.verbose(`image builder: ${builder}`);
  const authDir = await mkdtemp(path.join(os.tmpdir(), 'relctl-registry-auth-'));
  try {
    const spec = { registry, name, version, context, dockerfile: path.resolve(context, config.dockerfile ?? 'Dockerfile'), authDir };
    for (const command of imageCommands(builder, spec, creds === undefined ? undefined : { username: creds.username })) {
      const run = { command: builder, args: command.args, cwd: base, mutates: true, purpose: command.purpose, ...(command.passwordOnStdin === true ? { input: creds!.password } : {}) };
      if (command.remote !== true) {
        await proc.mustRun(run, `Fix what the output above shows, then run relctl image --release-version ${version} again.`);
        continue;
      }
      // Login and push talk to the registry: a refusal there is a remote failure (exit 3), not the build's.
      const r = await proc.run(run);
      if (r.exitCode !== 0) {
        const tail = r.output.split('\n').filter((l) => l.trim() !== '').slice(-10).join('\n');
        throw new EnvironmentError(`${command.purpose} failed (exit ${r.exitCode}).${tail === '' ? '' : `\n${tail}`}`, {
          kind: command.passwordOnStdin === true ? 'registry-auth-rejected' : 'registry-push-failed',
          fix:
            command.passwordOnStdin === true
              ? `Check RELCTL_REGISTRY_USERNAME and RELCTL_REGISTRY_PASSWORD for ${registry}.`
              : `Check that you may push to ${registry}/${name} (and that the registry is up), then run relctl image --release-version ${version} again.`,
        });
      }
    }
    const refs: [string, string] = [imageRef(spec, version), imageRef(spec, 'latest')];
    if (proc.dryRun) {
      ctx.out.wouldDo(`HEAD ${registryApiBase(registry)}/v2/${name}/manifests/{${version},latest}: both must have one digest`);
      return { version, builder, refs, registry, loggedIn: creds !== undefined };
    }
    const http = new HttpClient({ timeoutMs: ctx.config.timeout * 1000, env: ctx.env, signal: ctx.signal, log: (l) => ctx.out.verbose(l) });
    try {
      const digest = await checkSameDigest(http, registryApiBase(registry), name, [version, 'latest'], creds);
      return { version, builder, refs, registry, loggedIn: creds !== undefined, digest };
    } finally {
      await http.close();
    }
  } finally {
    await rm(authDir, { recursive: true, force: true });
  }
}
