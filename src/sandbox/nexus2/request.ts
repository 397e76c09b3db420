import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError, sendEmpty, sendJson } from '../shared/http.js';
import { toXml, xmlStrings, xmlText, type Plain } from './xml.js';

/**
 * Content negotiation and request bodies of the Nexus 2 staging API: XML for
 * nexus-staging-maven-plugin (it sends `Accept: application/xml`), JSON for gradle-nexus and
 * JReleaser (JSON `Accept`, or no Accept and a JSON `Content-Type`).
 */
export function wantsXml(req: IncomingMessage): boolean {
  const accept = String(req.headers.accept ?? '').toLowerCase();
  if (accept.includes('json')) return false;
  if (/(application|text)\/xml/.test(accept)) return true;
  return /xml/.test(String(req.headers['content-type'] ?? '').toLowerCase());
}

/** The action a POST names: one repository (`promoteRequest`) or several (`stagingActionRequest`). */
export interface ActionBody {
  ids: string[];
  description: string;
}

function fromJson(text: string): ActionBody {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new HttpError(400, { error: 'The body is neither valid JSON nor XML', nexus: true });
  }
  const data = (typeof value === 'object' && value !== null ? (value as { data?: unknown }).data : undefined) as Record<string, unknown> | undefined;
  if (typeof data !== 'object' || data === null) throw new HttpError(400, { error: 'The body has no "data" object', nexus: true });
  const ids = Array.isArray(data.stagedRepositoryIds) ? data.stagedRepositoryIds.filter((x): x is string => typeof x === 'string') : [];
  if (typeof data.stagedRepositoryId === 'string') ids.push(data.stagedRepositoryId);
  return { ids, description: typeof data.description === 'string' ? data.description : '' };
}

function fromXml(text: string): ActionBody {
  const ids = xmlStrings(text, 'stagedRepositoryIds');
  const one = xmlText(text, 'stagedRepositoryId');
  if (one !== undefined && one !== '') ids.push(one);
  return { ids, description: xmlText(text, 'description') ?? '' };
}

export function parseAction(body: Buffer): ActionBody {
  const text = body.toString('utf8').trim();
  if (text === '') return { ids: [], description: '' };
  return text.startsWith('<') ? fromXml(text) : fromJson(text);
}

export interface Answer {
  /** The XML root element (a root array: `list`, its items `rootItem`). */
  root: string;
  rootItem?: string;
  items?: Readonly<Record<string, string>>;
  value: Plain;
}

export function send(req: IncomingMessage, res: ServerResponse, status: number, answer: Answer): void {
  if (!wantsXml(req)) {
    sendJson(res, status, answer.value);
    return;
  }
  const body = Buffer.from(toXml(answer.root, answer.value, answer.items, answer.rootItem));
  res.writeHead(status, { 'content-type': 'application/xml; charset=UTF-8', 'content-length': String(body.length) });
  res.end(req.method === 'HEAD' ? undefined : body);
}

/** Nexus's error document: `{"errors":[{"id":"*","msg":…}]}` / `<nexus-error><errors><error>…`. */
export function sendNexusError(req: IncomingMessage, res: ServerResponse, error: HttpError): void {
  const msg = String((error.body as { error?: unknown }).error ?? '');
  if (!wantsXml(req)) {
    sendJson(res, error.status, { errors: [{ id: '*', msg }] }, error.headers);
    return;
  }
  const body = Buffer.from(toXml('nexus-error', { errors: [{ id: '*', msg }] }, { errors: 'error' }));
  res.writeHead(error.status, { 'content-type': 'application/xml; charset=UTF-8', 'content-length': String(body.length), ...error.headers });
  res.end(body);
}

export function created(res: ServerResponse): void {
  sendEmpty(res, 201);
}
