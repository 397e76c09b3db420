import { EnvironmentError } from '../core/errors.js';
import { isLoopbackHost } from '../core/loopback.js';
import type { HttpClient } from './http.js';

/**
 * Reads a tag's manifest digest through the registry's HTTP API (distribution spec v2):
 * `HEAD /v2/<name>/manifests/<tag>` with the manifest media types in Accept; the answer's
 * `Docker-Content-Digest` is the digest. Handles both challenges registries send: Basic, and
 * Bearer (a token from the realm, fetched with the same credentials). Credentials travel only in
 * headers, never in URLs or messages.
 */
export const manifestAccept = [
  'application/vnd.oci.image.index.v1+json',
  'application/vnd.oci.image.manifest.v1+json',
  'application/vnd.docker.distribution.manifest.list.v2+json',
  'application/vnd.docker.distribution.manifest.v2+json',
].join(', ');

export interface RegistryCredentials {
  username: string;
  password: string;
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function challengeParams(text: string): Record<string, string> {
  const params: Record<string, string> = {};
  for (const m of text.matchAll(/(\w+)="([^"]*)"/g)) params[m[1]!] = m[2]!;
  return params;
}

function basic(creds: RegistryCredentials): string {
  return `Basic ${Buffer.from(`${creds.username}:${creds.password}`).toString('base64')}`;
}

/**
 * The token the challenge's realm hands out: with the credentials when given (and the realm is
 * HTTPS or loopback: a password never crosses a network in clear), else anonymously, which is
 * how public repositories are read.
 */
async function bearerToken(http: HttpClient, challenge: string, name: string, creds: RegistryCredentials | undefined): Promise<string | undefined> {
  const p = challengeParams(challenge);
  if (p.realm === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(p.realm);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  if (p.service !== undefined) url.searchParams.set('service', p.service);
  url.searchParams.set('scope', p.scope ?? `repository:${name}:pull`);
  const confidential = url.protocol === 'https:' || isLoopbackHost(url.hostname);
  const res = await http.request({
    method: 'GET',
    url: url.toString(),
    headers: creds === undefined || !confidential ? {} : { authorization: basic(creds) },
  });
  const body = res.json() as { token?: string; access_token?: string } | undefined;
  return res.status === 200 ? (body?.token ?? body?.access_token) : undefined;
}

export interface DigestAnswer {
  digest?: string;
  status: number;
  url: string;
}

export async function manifestDigest(http: HttpClient, apiBase: string, name: string, tag: string, creds: RegistryCredentials | undefined): Promise<DigestAnswer> {
  const url = `${apiBase}/v2/${name.split('/').map(encodeURIComponent).join('/')}/manifests/${encodeURIComponent(tag)}`;
  const ask = (authorization?: string) =>
    http.request({ method: 'HEAD', url, headers: { accept: manifestAccept, ...(authorization === undefined ? {} : { authorization }) } });
  let res = await ask();
  const challenge = header(res.headers['www-authenticate']);
  if (res.status === 401 && challenge !== undefined) {
    if (/^basic/i.test(challenge) && creds !== undefined) {
      res = await ask(basic(creds));
    } else if (/^bearer/i.test(challenge)) {
      const token = await bearerToken(http, challenge, name, creds);
      if (token !== undefined) res = await ask(`Bearer ${token}`);
    }
  }
  const digest = header(res.headers['docker-content-digest']);
  return { status: res.status, url, ...(res.status === 200 && digest !== undefined ? { digest } : {}) };
}

/** Both tags resolve, to one digest; else an EnvironmentError saying what the registry answered. */
export async function checkSameDigest(
  http: HttpClient,
  apiBase: string,
  name: string,
  tags: readonly [string, string],
  creds: RegistryCredentials | undefined,
): Promise<string> {
  const answers = await Promise.all(tags.map((t) => manifestDigest(http, apiBase, name, t, creds)));
  const missing = answers.find((a) => a.digest === undefined);
  if (missing !== undefined) {
    const refused = missing.status === 401 || missing.status === 403;
    throw new EnvironmentError(`HEAD ${missing.url} answered HTTP ${missing.status} without a digest: ${refused ? 'the registry did not let relctl read the pushed tag' : 'the pushed tag does not resolve'}.`, {
      kind: 'image-tag-missing',
      fix:
        refused && creds === undefined
          ? 'The registry wants a login to read the image: set RELCTL_REGISTRY_USERNAME and RELCTL_REGISTRY_PASSWORD, then run relctl image again.'
          : 'Check the push output above and the registry (name, permissions), then run relctl image again.',
    });
  }
  if (answers[0]!.digest !== answers[1]!.digest) {
    throw new EnvironmentError(`${name}:${tags[0]} is ${answers[0]!.digest} but ${name}:${tags[1]} is ${answers[1]!.digest}.`, {
      kind: 'image-digest-mismatch',
      fix: `Push the version's image as ${tags[1]} again (relctl image pushes both from one build).`,
    });
  }
  return answers[0]!.digest!;
}
