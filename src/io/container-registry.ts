import { EnvironmentError } from '../core/errors.js';
import type { HttpClient } from '../portal/http.js';

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

async function bearerToken(http: HttpClient, challenge: string, name: string, creds: RegistryCredentials | undefined): Promise<string | undefined> {
  const p = challengeParams(challenge);
  if (p.realm === undefined) return undefined;
  const url = new URL(p.realm);
  if (p.service !== undefined) url.searchParams.set('service', p.service);
  url.searchParams.set('scope', p.scope ?? `repository:${name}:pull`);
  const res = await http.request({
    method: 'GET',
    url: url.toString(),
    headers: creds === undefined ? {} : { authorization: `Basic ${Buffer.from(`${creds.username}:${creds.password}`).toString('base64')}` },
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
      res = await ask(`Basic ${Buffer.from(`${creds.username}:${creds.password}`).toString('base64')}`);
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
    throw new EnvironmentError(`HEAD ${missing.url} answered HTTP ${missing.status} without a digest: the pushed tag does not resolve.`, {
      kind: 'image-tag-missing',
      fix: 'Check the push output above and the registry (name, permissions), then run relctl image again.',
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
