import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError, sendEmpty, sendJson } from '../shared/http.js';
import { nexusError } from './service.js';
import { findElement, hasControls, readXml, toXml, withoutControls, xmlStrings, type Plain } from './xml.js';

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

/**
 * Bounds of a request's fields. The real service's are not documented; 4096 characters hold any
 * description a client writes (the plugins send a line), and keep a started repository's record
 * small whatever a caller sends (a 1 MiB description forty times was a 40 MB state file).
 */
export const maxDescription = 4096;
const maxIds = 1000;
// `<namespace>--<uuid>`: a group id (255 at most) and 38 more.
const maxIdLength = 300;

function fromJson(text: string): ActionBody {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw nexusError(400, 'The body is neither valid JSON nor XML');
  }
  const data = (typeof value === 'object' && value !== null ? (value as { data?: unknown }).data : undefined) as Record<string, unknown> | undefined;
  if (typeof data !== 'object' || data === null) throw nexusError(400, 'The body has no "data" object');
  const ids = Array.isArray(data.stagedRepositoryIds) ? data.stagedRepositoryIds.filter((x): x is string => typeof x === 'string') : [];
  if (typeof data.stagedRepositoryId === 'string') ids.push(data.stagedRepositoryId);
  return { ids, description: typeof data.description === 'string' ? data.description : '' };
}

function fromXml(text: string): ActionBody {
  const xml = readXml(text);
  // An invalid character reference lands here too: a 400 in the client's format, as a Nexus 2
  // XML reader refuses it, never the 500 of a code point String.fromCodePoint cannot make.
  if (!xml.ok) throw nexusError(400, `The body is not well-formed XML: ${xml.message}`);
  const ids = xmlStrings(findElement(xml.root, 'stagedRepositoryIds'));
  const one = findElement(xml.root, 'stagedRepositoryId')?.text;
  if (one !== undefined && one !== '') ids.push(one);
  return { ids, description: findElement(xml.root, 'description')?.text ?? '' };
}

/**
 * Refuses what no client sends and nothing should store or echo: oversized fields, and control
 * characters. Refused rather than stripped: the caller learns at once, and what is stored is what
 * it sent (a stripped `ESC[31m` would leave `[31m` behind).
 */
function checked(body: ActionBody): ActionBody {
  if (body.description.length > maxDescription) throw nexusError(400, `The description is longer than ${maxDescription} characters`);
  if (body.ids.length > maxIds) throw nexusError(400, `The request names more than ${maxIds} staged repositories`);
  if (body.ids.some((id) => id.length > maxIdLength)) throw nexusError(400, `A staged repository id is longer than ${maxIdLength} characters`);
  if ([body.description, ...body.ids].some(hasControls)) throw nexusError(400, 'The description or a staged repository id holds a control character');
  return body;
}

/** A POST's body (JSON or XML), parsed once in linear time and checked. */
export function parseAction(body: Buffer): ActionBody {
  const text = body.toString('utf8').trim();
  if (text === '') return { ids: [], description: '' };
  return checked(text.startsWith('<') ? fromXml(text) : fromJson(text));
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
  // Messages may quote a path's id: JSON escapes C0 controls but sends C1 ones as they are.
  const msg = withoutControls(String((error.body as { error?: unknown }).error ?? ''));
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
