import { createReadStream, createWriteStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import type { PublishingType } from '../portal/records.js';
import type { Accounts } from '../shared/accounts.js';
import { HttpError, continueAndRead, maxBodyBytes, safeSegments, sendEmpty, sendJson, sourceAddress, type Route } from '../shared/http.js';
import { nexus2Routes } from '../nexus2/routes.js';
import type { Nexus2Staging } from '../nexus2/service.js';
import type { StagingRepositories } from './repositories.js';
import type { StreamedPut } from './store.js';

const deployPrefix = '/service/local/staging/deploy/maven2/';
const uploadDefault = '/manual/upload/defaultRepository/';
const uploadByKey = '/manual/upload/repository/';
const dropByKey = '/manual/drop/repository/';
const tokenSchemes = ['Basic', 'Bearer'] as const;

function methodNotAllowed(allow: string): HttpError {
  return new HttpError(405, { error: 'Method not allowed' }, { allow });
}

/** A repository key arrives raw (`a/b/c--default-repository`) or URL-encoded; both are accepted. */
function keyOf(rest: string): string {
  try {
    return decodeURIComponent(rest);
  } catch {
    throw new HttpError(400, { error: 'Failed to process request: malformed repository key' });
  }
}

/** `publishing_type`; anything but automatic/portal_api means user_managed, as the service does. */
function publishingType(query: URLSearchParams): PublishingType {
  const value = (query.get('publishing_type') ?? '').toLowerCase();
  return value === 'automatic' || value === 'portal_api' ? value : 'user_managed';
}

/** The portal's cap on a deployment bundle (a 413 from its front server above it). */
export const maxBundleBytes = 1024 ** 3;

/** Bodies up to this size are read into memory; larger ones go to disk as they arrive. */
const inMemoryBytes = 1024 * 1024;

/**
 * A PUT's body: small ones read whole, larger ones spooled to a scratch file as they arrive (the
 * same size limit applies) and handed on as chunks read from it, so a big artifact never sits in
 * memory whole. The scratch file is removed once the file is stored.
 */
async function putBody(
  staging: StagingRepositories,
  fileLimit: number,
  req: IncomingMessage,
  res: ServerResponse,
  store: (body: Uint8Array | StreamedPut) => Promise<void>,
): Promise<void> {
  const declared = Number(req.headers['content-length'] ?? 'NaN');
  if (!Number.isFinite(declared) || declared <= inMemoryBytes) return store(await continueAndRead(req, res, Math.min(fileLimit, maxBodyBytes)));
  // No per-file cap below the bundle's: a big war stages as it does on the real service.
  if (declared > fileLimit) throw new HttpError(413, { error: 'Request body too large' });
  if (/100-continue/i.test(String(req.headers.expect ?? ''))) res.writeContinue();
  const file = staging.scratch();
  try {
    await pipeline(req, createWriteStream(file));
    const length = (await stat(file)).size;
    if (length !== declared) throw new HttpError(400, { error: 'Failed to process request: the body is shorter than its Content-Length' });
    await store({ length, open: () => createReadStream(file, { highWaterMark: inMemoryBytes }) as AsyncIterable<Buffer> });
  } finally {
    await rm(file, { force: true });
  }
}

/**
 * `/staging/...`: the OSSRH Staging API compatibility service (seed part 4, issue 3); the rest of
 * `/service/local/` is the Nexus 2 staging API (src/sandbox/nexus2, issue 28).
 */
export function stagingRoutes(accounts: Accounts, staging: StagingRepositories, fileLimit: number, nexus2: Nexus2Staging): Route {
  const nexus = nexus2Routes(accounts, nexus2, (req, res, store) => putBody(staging, fileLimit, req, res, store));
  return (req, res, rest, query) =>
    rest.startsWith('/service/local/') && !rest.startsWith(deployPrefix)
      ? nexus(req, res, rest.slice('/service/local'.length), query)
      : handle(accounts, staging, fileLimit, req, res, rest, query);
}

async function handle(
  accounts: Accounts,
  staging: StagingRepositories,
  fileLimit: number,
  req: IncomingMessage,
  res: ServerResponse,
  rest: string,
  query: URLSearchParams,
): Promise<void> {
  const method = req.method ?? 'GET';
  const ip = sourceAddress(req);

  if (rest.startsWith(deployPrefix)) {
    const user = accounts.require(req, tokenSchemes, 'staging');
    const segments = safeSegments(rest.slice(deployPrefix.length));
    if (method === 'PUT') {
      // Refuse before the body travels: namespace and block need only the path.
      staging.checkPut(user, ip, segments);
      await putBody(staging, fileLimit, req, res, (body) => staging.put(user, ip, segments, body));
      sendEmpty(res, 201);
      return;
    }
    if (method === 'GET' || method === 'HEAD') {
      const data = await staging.get(user, ip, segments);
      if (data === undefined) throw new HttpError(404, '');
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(data.length) });
      res.end(method === 'HEAD' ? undefined : data);
      return;
    }
    throw methodNotAllowed('GET, HEAD, PUT');
  }

  if (rest.startsWith(uploadDefault) || rest.startsWith(uploadByKey)) {
    if (method !== 'POST') throw methodNotAllowed('POST');
    const user = accounts.require(req, tokenSchemes);
    await continueAndRead(req, res, 1024 * 1024);
    const type = publishingType(query);
    const deployment = rest.startsWith(uploadDefault)
      ? await staging.uploadDefault(user, ip, keyOf(rest.slice(uploadDefault.length)), type)
      : await staging.uploadByKey(user, keyOf(rest.slice(uploadByKey.length)), type);
    sendJson(res, 200, { deploymentId: deployment.id });
    return;
  }

  if (rest === '/manual/search/repositories') {
    if (method !== 'GET') throw methodNotAllowed('GET');
    const user = accounts.require(req, tokenSchemes);
    const repositories = staging.search(user, ip, query).map((r) => ({
      key: r.key,
      state: r.state,
      description: r.description,
      portal_deployment_id: r.portalDeploymentId,
    }));
    sendJson(res, 200, { repositories });
    return;
  }

  if (rest.startsWith(dropByKey)) {
    if (method !== 'DELETE') throw methodNotAllowed('DELETE');
    const user = accounts.require(req, tokenSchemes);
    await staging.dropRepository(user, keyOf(rest.slice(dropByKey.length)));
    sendEmpty(res, 204);
    return;
  }

  throw new HttpError(404, { error: `Not found: /staging${rest}` });
}
