import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readZip } from '../../core/zip.js';
import type { Accounts, SandboxUser } from '../shared/accounts.js';
import { HttpError, continueAndRead, portalError, safeSegments } from '../shared/http.js';
import { groupIdOfPath, inNamespace, isMetadata, repositoryKey } from '../shared/namespaces.js';
import type { Deployments } from './deployments.js';
import type { PublishingType } from './records.js';

/**
 * `POST /api/v1/publisher/upload?publishingType=AUTOMATIC|USER_MANAGED&name=…` (reference/portal-api.md
 * §B): a multipart form whose `bundle` part is a zip of a Maven-layout tree. The bundle becomes a
 * deployment with the staging route's rules, states, namespace block and AUTOMATIC publishing; the
 * answer is 201 with the deployment id as text/plain, also when validation fails: as on the real
 * portal, the status call gives the verdict.
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

/** The bundle's files by Maven path, and the one namespace they all belong to (the shortest group id's). */
function bundleFiles(accounts: Accounts, user: SandboxUser, entries: ReadonlyMap<string, Uint8Array>): { namespace: string; files: Map<string, Uint8Array> } {
  const files = new Map<string, Uint8Array>();
  const groups = new Set<string>();
  for (const [name, data] of entries) {
    if (name.endsWith('/')) continue;
    const segments = safeSegments(name);
    const groupId = groupIdOfPath(segments);
    if (groupId === undefined) throw portalError(`File is not associated with an authorized namespace: ${name}`);
    groups.add(groupId);
    // maven-metadata.xml is not part of a deployment, as on the staging route.
    if (!isMetadata(segments[segments.length - 1]!)) files.set(segments.join('/'), data);
  }
  if (files.size === 0) throw portalError('the bundle holds no Maven-layout files');
  const root = [...groups].sort((a, b) => a.length - b.length)[0]!;
  const namespace = accounts.ownNamespaceOf(user, root);
  if (namespace === undefined || [...groups].some((g) => !inNamespace(g, namespace) || !accounts.allows(user, g))) {
    throw portalError('File is not associated with an authorized namespace');
  }
  return { namespace, files };
}

export async function handlePublisherUpload(accounts: Accounts, deployments: Deployments, req: IncomingMessage, res: ServerResponse, user: SandboxUser, query: URLSearchParams): Promise<void> {
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
  const { namespace, files } = bundleFiles(accounts, user, entries);
  const id = await deployments.locks.run(namespace, async () => {
    const blocked = deployments.blockedError(user, (ns) => inNamespace(namespace, ns) || inNamespace(ns, namespace));
    if (blocked !== undefined) throw blocked;
    // A repository key of its own (as the portal's "via Publisher API" deployments have no staging repository).
    const key = repositoryKey(user.name, `publisher-upload-${randomUUID()}`, namespace);
    const d = await deployments.create({ user: user.name, namespace, repositoryKey: key, files }, type);
    d.name = query.get('name') ?? (filename === '' ? 'Deployment' : filename);
    await deployments.adopt(d);
    if (d.state === 'VALIDATED' && type === 'automatic') await deployments.publishDeployment(d);
    return d.id;
  });
  const text = Buffer.from(id);
  res.writeHead(201, { 'content-type': 'text/plain', 'content-length': String(text.length) });
  res.end(text);
}
