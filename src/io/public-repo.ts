/**
 * Asks the public repository whether a release exists: the orphan-tag rule (seed part 3.2)
 * needs to know if a tagged version ever reached it. A network fact, gathered before the checks.
 */
export type PublishedAnswer = { published: boolean; url: string } | { published: undefined; url: string; reason: string };

export interface PublishedQuery {
  publicRepoUrl: string;
  groupId: string;
  artifactId: string;
  version: string;
  timeoutMs: number;
  signal?: AbortSignal;
}

/** `{publicRepoUrl}/<group path>/<artifactId>/<v>/<artifactId>-<v>.pom` (DESIGN §6). */
export function pomUrl(q: Pick<PublishedQuery, 'publicRepoUrl' | 'groupId' | 'artifactId' | 'version'>): string {
  const base = q.publicRepoUrl.replace(/\/+$/, '');
  const seg = encodeURIComponent;
  const group = q.groupId.split('.').map(seg).join('/');
  return `${base}/${group}/${seg(q.artifactId)}/${seg(q.version)}/${seg(q.artifactId)}-${seg(q.version)}.pom`;
}

/**
 * HEAD, then GET when the server does not do HEAD. 2xx: published; 404/410: not published;
 * anything else (5xx, redirects, timeouts, refused connections) is "unknown" with the reason,
 * never a guess. Never throws.
 */
export async function isVersionPublished(q: PublishedQuery): Promise<PublishedAnswer> {
  const url = pomUrl(q);
  // undici is loaded only when a probe actually runs (start-up stays fast).
  const { request } = await import('undici');
  const signal = q.signal === undefined ? AbortSignal.timeout(q.timeoutMs) : AbortSignal.any([q.signal, AbortSignal.timeout(q.timeoutMs)]);
  try {
    for (const method of ['HEAD', 'GET'] as const) {
      const res = await request(url, { method, signal, headersTimeout: q.timeoutMs, bodyTimeout: q.timeoutMs });
      await res.body.dump();
      if (res.statusCode >= 200 && res.statusCode < 300) return { published: true, url };
      if (res.statusCode === 404 || res.statusCode === 410) return { published: false, url };
      if (method === 'HEAD' && (res.statusCode === 405 || res.statusCode === 501)) continue;
      return { published: undefined, url, reason: `HTTP ${res.statusCode}` };
    }
    return { published: undefined, url, reason: 'no answer' };
  } catch (error) {
    const e = error as Error & { code?: string };
    const reason = e.name === 'TimeoutError' || e.name === 'AbortError' ? `no answer within ${Math.round(q.timeoutMs / 1000)} s` : (e.code ?? e.message);
    return { published: undefined, url, reason };
  }
}
