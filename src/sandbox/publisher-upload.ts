import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readZip } from '../core/zip.js';
import type { SandboxApp } from './app.js';
import { HttpError, continueAndRead, portalError, safeSegments } from './http-util.js';
import type { SandboxUser } from './service.js';
import type { PublishingType } from './state.js';

/**
 * `POST /api/v1/publisher/upload?publishingType=AUTOMATIC|USER_MANAGED&name=…` (reference/portal-api.md
 * §B): a multipart form whose `bundle` part is a zip of a Maven-layout tree. The bundle goes through
 * the staging route's machinery (a repository of its own, the same validation rules, deployment
 * states, namespace blocking and AUTOMATIC publishing) and the reply is 201 with the deployment id
 * as text/plain, also when validation fails: as on the real portal, the status call tells.
 */
const maxBundleBytes = 256 * 1024 * 1024;

function uploadType(value: string | null): PublishingType {
  const v = (value ?? 'AUTOMATIC').toUpperCase();
  if (v === 'AUTOMATIC') return 'automatic';
  if (v === 'USER_MANAGED') return 'user_managed';
  throw portalError(`publishingType must be AUTOMATIC or USER_MANAGED, not ${value}`);
}

async function bundlePart(req: IncomingMessage, res: ServerResponse): Promise<{ bytes: Uint8Array; filename: string }> {
  const type = String(req.headers['content-type'] ?? '');
  if (!/^multipart\/form-data\s*;/i.test(type)) throw portalError('the request must be multipart/form-data with a bundle part');
  const body = await continueAndRead(req, res, maxBundleBytes);
  let form: FormData;
  try {
    form = await new Response(body, { headers: { 'content-type': type } }).formData();
  } catch {
    throw portalError('malformed multipart body');
  }
  const bundle = form.get('bundle');
  if (bundle === null || typeof bundle === 'string') throw portalError('the bundle part (a file) is missing');
  return { bytes: new Uint8Array(await bundle.arrayBuffer()), filename: bundle.name };
}

export async function handlePublisherUpload(app: SandboxApp, req: IncomingMessage, res: ServerResponse, user: SandboxUser, query: URLSearchParams): Promise<void> {
  if (req.method !== 'POST') throw new HttpError(405, '', { allow: 'POST' });
  const type = uploadType(query.get('publishingType'));
  const { bytes, filename } = await bundlePart(req, res);
  let entries: Map<string, Uint8Array>;
  try {
    entries = readZip(bytes);
  } catch (error) {
    throw portalError(`the bundle is not a valid zip file: ${(error as Error).message}`);
  }
  if (entries.size === 0) throw portalError('the bundle is empty');

  // A staging repository of its own: the pseudo address keeps it apart from the user's open ones.
  const source = `publisher-upload-${randomUUID()}`;
  let key: string | undefined;
  for (const [name, data] of entries) {
    const segments = safeSegments(name);
    await app.service.put(user, source, segments, data);
    key ??= app.service.state.repositories.find((r) => r.ip === source && r.state === 'open')?.key;
  }
  if (key === undefined) throw portalError('the bundle holds no Maven-layout files');
  let id: string;
  try {
    id = (await app.service.uploadByKey(user, key, type)).id;
  } catch (error) {
    // A FAILED validation is a deployment too: the id is the answer, the status call the verdict.
    const failedId = error instanceof HttpError ? (error.body as { deploymentId?: unknown } | undefined)?.deploymentId : undefined;
    if (typeof failedId !== 'string') throw error;
    id = failedId;
  }
  const deployment = app.service.deployment(id);
  if (deployment !== undefined) {
    deployment.name = query.get('name') ?? filename ?? 'Deployment';
    await app.service.save();
  }
  const text = Buffer.from(id);
  res.writeHead(201, { 'content-type': 'text/plain', 'content-length': String(text.length) });
  res.end(text);
}
