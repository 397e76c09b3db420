/**
 * A small hostile HTTP server on loopback: the bad days a portal client must survive. Every
 * request is recorded (method, raw URL, whether an Authorization header came along) so tests can
 * prove where a token went. One mode for the whole server, switchable between runs.
 *
 * - `drip`: 200 application/json, then one byte every 100 ms, forever (a slow proxy or server);
 * - `flood`: 200 application/json, an endless body as fast as the socket takes it;
 * - `html`: 200 text/html, a login page (a wrong URL, a captive portal or a proxy);
 * - `redirect`: 302 to the same port on 127.0.0.2 ("another machine");
 * - `reset`: 200 with a declared length, half a body, then the connection is destroyed;
 * - `wrong-type`: 200 text/plain with a JSON body an API could have sent;
 * - `slow-headers`: reads the request and never answers;
 * - `json`: a plain well-behaved 200 JSON answer (`body`), for recording requests.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type HostileMode = 'drip' | 'flood' | 'html' | 'redirect' | 'reset' | 'wrong-type' | 'slow-headers' | 'json';
export const hostileModes: readonly HostileMode[] = ['drip', 'flood', 'html', 'redirect', 'reset', 'wrong-type', 'slow-headers'];

export interface RecordedRequest {
  method: string;
  url: string;
  authorization: boolean;
  /** Date.now() when the request line arrived. */
  at: number;
}

export interface HostileServer extends AsyncDisposable {
  url: string;
  port: number;
  requests: RecordedRequest[];
  mode: HostileMode;
  /** The body of `json` and `wrong-type` answers. */
  body: unknown;
  /** Per request, overrides `mode` (e.g. a good search, then a reset POST). */
  route?: (req: RecordedRequest, index: number) => { mode: HostileMode; body?: unknown };
  close(): Promise<void>;
}

const loginPage = '<!DOCTYPE html><html><head><title>Sign in</title></head><body><form method="post"><input name="user"><input type="password" name="pw"></form></body></html>';

/** A JSON body that would satisfy every relctl call if its content type were right. */
export const plausibleBody = {
  repositories: [],
  deploymentId: '11111111-2222-3333-4444-555555555555',
  deploymentState: 'PUBLISHED',
  purls: [],
};

function answer(server: HostileServer, req: IncomingMessage, res: ServerResponse): void {
  const json = { 'content-type': 'application/json' };
  const index = server.requests.length - 1;
  const routed = server.route?.(server.requests[index]!, index);
  const body = routed?.body ?? server.body;
  switch (routed?.mode ?? server.mode) {
    case 'drip': {
      res.writeHead(200, json);
      res.write('{"repositories":[');
      const timer = setInterval(() => res.write(' '), 100);
      res.on('close', () => clearInterval(timer));
      return;
    }
    case 'flood': {
      res.writeHead(200, json);
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const pump = (): void => {
        while (!res.destroyed && res.write(chunk)) {
          /* keep writing until the socket pushes back */
        }
      };
      res.on('drain', pump);
      pump();
      return;
    }
    case 'html': {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': String(Buffer.byteLength(loginPage)) });
      res.end(loginPage);
      return;
    }
    case 'redirect': {
      res.writeHead(302, { location: `http://127.0.0.2:${server.port}/login?next=${encodeURIComponent(req.url ?? '/')}`, 'content-length': '0' });
      res.end();
      return;
    }
    case 'reset': {
      res.writeHead(200, { ...json, 'content-length': '1000' });
      res.write('{"repositories":[{"key":"x"');
      setTimeout(() => req.socket.destroy(), 50);
      return;
    }
    case 'wrong-type': {
      const text = JSON.stringify(body);
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(Buffer.byteLength(text)) });
      res.end(text);
      return;
    }
    case 'slow-headers':
      return; // never answers; the socket stays open until the client gives up
    case 'json': {
      const text = JSON.stringify(body);
      res.writeHead(200, { ...json, 'content-length': String(Buffer.byteLength(text)) });
      res.end(text);
      return;
    }
  }
}

/** Starts on 127.0.0.1 and on every other loopback address (port 0 picks a free port). */
export async function startHostileServer(mode: HostileMode = 'json'): Promise<HostileServer> {
  const sockets = new Set<Socket>();
  const srv = http.createServer();
  srv.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const port = (srv.address() as AddressInfo).port;
  const server: HostileServer = {
    url: `http://127.0.0.1:${port}`,
    port,
    requests: [],
    mode,
    body: plausibleBody,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        srv.close(() => resolve());
      }),
    [Symbol.asyncDispose]: () => server.close(),
  };
  srv.on('request', (req: IncomingMessage, res: ServerResponse) => {
    server.requests.push({ method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization !== undefined, at: Date.now() });
    res.on('error', () => undefined);
    req.resume();
    req.on('end', () => answer(server, req, res));
  });
  return server;
}
