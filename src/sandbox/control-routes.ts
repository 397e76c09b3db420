import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SandboxApp } from './app.js';
import { parseFaults } from './faults.js';
import { HttpError, continueAndRead, parseJson, safeSegments, sendEmpty, sendJson } from './http-util.js';

/** `/sandbox/...`: what tests and people use to look inside and steer the sandbox. */
export async function handleControl(app: SandboxApp, req: IncomingMessage, res: ServerResponse, rest: string): Promise<void> {
  const method = req.method ?? 'GET';
  const route = `${method} ${rest}`;
  switch (route) {
    case 'GET /mail':
      // The key server's confirmation mails ({to, subject, link}), then what SMTP received ({from, to, subject, text}).
      sendJson(res, 200, [...app.keys.current.mails(), ...app.smtp.mails()]);
      return;
    case 'GET /state': {
      const { repositories, deployments } = app.service.state;
      sendJson(res, 200, {
        repositories,
        deployments,
        users: app.service.users.map((u) => ({ name: u.name, namespaces: u.namespaces ?? null })),
        faults: app.faults.pending(),
      });
      return;
    }
    case 'GET /faults':
      sendJson(res, 200, app.faults.pending());
      return;
    case 'POST /faults': {
      const faults = parseFaults(parseJson(await continueAndRead(req, res, 1024 * 1024)));
      app.faults.add(faults);
      sendJson(res, 200, app.faults.pending());
      return;
    }
    case 'DELETE /faults':
      app.faults.clear();
      sendEmpty(res, 204);
      return;
    case 'POST /reset':
      await continueAndRead(req, res, 1024 * 1024);
      app.faults.clear();
      await app.reset();
      sendEmpty(res, 204);
      return;
    default:
      throw new HttpError(404, { error: `Not found: /sandbox${rest}` });
  }
}

const contentTypes: Record<string, string> = {
  pom: 'application/xml',
  xml: 'application/xml',
  jar: 'application/java-archive',
  war: 'application/java-archive',
  asc: 'text/plain',
  md5: 'text/plain',
  sha1: 'text/plain',
  sha256: 'text/plain',
  sha512: 'text/plain',
};

/** `/repo/<maven path>`: the public repository (published files over the seed folder). */
export async function handleRepo(app: SandboxApp, req: IncomingMessage, res: ServerResponse, rest: string): Promise<void> {
  const method = req.method ?? 'GET';
  if (method !== 'GET' && method !== 'HEAD') throw new HttpError(405, '', { allow: 'GET, HEAD' });
  const segments = safeSegments(rest);
  const data = await app.service.files.getPublic(segments);
  if (data === undefined) throw new HttpError(404, '');
  const ext = segments[segments.length - 1]!.split('.').pop() ?? '';
  res.writeHead(200, { 'content-type': contentTypes[ext] ?? 'application/octet-stream', 'content-length': String(data.length) });
  res.end(method === 'HEAD' ? undefined : data);
}
