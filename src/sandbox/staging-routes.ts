import type { IncomingMessage, ServerResponse } from 'node:http';
import { publishingType, requireUser, type SandboxApp } from './app.js';
import { HttpError, continueAndRead, safeSegments, sendEmpty, sendJson, sourceAddress } from './http-util.js';

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

/** `/staging/...`: the OSSRH Staging API compatibility service (seed part 4, issue 3). */
export async function handleStaging(
  app: SandboxApp,
  req: IncomingMessage,
  res: ServerResponse,
  rest: string,
  query: URLSearchParams,
): Promise<void> {
  const method = req.method ?? 'GET';
  const ip = sourceAddress(req);

  if (rest.startsWith(deployPrefix)) {
    const user = requireUser(app, req, tokenSchemes, 'staging');
    const segments = safeSegments(rest.slice(deployPrefix.length));
    if (method === 'PUT') {
      // Refuse before the body travels: namespace and block need only the path.
      app.service.checkPut(user, ip, segments);
      const body = await continueAndRead(req, res);
      await app.service.put(user, ip, segments, body);
      sendEmpty(res, 201);
      return;
    }
    if (method === 'GET' || method === 'HEAD') {
      const data = await app.service.get(user, ip, segments);
      if (data === undefined) throw new HttpError(404, '');
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(data.length) });
      res.end(method === 'HEAD' ? undefined : data);
      return;
    }
    throw methodNotAllowed('GET, HEAD, PUT');
  }

  if (rest.startsWith(uploadDefault) || rest.startsWith(uploadByKey)) {
    if (method !== 'POST') throw methodNotAllowed('POST');
    const user = requireUser(app, req, tokenSchemes);
    await continueAndRead(req, res, 1024 * 1024);
    const type = publishingType(query);
    const deployment = rest.startsWith(uploadDefault)
      ? await app.service.uploadDefault(user, ip, keyOf(rest.slice(uploadDefault.length)), type)
      : await app.service.uploadByKey(user, keyOf(rest.slice(uploadByKey.length)), type);
    sendJson(res, 200, { deploymentId: deployment.id });
    return;
  }

  if (rest === '/manual/search/repositories') {
    if (method !== 'GET') throw methodNotAllowed('GET');
    const user = requireUser(app, req, tokenSchemes);
    const repositories = app.service.search(user, ip, query).map((r) => ({
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
    const user = requireUser(app, req, tokenSchemes);
    await app.service.dropRepository(user, keyOf(rest.slice(dropByKey.length)));
    sendEmpty(res, 204);
    return;
  }

  throw new HttpError(404, { error: `Not found: /staging${rest}` });
}
