import type { IncomingMessage, ServerResponse } from 'node:http';
import type { KeyDirectory, PrimaryEntry } from './key-directory.js';
import { errorPage, indexPage, uploadForm, uploadResult, verificationSent, verified } from './pages.js';
import { KeyTextError, hkpIndex, parseKeyText } from './pgp.js';
import { formField, methodNotAllowed, parseJsonBody, parseSubpath, sendHtml, sendJsonBody, sendKey, sendPlain } from './respond.js';

/**
 * The primary key server: keys.openpgp.org's VKS API (reference/portal-api.md §D), its upload form
 * and mail confirmation, and the HKP lookup subset Hagrid keeps. It refuses HKP uploads: the seed
 * says this server does not take the legacy key-server protocol. `publicBaseUrl`: where it is
 * mounted (`…/keys`), for the links it mails and serves.
 */
export async function handleVks(dir: KeyDirectory, req: IncomingMessage, res: ServerResponse, subpath: string, body: Buffer, publicBaseUrl: string): Promise<void> {
  const base = publicBaseUrl.replace(/\/+$/, '');
  const url = parseSubpath(subpath);
  const path = url.pathname.replace(/\/+$/, '') || '/';
  const method = req.method ?? 'GET';
  const get = method === 'GET' || method === 'HEAD';

  const lookup = /^\/vks\/v1\/(by-fingerprint|by-keyid|by-email)\/(.+)$/.exec(path);
  if (lookup !== null) {
    if (!get) return methodNotAllowed(res, 'GET');
    return byLookup(dir, res, lookup[1]!, lookup[2]!);
  }
  switch (path) {
    case '/vks/v1/upload':
      if (method !== 'POST') return methodNotAllowed(res, 'POST');
      return apiUpload(dir, res, body);
    case '/vks/v1/request-verify':
      if (method !== 'POST') return methodNotAllowed(res, 'POST');
      return apiRequestVerify(dir, res, body, base);
    case '/':
      return get ? sendHtml(res, 200, indexPage(base)) : methodNotAllowed(res, 'GET');
    case '/upload':
      if (get) return sendHtml(res, 200, uploadForm(base));
      if (method !== 'POST') return methodNotAllowed(res, 'GET, POST');
      return formUpload(dir, res, body, base);
    case '/upload/request-verify':
      if (method !== 'POST') return methodNotAllowed(res, 'POST');
      return formRequestVerify(dir, res, body, base);
    case '/pks/add':
      return sendPlain(
        res,
        403,
        `This key server does not accept uploads through the legacy key-server protocol (/pks/add). Submit the armored public key at ${base}/upload and confirm the address through the mailed link.`,
      );
    case '/pks/lookup':
      if (!get) return methodNotAllowed(res, 'GET');
      return hkpLookup(dir, res, url.searchParams);
  }
  if (path.startsWith('/verify/')) {
    if (!get) return methodNotAllowed(res, 'GET');
    let verifyToken: string;
    try {
      verifyToken = decodeURIComponent(path.slice('/verify/'.length));
    } catch {
      verifyToken = '';
    }
    const result = await dir.confirm(verifyToken);
    if (result === undefined) return sendHtml(res, 404, errorPage('Invalid link', 'This confirmation link is invalid or has already been used.'));
    return sendHtml(res, 200, verified(result.entry, result.address));
  }
  return sendPlain(res, 404, 'Not found.');
}

function byLookup(dir: KeyDirectory, res: ServerResponse, kind: string, raw: string): void {
  let value: string;
  try {
    value = decodeURIComponent(raw);
  } catch {
    return sendPlain(res, 400, 'Malformed URI encoding.');
  }
  if (kind === 'by-email') {
    const entry = dir.findPrimaryByConfirmedEmail(value);
    return entry === undefined ? sendPlain(res, 404, `No key found for e-mail address ${value}`) : sendKey(res, entry.served);
  }
  const pattern = kind === 'by-fingerprint' ? /^([0-9A-F]{40}|[0-9A-F]{64})$/ : /^[0-9A-F]{16}$/;
  if (!pattern.test(value)) {
    const what = kind === 'by-fingerprint' ? 'a fingerprint (40 hex characters)' : 'a long key id (16 hex characters)';
    return sendPlain(res, 400, `Invalid ${kind.slice(3)} '${value}': expected ${what} in uppercase, without a 0x prefix.`);
  }
  const entry = dir.findPrimary(value);
  return entry === undefined ? sendPlain(res, 404, `No key found for ${kind.slice(3)} ${value}`) : sendKey(res, entry.served);
}

function statusBody(entry: PrimaryEntry, token: string): Record<string, unknown> {
  return { key_fpr: entry.fingerprint, status: { ...entry.addresses }, token };
}

async function apiUpload(dir: KeyDirectory, res: ServerResponse, body: Buffer): Promise<void> {
  const json = parseJsonBody(body) as { keytext?: unknown } | undefined;
  if (json === undefined || typeof json !== 'object' || json === null) return sendJsonBody(res, 400, { error: 'Expected a JSON body {"keytext": "..."}.' });
  try {
    const keys = await parseKeyText(json.keytext);
    if (keys.length > 1) return sendJsonBody(res, 400, { error: 'Upload one key at a time.' });
    const { entry, token } = await dir.uploadPrimary(keys[0]!);
    return sendJsonBody(res, 200, statusBody(entry, token));
  } catch (error) {
    if (error instanceof KeyTextError) return sendJsonBody(res, 400, { error: error.message });
    throw error;
  }
}

async function apiRequestVerify(dir: KeyDirectory, res: ServerResponse, body: Buffer, base: string): Promise<void> {
  const json = parseJsonBody(body) as { token?: unknown; addresses?: unknown } | undefined;
  if (json === undefined || typeof json !== 'object' || json === null || typeof json.token !== 'string') {
    return sendJsonBody(res, 400, { error: 'Expected a JSON body {"token": "...", "addresses": ["..."]}.' });
  }
  const addresses = json.addresses;
  if (!Array.isArray(addresses) || !addresses.every((a): a is string => typeof a === 'string')) {
    return sendJsonBody(res, 400, { error: '"addresses" must be a list of e-mail addresses.' });
  }
  const fingerprint = dir.fingerprintOfUploadToken(json.token);
  if (fingerprint === undefined) return sendJsonBody(res, 400, { error: 'Invalid or expired upload token.' });
  try {
    const entry = await dir.requestVerify(fingerprint, addresses, base);
    return sendJsonBody(res, 200, statusBody(entry, json.token));
  } catch (error) {
    return sendJsonBody(res, 400, { error: error instanceof Error ? error.message : String(error) });
  }
}

async function formUpload(dir: KeyDirectory, res: ServerResponse, body: Buffer, base: string): Promise<void> {
  try {
    const keys = await parseKeyText(formField(body, 'keytext'));
    if (keys.length > 1) return sendHtml(res, 400, uploadForm(base, 'Upload one key at a time.'));
    const { entry, token } = await dir.uploadPrimary(keys[0]!);
    return sendHtml(res, 200, uploadResult(base, entry, token));
  } catch (error) {
    if (error instanceof KeyTextError) return sendHtml(res, 400, uploadForm(base, error.message));
    throw error;
  }
}

async function formRequestVerify(dir: KeyDirectory, res: ServerResponse, body: Buffer, base: string): Promise<void> {
  const token = formField(body, 'token') ?? '';
  const address = formField(body, 'address') ?? '';
  const fingerprint = dir.fingerprintOfUploadToken(token);
  if (fingerprint === undefined) return sendHtml(res, 400, errorPage('Invalid request', 'This upload token is invalid; upload the key again.'));
  try {
    await dir.requestVerify(fingerprint, [address], base);
  } catch (error) {
    return sendHtml(res, 400, errorPage('Invalid request', error instanceof Error ? error.message : String(error)));
  }
  return sendHtml(res, 200, verificationSent(address));
}

/** Hagrid's HKP subset: exact search by key id, fingerprint or confirmed address; one key at most. */
async function hkpLookup(dir: KeyDirectory, res: ServerResponse, params: URLSearchParams): Promise<void> {
  const op = params.get('op');
  const search = params.get('search') ?? '';
  if (op !== 'get' && op !== 'index') return sendPlain(res, 400, "Invalid op: use op=get or op=index.");
  const hex = search.replace(/^0x/i, '').toUpperCase();
  const entry = search.includes('@')
    ? dir.findPrimaryByConfirmedEmail(search)
    : /^([0-9A-F]{16}|[0-9A-F]{40}|[0-9A-F]{64})$/.test(hex)
      ? dir.findPrimary(hex)
      : undefined;
  if (entry === undefined) return sendPlain(res, 404, 'No key found.');
  if (op === 'get') return sendKey(res, entry.served);
  return sendPlain(res, 200, await hkpIndex([entry.served]));
}
