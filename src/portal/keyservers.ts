import { EnvironmentError } from '../core/errors.js';
import { apiUrl } from '../core/url-builder.js';
import { pomUrl } from '../io/public-repo.js';
import type { HttpClient } from '../io/http.js';

/**
 * Key-server and public-repository lookups. No Authorization header ever goes to these hosts
 * (DESIGN §5): they are public services, and the token must not travel further than the portal.
 */
/** Not found: `status` is what the server answered (404, or 200 without a key block). */
export type Lookup = { found: true; armored: string } | { found: false; status: number };

async function lookup(http: HttpClient, url: string, what: string): Promise<Lookup> {
  // Keys with many signatures run to megabytes on HKP servers: a larger cap than API answers get.
  const res = await http.request({ method: 'GET', url, headers: { accept: 'application/pgp-keys, text/plain, */*' }, maxResponseBytes: 16 * 1024 * 1024 });
  if (res.status === 200) {
    const text = res.text();
    if (text.includes('-----BEGIN PGP PUBLIC KEY BLOCK-----')) return { found: true, armored: text };
    return { found: false, status: 200 };
  }
  if (res.status === 404) return { found: false, status: 404 };
  throw new EnvironmentError(`${what} answered HTTP ${res.status}.`, {
    kind: 'keyserver-unavailable',
    fix: 'Try again later, or check --keyserver-url / --secondary-keyserver-url.',
  });
}

export class KeyServers {
  constructor(
    private readonly http: HttpClient,
    private readonly urls: { keyserverUrl: string; secondaryKeyserverUrl: string },
  ) {}

  /** VKS by fingerprint (uppercase hex, no 0x). */
  primaryByFingerprint(fingerprint: string): Promise<Lookup> {
    return lookup(this.http, apiUrl(this.urls.keyserverUrl)`/vks/v1/by-fingerprint/${fingerprint.toUpperCase()}`, 'The primary key server');
  }

  primaryByKeyId(keyId: string): Promise<Lookup> {
    return lookup(this.http, apiUrl(this.urls.keyserverUrl)`/vks/v1/by-keyid/${keyId.toUpperCase()}`, 'The primary key server');
  }

  /** VKS by e-mail: only answers for addresses the owner confirmed through the mailed link. */
  primaryByEmail(email: string): Promise<Lookup> {
    return lookup(this.http, apiUrl(this.urls.keyserverUrl)`/vks/v1/by-email/${email}`, 'The primary key server');
  }

  /** HKP lookup on the secondary server. */
  secondaryByFingerprint(fingerprint: string): Promise<Lookup> {
    const q = { op: 'get', options: 'mr', search: `0x${fingerprint.toUpperCase()}` };
    return lookup(this.http, apiUrl(this.urls.secondaryKeyserverUrl, q)`/pks/lookup`, 'The secondary key server');
  }

  uploadFormUrl(): string {
    return apiUrl(this.urls.keyserverUrl)`/upload`;
  }
}

/** The public repository's parent POM texts (whether a version is published: io/published.ts). */
export class PublicRepository {
  constructor(
    private readonly http: HttpClient,
    private readonly url: string,
    /** Only for the "no answer within N s" reason of a probe that timed out. */
    private readonly timeoutMs = 0,
  ) {}

  async fetchPom(g: string, a: string, v: string): Promise<string | undefined> {
    const res = await this.http.request({ method: 'GET', url: pomUrl({ publicRepoUrl: this.url, groupId: g, artifactId: a, version: v }) });
    if (res.status === 200) return res.text();
    if (res.status === 404) return undefined;
    throw unavailable(`answered HTTP ${res.status}`, g, a, v);
  }

}

function unavailable(what: string, g: string, a: string, v: string): EnvironmentError {
  return new EnvironmentError(`The public repository ${what} for ${g}:${a}:${v}.`, {
    kind: 'public-repo-unavailable',
    fix: 'Try again later, or check --public-repo-url.',
  });
}
