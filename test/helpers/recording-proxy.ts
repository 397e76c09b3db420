import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A forwarding proxy on loopback that records each request's method and path, then passes it on
 * unchanged: what relctl asked a server (a PATCH or none at all) is seen without the server
 * having to keep a log. Answers come back as the server sent them (links inside still name it).
 */
export interface RecordingProxy {
  /** `http://127.0.0.1:PORT`: put it where the target's origin would be. */
  url: string;
  calls: { method: string; path: string }[];
  close(): Promise<void>;
}

export async function recordingProxy(target: string): Promise<RecordingProxy> {
  const upstream = new URL(target);
  const calls: RecordingProxy['calls'] = [];
  const server = http.createServer((req, res) => {
    calls.push({ method: req.method ?? 'GET', path: (req.url ?? '/').replace(/\?.*$/, '') });
    const forward = http.request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: { ...req.headers, host: upstream.host } }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
