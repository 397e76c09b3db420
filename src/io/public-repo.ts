/**
 * Asks the public repository whether a release exists: the orphan-tag rule (seed part 3.2)
 * needs to know if a tagged version ever reached it. A network fact, gathered before the checks.
 */
import { apiUrl } from '../core/url-builder.js';
import type { HttpClient } from './http.js';

export type PublishedAnswer = { published: boolean; url: string } | { published: undefined; url: string; reason: string };

export interface PublishedQuery {
  publicRepoUrl: string;
  groupId: string;
  artifactId: string;
  version: string;
  /** Per request, milliseconds. */
  timeoutMs: number;
  signal?: AbortSignal;
  /** For HTTPS_PROXY / NO_PROXY. */
  env?: NodeJS.ProcessEnv;
  /** Extra attempts per request on connection errors and 502-504 (default 2). */
  retries?: number;
}

/** `{publicRepoUrl}/<group path>/<artifactId>/<v>/<artifactId>-<v>.pom` (DESIGN §6). */
export function pomUrl(q: Pick<PublishedQuery, 'publicRepoUrl' | 'groupId' | 'artifactId' | 'version'>): string {
  return apiUrl(q.publicRepoUrl)`/${{ segments: q.groupId.split('.') }}/${q.artifactId}/${q.version}/${`${q.artifactId}-${q.version}.pom`}`;
}

const timeoutCodes = new Set(['ETIMEDOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT']);

/**
 * The one public-repository probe (preflight's orphan-tag fact, the release chain's version
 * decision, the sandbox validation): HEAD, then GET when the server does not do HEAD, through
 * `http` (its retries, timeouts and proxy settings). 2xx: published; 404/410: not published;
 * anything else (5xx, redirects, timeouts, refused connections) is "unknown" with the reason,
 * never a guess. Never throws.
 */
export async function probePublished(http: HttpClient, q: Omit<PublishedQuery, 'signal'>): Promise<PublishedAnswer> {
  const url = pomUrl(q);
  try {
    for (const method of ['HEAD', 'GET'] as const) {
      const res = await http.request({ method, url });
      if (res.status >= 200 && res.status < 300) {
        // A captive portal, a proxy's login page or a web server's catch-all answers 200 with a
        // page: that says nothing about the POM (a POM is XML or a plain file, never HTML).
        const type = String(res.headers['content-type'] ?? '').toLowerCase();
        if (type.startsWith('text/html')) return { published: undefined, url, reason: `HTTP ${res.status} with an HTML page, not a POM` };
        return { published: true, url };
      }
      if (res.status === 404 || res.status === 410) return { published: false, url };
      if (method === 'HEAD' && (res.status === 405 || res.status === 501)) continue;
      return { published: undefined, url, reason: `HTTP ${res.status}` };
    }
    return { published: undefined, url, reason: 'no answer' };
  } catch (error) {
    const e = error as Error & { code?: string; networkCode?: string };
    const code = e.networkCode ?? e.code;
    const timedOut = e.name === 'TimeoutError' || e.name === 'AbortError' || (code !== undefined && timeoutCodes.has(code));
    const reason = timedOut ? `no answer within ${Math.round(q.timeoutMs / 1000)} s` : (code ?? e.message);
    return { published: undefined, url, reason };
  }
}

/** {@link probePublished} on a client of its own (closed afterwards). */
export async function isVersionPublished(q: PublishedQuery): Promise<PublishedAnswer> {
  // The HTTP layer (and undici) is loaded only when a probe actually runs (start-up stays fast).
  const { HttpClient } = await import('./http.js');
  const http = new HttpClient({
    timeoutMs: q.timeoutMs,
    retries: q.retries ?? 2,
    ...(q.env === undefined ? {} : { env: q.env }),
    ...(q.signal === undefined ? {} : { signal: q.signal }),
  });
  try {
    return await probePublished(http, q);
  } finally {
    await http.close();
  }
}
