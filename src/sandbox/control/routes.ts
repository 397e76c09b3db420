import type { IncomingMessage, ServerResponse } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import { parseFaults, type Faults } from '../shared/faults.js';
import { HttpError, continueAndRead, parseJson, sendEmpty, sendJson, type Route } from '../shared/http.js';

/** What the control service looks at and steers; server.ts wires it to the other services. */
export interface ControlTarget {
  faults: Faults;
  /** The token state-changing calls must carry in `X-Sandbox-Token`. */
  controlToken: string;
  /** GET /sandbox/state: repositories, deployments, users (without passwords). */
  view(): Record<string, unknown>;
  mails(): unknown[];
  /** The portal's "Enable SNAPSHOTs" for a namespace (`on` false takes it back). */
  enableSnapshots(namespace: string, on: boolean): Promise<void>;
  /** Forgets every repository, deployment, published file, key and mail (not the seed). */
  reset(): Promise<void>;
}

/** 401 without the token, 403 with a wrong one: checked before any body is read. */
function requireToken(target: ControlTarget, req: IncomingMessage): void {
  const given = req.headers['x-sandbox-token'];
  if (typeof given !== 'string' || given === '') {
    throw new HttpError(401, { error: 'This control call changes the sandbox: send the header X-Sandbox-Token (controlToken of the ready document).' });
  }
  const a = Buffer.from(given);
  const b = Buffer.from(target.controlToken);
  if (a.length !== b.length || !timingSafeEqual(a, b)) throw new HttpError(403, { error: 'X-Sandbox-Token does not match this sandbox.' });
}

/** `/sandbox/...`: what tests and people use to look inside (open) and steer (token) the sandbox. */
export function controlRoutes(target: ControlTarget): Route {
  return async (req: IncomingMessage, res: ServerResponse, rest: string): Promise<void> => {
    const method = req.method ?? 'GET';
    if (method !== 'GET' && method !== 'HEAD') requireToken(target, req);
    switch (`${method} ${rest}`) {
      case 'GET /mail':
        sendJson(res, 200, target.mails());
        return;
      case 'GET /state':
        sendJson(res, 200, { ...target.view(), faults: target.faults.pending() });
        return;
      case 'GET /faults':
        sendJson(res, 200, target.faults.pending());
        return;
      case 'POST /faults': {
        target.faults.add(parseFaults(parseJson(await continueAndRead(req, res, 1024 * 1024))));
        sendJson(res, 200, target.faults.pending());
        return;
      }
      case 'DELETE /faults':
        target.faults.clear();
        sendEmpty(res, 204);
        return;
      case 'POST /snapshots': {
        // {"namespace": "org.example", "enabled": true}: as the portal's Namespaces page switches it.
        const body = parseJson(await continueAndRead(req, res, 64 * 1024)) as { namespace?: unknown; enabled?: unknown } | null;
        const namespace = body?.namespace;
        if (typeof namespace !== 'string' || !/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/.test(namespace)) {
          throw new HttpError(400, { error: 'Send {"namespace": "<group id such as org.example>", "enabled": true|false}.' });
        }
        await target.enableSnapshots(namespace, body?.enabled !== false);
        sendJson(res, 200, { namespace, enabled: body?.enabled !== false });
        return;
      }
      case 'POST /reset':
        await continueAndRead(req, res, 1024 * 1024);
        target.faults.clear();
        await target.reset();
        sendEmpty(res, 204);
        return;
      default:
        throw new HttpError(404, { error: `Not found: /sandbox${rest}` });
    }
  };
}
