import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface PublicRepo extends AsyncDisposable {
  /** http://127.0.0.1:PORT/maven2 */
  url: string;
  /** Versions the repository has; change it between runs. */
  published: Set<string>;
}

/**
 * A stand-in for the public repository (RELCTL_PUBLIC_REPO_URL) on loopback: the POM of a
 * published version answers 200 (application/xml), anything else 404.
 */
export async function startPublicRepo(groupId: string, artifactId: string, published: readonly string[]): Promise<PublicRepo> {
  const versions = new Set(published);
  const prefix = `/maven2/${groupId.replaceAll('.', '/')}/${artifactId}/`;
  const server = http.createServer((req, res) => {
    const m = /^([^/]+)\/([^/]+)\.pom$/.exec((req.url ?? '').startsWith(prefix) ? req.url!.slice(prefix.length) : '');
    const ok = m !== null && versions.has(m[1]!) && m[2] === `${artifactId}-${m[1]}`;
    res.writeHead(ok ? 200 : 404, { 'content-type': ok ? 'application/xml' : 'text/plain' });
    res.end(ok && req.method !== 'HEAD' ? '<project/>' : undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/maven2`,
    published: versions,
    [Symbol.asyncDispose]: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
