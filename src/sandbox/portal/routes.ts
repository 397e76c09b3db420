import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Accounts } from '../shared/accounts.js';
import { HttpError, continueAndRead, sendEmpty, sendJson, type Route } from '../shared/http.js';
import type { Deployments } from './deployments.js';
import type { ReceivedMail } from '../smtp/index.js';
import { deploymentsPage } from './page.js';
import { handlePublisherUpload } from './publisher-upload.js';
import type { DeploymentRecord } from './records.js';

const api = '/api/v1/publisher';
// The Publisher API takes Bearer (and the deprecated UserToken); Basic lets the web page's
// buttons reuse the credentials the browser already holds for the portal realm.
const schemes = ['Bearer', 'UserToken', 'Basic'] as const;
const realm = 'portal';

/** `POST /api/v1/publisher/status` body (reference/portal-api.md §B). */
export function statusOf(d: DeploymentRecord): Record<string, unknown> {
  const errors = new Map<string, string[]>();
  for (const c of d.components) if (c.errors.length > 0) errors.set(c.purl, c.errors);
  if (d.commonErrors !== undefined && d.commonErrors.length > 0) errors.set('common', d.commonErrors);
  return {
    deploymentId: d.id,
    deploymentName: d.name,
    deploymentState: d.state,
    purls: d.components.map((c) => c.purl),
    errors: Object.fromEntries(errors),
  };
}

function idOf(value: string | null | undefined): string {
  if (value === null || value === undefined || !/^[0-9a-fA-F-]{1,64}$/.test(value)) {
    throw new HttpError(400, { error: 'Failed to process request: a deployment id (UUID) is required' });
  }
  return value.toLowerCase();
}

/** `/portal/...`: the Publisher API and the Deployments page. */
/** `mails`: the sandbox's SMTP mailbox, shown below the Deployments page. */
/** `bundleLimit`: the bundle cap (1 GiB on the real portal), above which an upload is answered 413. */
export function portalRoutes(accounts: Accounts, deployments: Deployments, mails: () => readonly ReceivedMail[], bundleLimit: number): Route {
  return async (req: IncomingMessage, res: ServerResponse, rest: string, query: URLSearchParams): Promise<void> => {
    const method = req.method ?? 'GET';

    if (rest === '' || rest === '/' || rest === '/publishing' || rest === '/publishing/') {
      res.writeHead(302, { location: '/portal/publishing/deployments', 'content-length': '0' });
      res.end();
      return;
    }

    if (rest === '/publishing/deployments') {
      if (method !== 'GET' && method !== 'HEAD') throw new HttpError(405, '', { allow: 'GET' });
      const user = accounts.require(req, ['Basic'], realm);
      const html = Buffer.from(deploymentsPage(user.name, deployments.ofUser(user).reverse(), mails()));
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': String(html.length), 'cache-control': 'no-store' });
      res.end(method === 'HEAD' ? undefined : html);
      return;
    }

    if (!rest.startsWith(`${api}/`)) throw new HttpError(404, { error: `Not found: /portal${rest}` });
    const user = accounts.require(req, schemes, realm);
    const call = rest.slice(api.length);
    if (call === '/upload') return handlePublisherUpload(accounts, deployments, req, res, user, query, bundleLimit);
    await continueAndRead(req, res, 1024 * 1024);

    if (call === '/status') {
      if (method !== 'POST') throw new HttpError(405, '', { allow: 'POST' });
      sendJson(res, 200, statusOf(deployments.own(user, idOf(query.get('id')))));
      return;
    }
    if (call.startsWith('/deployment/')) {
      const id = idOf(call.slice('/deployment/'.length));
      if (method === 'POST') await deployments.publish(user, id);
      else if (method === 'DELETE') await deployments.drop(user, id);
      else throw new HttpError(405, '', { allow: 'POST, DELETE' });
      sendEmpty(res, 204);
      return;
    }
    if (call === '/published') {
      if (method !== 'GET') throw new HttpError(405, '', { allow: 'GET' });
      const [namespace, name, version] = ['namespace', 'name', 'version'].map((k) => query.get(k) ?? '');
      if (namespace === '' || name === '' || version === '') {
        throw new HttpError(400, { error: 'Failed to process request: namespace, name and version are required' });
      }
      sendJson(res, 200, { published: await deployments.isPublished(namespace!, name!, version!) });
      return;
    }
    throw new HttpError(404, { error: `Not found: /portal${rest}` });
  };
}
