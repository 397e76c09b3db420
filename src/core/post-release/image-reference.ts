import { UsageError } from '../errors.js';
import { isLoopbackHost } from '../loopback.js';

/**
 * `distribution.image.name` read the way docker reads an image name (the distribution project's
 * reference grammar and its Docker Hub normalisation), so a name that works with `docker push`
 * works here: `127.0.0.1:5000/example/uportal-demo`, `ghcr.io/apereo/uportal-demo`,
 * `apereo/uportal-demo` (Docker Hub), `nginx` (Docker Hub's `library/nginx`).
 */
export interface ImageReference {
  /** host[:port]; `docker.io` for Docker Hub. */
  registry: string;
  /** The repository path inside the registry, e.g. `apereo/uportal-demo` or `library/nginx`. */
  repository: string;
}

export const dockerHub = 'docker.io';

// The reference grammar's pieces (github.com/distribution/reference, regexp.go).
const pathComponent = /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*$/;
const domainComponent = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const registryHost = new RegExp(`^(?:${domainComponent}(?:\\.${domainComponent})*|\\[[a-fA-F0-9:]+\\])(?::[0-9]+)?$`);
/** Longest name docker accepts, registry included. */
const nameMax = 255;

const nameKey = 'distribution.image.name';
const registryKey = 'distribution.image.registry';

function invalid(message: string, fix: string): UsageError {
  return new UsageError(message, { kind: 'invalid-config', fix });
}

/** Docker's rule: the first component is a registry when it has `.` or `:`, is `localhost`, or is not lower case. */
function writtenRegistry(name: string): { registry?: string; path: string } {
  const slash = name.indexOf('/');
  if (slash === -1) return { path: name };
  const first = name.slice(0, slash);
  const isRegistry = /[.:]/.test(first) || first === 'localhost' || first.toLowerCase() !== first;
  return isRegistry ? { registry: first, path: name.slice(slash + 1) } : { path: name };
}

/** Docker's alias for Docker Hub's index is Docker Hub itself. */
function normalRegistry(registry: string): string {
  const lower = registry.toLowerCase();
  return lower === 'index.docker.io' || lower === dockerHub ? dockerHub : registry;
}

function checkRegistry(registry: string, where: string): void {
  if (!registryHost.test(registry)) {
    throw invalid(`${where}: ${JSON.stringify(registry)} is not a registry host[:port].`, `Write the registry as docker does, host and optional port without a scheme or path, e.g. ghcr.io or 127.0.0.1:5000.`);
  }
}

/**
 * The registry and repository of `distribution.image.name`, with `distribution.image.registry`
 * (the older key) used only when the name carries no registry. A tag or digest in the name is a
 * usage error: relctl adds the tags itself (the version and latest).
 */
export function resolveImageReference(name: string, configuredRegistry?: string): ImageReference {
  const quoted = `${nameKey} ${JSON.stringify(name)}`;
  const example = 'e.g. "127.0.0.1:5000/example/uportal-demo", "ghcr.io/apereo/uportal-demo" or "apereo/uportal-demo" (Docker Hub)';
  const at = name.indexOf('@');
  if (at !== -1) throw invalid(`${quoted} pins a digest (${name.slice(at + 1)}): relctl pushes new tags, not a digest.`, `Write the image name without @${name.slice(at + 1)}, ${example}.`);
  const { registry: written, path } = writtenRegistry(name);
  const colon = path.lastIndexOf(':');
  if (colon !== -1) {
    const tag = path.slice(colon + 1);
    throw invalid(`${quoted} carries the tag ${JSON.stringify(tag)}: relctl tags the image itself (the version and latest).`, `Write the image name without :${tag}, ${example}.`);
  }
  if (written !== undefined) checkRegistry(written, quoted);
  if (configuredRegistry !== undefined) checkRegistry(configuredRegistry, `${registryKey}`);
  if (written !== undefined && configuredRegistry !== undefined && normalRegistry(written).toLowerCase() !== normalRegistry(configuredRegistry).toLowerCase()) {
    throw invalid(
      `${quoted} names the registry ${written}, but ${registryKey} says ${configuredRegistry}.`,
      `Remove ${registryKey} (the name already says where the image goes), or make the two agree.`,
    );
  }
  const registry = normalRegistry(written ?? configuredRegistry ?? dockerHub);
  const components = path.split('/');
  const bad = components.find((c) => !pathComponent.test(c));
  if (bad !== undefined) {
    const why = bad === '' ? 'an empty path component' : bad.toLowerCase() !== bad && pathComponent.test(bad.toLowerCase()) ? `${JSON.stringify(bad)} is not lower case` : `${JSON.stringify(bad)} is not a repository path component`;
    throw invalid(
      `${quoted}: ${why}.`,
      `Repository path components are lower-case letters and digits, separated by ".", "_", "__" or "-" (docker's rule), ${example}.`,
    );
  }
  const repository = registry === dockerHub && components.length === 1 ? `library/${path}` : path;
  if (`${registry}/${repository}`.length > nameMax) {
    throw invalid(`${quoted} is longer than the ${nameMax} characters docker allows for a name.`, 'Choose a shorter image name.');
  }
  return { registry, repository };
}

/** `registry/repository:tag`, the form every builder accepts. */
export function imageRef(ref: ImageReference, tag: string): string {
  return `${ref.registry}/${ref.repository}:${tag}`;
}

/** The registry's host without the port (brackets of an IPv6 address removed). */
function registryHostname(registry: string): string {
  const bracketed = /^\[([^\]]+)\]/.exec(registry);
  return bracketed !== null ? bracketed[1]! : registry.replace(/:\d+$/, '');
}

/** 127.0.0.0/8, localhost and ::1: reached over plain HTTP, as docker does; nothing else is. */
export function isLoopbackRegistry(registry: string): boolean {
  return isLoopbackHost(registryHostname(registry));
}

/** The registry's HTTP API base (v2): plain HTTP on loopback only; Docker Hub's API host for docker.io. */
export function registryApiBase(registry: string): string {
  if (registry === dockerHub) return 'https://registry-1.docker.io';
  return `${isLoopbackRegistry(registry) ? 'http' : 'https'}://${registry}`;
}
