import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import type { SizedDeploymentFile } from '../../core/validation/types.js';
import { openZip, type OpenZip } from '../../io/zip-reader.js';
import type { Accounts, SandboxUser } from '../shared/accounts.js';
import { HttpError, portalError, safeSegments } from '../shared/http.js';
import { groupIdOfPath, inNamespace, isMetadata, repositoryKey } from '../shared/namespaces.js';
import type { Deployments } from './deployments.js';
import type { PublishingType } from './records.js';

/**
 * `POST /api/v1/publisher/upload?publishingType=AUTOMATIC|USER_MANAGED&name=…` (reference/portal-api.md
 * §B): a multipart form whose `bundle` part is a zip of a Maven-layout tree. The bundle becomes a
 * deployment with the staging route's rules and states (not its namespace block), published at once only
 * when AUTOMATIC (USER_MANAGED when absent); the answer is 201 with the deployment id as
 * text/plain, also when validation fails: as on the real portal, the status call gives the verdict.
 */

type Busboy = typeof import('busboy');
const loadBusboy = async (): Promise<Busboy> => {
  const m = (await import('busboy')) as unknown as { default?: Busboy };
  return m.default ?? (m as unknown as Busboy);
};

/**
 * Absent, `publishingType` means USER_MANAGED: what the real portal's clients rely on (JReleaser's
 * mavenCentral deployer then waits for VALIDATED, jreleaser#1869). relctl always sends it.
 */
function uploadType(value: string | null): PublishingType {
  const v = (value ?? 'USER_MANAGED').toUpperCase();
  if (v === 'AUTOMATIC') return 'automatic';
  if (v === 'USER_MANAGED') return 'user_managed';
  throw portalError(`publishingType must be AUTOMATIC or USER_MANAGED, not ${value}`);
}

/**
 * Streams the form's `bundle` part to `file` as it arrives (busboy parses the multipart body;
 * nothing of the bundle is held in memory), and returns its file name. Other parts are drained.
 */
async function receiveBundle(req: IncomingMessage, res: ServerResponse, file: string, limit: number): Promise<string> {
  // Over the bundle cap the portal's front server (nginx) answers before the API sees anything.
  if (Number(req.headers['content-length'] ?? '0') > limit) throw tooLarge();
  const type = String(req.headers['content-type'] ?? '');
  if (!/^multipart\/form-data\s*;/i.test(type)) throw portalError('the request must be multipart/form-data with a bundle part');
  const busboy = await loadBusboy();
  let parser: ReturnType<Busboy>;
  try {
    parser = busboy({ headers: req.headers, limits: { files: 1, fields: 16, parts: 32, fileSize: limit } });
  } catch {
    throw portalError('malformed multipart body');
  }
  if (/100-continue/i.test(String(req.headers.expect ?? ''))) res.writeContinue();
  let filename: string | undefined;
  let written: Promise<void> | undefined;
  let truncated = false;
  parser.on('file', (name, stream, info) => {
    if (name !== 'bundle' || written !== undefined) {
      stream.resume();
      return;
    }
    filename = info.filename ?? '';
    // A body without Content-Length (chunked) is held to the same cap as it arrives.
    stream.on('limit', () => (truncated = true));
    written = pipeline(stream, createWriteStream(file));
    // A failed disk write must not leave the body unread (the client would wait for an answer).
    written.catch(() => stream.resume());
  });
  try {
    await pipeline(req, parser);
    await written;
  } catch (error) {
    if (error instanceof HttpError) throw error;
    throw portalError('malformed multipart body');
  }
  if (truncated) throw tooLarge();
  if (filename === undefined) throw portalError('the bundle part (a file) is missing');
  return filename;
}

/** nginx's own 413 page: what the real portal answers for a bundle over 1 GiB (no JSON, no API wording). */
function tooLarge(): HttpError {
  const html = '<html>\r\n<head><title>413 Request Entity Too Large</title></head>\r\n<body>\r\n<center><h1>413 Request Entity Too Large</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';
  return new HttpError(413, html, { 'content-type': 'text/html', connection: 'close' });
}

/** The bundle's files by Maven path, and the one namespace they all belong to (the shortest group id's). */
function bundleFiles(accounts: Accounts, user: SandboxUser, zip: OpenZip): { namespace: string; files: Map<string, SizedDeploymentFile> } {
  const files = new Map<string, SizedDeploymentFile>();
  const groups = new Set<string>();
  for (const entry of zip.entries) {
    const name = entry.name;
    const data = entryFile(entry);
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

/** A zip entry as a deployment file: read (inflated) when validated and copied, never whole in memory. */
function entryFile(entry: OpenZip['entries'][number]): SizedDeploymentFile {
  const bytes = async (): Promise<Uint8Array> => {
    const parts: Buffer[] = [];
    for await (const chunk of entry.chunks()) parts.push(Buffer.from(chunk));
    return Buffer.concat(parts);
  };
  return { size: entry.size, bytes, chunks: () => entry.chunks() };
}

export async function handlePublisherUpload(
  accounts: Accounts,
  deployments: Deployments,
  req: IncomingMessage,
  res: ServerResponse,
  user: SandboxUser,
  query: URLSearchParams,
  bundleLimit: number,
): Promise<void> {
  if (req.method !== 'POST') throw new HttpError(405, '', { allow: 'POST' });
  const type = uploadType(query.get('publishingType'));
  const incoming = deployments.scratch('.zip');
  let zip: OpenZip | undefined;
  try {
    const filename = await receiveBundle(req, res, incoming, bundleLimit);
    try {
      zip = await openZip(incoming);
    } catch (error) {
      throw portalError(`the bundle is not a valid zip file: ${(error as Error).message}`);
    }
    if (zip.entries.length === 0) throw portalError('the bundle is empty');
    const { namespace, files } = bundleFiles(accounts, user, zip);
    const id = await deployments.locks.run(namespace, async () => {
      // No namespace block here: a FAILED deployment blocks the staging API's uploads only (DESIGN §5a).
      // A repository key of its own (as the portal's "via Publisher API" deployments have no staging repository).
      const key = repositoryKey(user.name, `publisher-upload-${randomUUID()}`, namespace);
      const d = await createFromBundle(deployments, { user: user.name, namespace, repositoryKey: key, files }, type);
      d.name = query.get('name') ?? (filename === '' ? 'Deployment' : filename);
      await deployments.adopt(d);
      if (d.state === 'VALIDATED' && type === 'automatic') await deployments.publishDeployment(d);
      return d.id;
    });
    const text = Buffer.from(id);
    res.writeHead(201, { 'content-type': 'text/plain', 'content-length': String(text.length) });
    res.end(text);
  } finally {
    zip?.close();
    await rm(incoming, { force: true });
  }
}

/** A broken entry (bad size, unknown compression) found while validating is the bundle's fault: a 400. */
async function createFromBundle(deployments: Deployments, input: Parameters<Deployments['create']>[0], type: PublishingType): ReturnType<Deployments['create']> {
  try {
    return await deployments.create(input, type);
  } catch (error) {
    if (error instanceof HttpError || (error as NodeJS.ErrnoException).code !== undefined) throw error;
    throw portalError(`the bundle is not a valid zip file: ${(error as Error).message}`);
  }
}
