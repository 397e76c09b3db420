import type { IncomingMessage, ServerResponse } from 'node:http';
import type { KeyDirectory, SecondaryEntry } from './key-directory.js';
import { KeyTextError, hkpIndex, parseKeyText } from './pgp.js';
import { formField, methodNotAllowed, parseSubpath, sendJsonBody, sendKey, sendPlain } from './respond.js';

/**
 * The secondary key server, an HKP server like keyserver.ubuntu.com (Hockeypuck): anyone may
 * upload; lookups return the whole key with all its user ids.
 */
export async function handleHkp(dir: KeyDirectory, req: IncomingMessage, res: ServerResponse, subpath: string, body: Buffer): Promise<void> {
  const url = parseSubpath(subpath);
  const path = url.pathname.replace(/\/+$/, '') || '/';
  const method = req.method ?? 'GET';
  if (path === '/pks/lookup') {
    if (method !== 'GET' && method !== 'HEAD') return methodNotAllowed(res, 'GET');
    return lookup(dir, res, url.searchParams);
  }
  if (path === '/pks/add') {
    if (method !== 'POST') return methodNotAllowed(res, 'POST');
    return add(dir, res, body);
  }
  return sendPlain(res, 404, 'Not found.');
}

async function lookup(dir: KeyDirectory, res: ServerResponse, params: URLSearchParams): Promise<void> {
  const op = params.get('op');
  const search = params.get('search');
  if (search === null || search.trim() === '') return sendPlain(res, 400, 'Missing search parameter.');
  if (op !== 'get' && op !== 'index' && op !== 'vindex') return sendPlain(res, 501, `Operation not supported: ${op ?? '(none)'}`);
  const hex = search.trim().replace(/^0x/i, '').toUpperCase();
  let found: SecondaryEntry[];
  if (search.includes('@')) found = dir.findSecondaryByEmail(search.trim());
  else if (/^([0-9A-F]{16}|[0-9A-F]{40}|[0-9A-F]{64})$/.test(hex)) {
    const entry = dir.findSecondary(hex);
    found = entry === undefined ? [] : [entry];
  } else return sendPlain(res, 400, `Invalid search: ${search}; use 0x followed by a key id or fingerprint, or an e-mail address.`);
  if (found.length === 0) return sendPlain(res, 404, 'No results found.');
  if (op === 'get') return sendKey(res, found.map((e) => e.armored).join('\n'));
  return sendPlain(res, 200, await hkpIndex(found.map((e) => e.armored)));
}

async function add(dir: KeyDirectory, res: ServerResponse, body: Buffer): Promise<void> {
  try {
    const keys = await parseKeyText(formField(body, 'keytext'));
    const inserted: string[] = [];
    const updated: string[] = [];
    for (const key of keys) {
      const result = await dir.uploadSecondary(key);
      (result.inserted ? inserted : updated).push(result.entry.fingerprint);
    }
    return sendJsonBody(res, 200, { inserted, updated, ignored: [] });
  } catch (error) {
    if (error instanceof KeyTextError) return sendPlain(res, 400, error.message);
    throw error;
  }
}
