import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Accounts } from '../shared/accounts.js';
import { HttpError, continueAndRead, safeSegments, sendEmpty, type Route } from '../shared/http.js';
import { isMetadata } from '../shared/namespaces.js';
import type { SnapshotRepository } from './repository.js';

/** Where the portal serves it, below the portal's host (`https://central.sonatype.com/repository/maven-snapshots/`). */
export const snapshotsPrefix = '/repository/maven-snapshots/';

// The realm the real snapshot repository announces to an unauthenticated PUT (a Nexus Repository Manager).
const realm = 'Sonatype Nexus Repository Manager';
const schemes = ['Basic', 'Bearer'] as const;

/**
 * The group id of a deploy path and the version folder it writes into (undefined for the
 * artifact's own maven-metadata.xml): `g/r/o/u/p/artifact/version/file`, or
 * `g/r/o/u/p/artifact/maven-metadata.xml[.sha1]`.
 */
function coordinates(segments: readonly string[]): { group: string; version?: string } {
  const file = segments[segments.length - 1]!;
  const dirs = segments.slice(0, -1);
  const versionLevel = !isMetadata(file) || /-SNAPSHOT$/.test(dirs[dirs.length - 1] ?? '');
  const depth = versionLevel ? 2 : 1;
  if (dirs.length <= depth) throw new HttpError(400, '');
  return { group: dirs.slice(0, dirs.length - depth).join('.'), ...(versionLevel ? { version: dirs[dirs.length - 1]! } : {}) };
}

/**
 * `/portal/repository/maven-snapshots/<maven path>`: GET and HEAD for anyone, PUT with a portal
 * user token into a namespace the token's account owns and whose SNAPSHOTs are enabled. Refusals
 * are bare statuses, as the repository gives them and Maven prints them: 401 (with the Basic
 * challenge), 403 Forbidden (SNAPSHOTs not enabled, or not the account's namespace), 400 for a
 * release version (the repository's SNAPSHOT version policy, in Nexus's words).
 */
export function snapshotRoutes(accounts: Accounts, repository: SnapshotRepository): Route {
  return async (req: IncomingMessage, res: ServerResponse, rest: string): Promise<void> => {
    const method = req.method ?? 'GET';
    const segments = safeSegments(rest.slice(snapshotsPrefix.length - 1));
    if (method === 'GET' || method === 'HEAD') {
      const body = await repository.get(segments);
      if (body === undefined) throw new HttpError(404, '');
      res.writeHead(200, { 'content-type': segments[segments.length - 1]!.endsWith('.xml') ? 'application/xml' : 'application/octet-stream', 'content-length': String(body.length) });
      res.end(method === 'HEAD' ? undefined : body);
      return;
    }
    if (method !== 'PUT') throw new HttpError(405, '', { allow: 'GET, HEAD, PUT' });
    const user = accounts.require(req, schemes, realm);
    const { group, version } = coordinates(segments);
    if (version !== undefined && !version.endsWith('-SNAPSHOT')) {
      throw new HttpError(400, `Repository version policy: SNAPSHOT does not allow version: ${version}`);
    }
    if (!accounts.allows(user, group) || !repository.enabledFor(group)) throw new HttpError(403, '');
    await repository.put(segments, await continueAndRead(req, res));
    sendEmpty(res, 201);
  };
}
