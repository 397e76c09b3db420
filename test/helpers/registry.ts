import { writeFile } from 'node:fs/promises';
import net, { type AddressInfo, type Socket } from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { execa, type ResultPromise } from 'execa';
import { freePort } from './ports.js';

export interface LoopbackRegistry extends AsyncDisposable {
  /** 127.0.0.1:PORT */
  host: string;
  log: () => string;
}

/**
 * Debian's docker-registry (the distribution project's registry) on loopback, filesystem
 * storage in `dir`, htpasswd (bcrypt, via apache2-utils' htpasswd reading stdin) when `auth` is given.
 */
export async function startRegistry(dir: string, auth?: { user: string; password: string }): Promise<LoopbackRegistry> {
  const port = await freePort();
  const lines = ['version: 0.1', 'log:', '  level: warn', 'storage:', '  filesystem:', `    rootdirectory: ${path.join(dir, 'data')}`, 'http:', `  addr: 127.0.0.1:${port}`];
  if (auth !== undefined) {
    const entry = await execa('htpasswd', ['-iBn', auth.user], { input: `${auth.password}\n` });
    await writeFile(path.join(dir, 'htpasswd'), `${String(entry.stdout).trim()}\n`);
    lines.push('auth:', '  htpasswd:', '    realm: relctl-test', `    path: ${path.join(dir, 'htpasswd')}`);
  }
  const config = path.join(dir, 'registry.yml');
  await writeFile(config, `${lines.join('\n')}\n`);
  let output = '';
  const child: ResultPromise = execa('docker-registry', ['serve', config], { reject: false, all: true, buffer: false });
  child.all?.on('data', (d: Buffer) => (output += d.toString()));
  const host = `127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    const ok = await fetch(`http://${host}/v2/`).then((r) => r.status === 200 || r.status === 401, () => false);
    if (ok) break;
    if (i === 99) throw new Error(`docker-registry did not start: ${output}`);
    await sleep(100);
  }
  return {
    host,
    log: () => output,
    [Symbol.asyncDispose]: async () => {
      child.kill('SIGTERM');
      await child;
    },
  };
}

/** containers/storage for buildah in a temp folder (vfs), so tests never touch the machine's images. */
export async function buildahStorageEnv(dir: string): Promise<Record<string, string>> {
  const conf = path.join(dir, 'storage.conf');
  await writeFile(conf, `[storage]\ndriver = "vfs"\ngraphroot = "${path.join(dir, 'graph')}"\nrunroot = "${path.join(dir, 'run')}"\n`);
  return { CONTAINERS_STORAGE_CONF: conf };
}

export type HangingMode = 'silent' | 'stalled-token';

export interface HangingRegistry extends AsyncDisposable {
  /** 127.0.0.1:PORT */
  host: string;
  /** Connections accepted so far. */
  connections: () => number;
  /** Request lines of plain-HTTP requests ("GET /v2/ HTTP/1.1"). */
  requests: string[];
}

/**
 * A hostile registry on loopback that never lets a client finish:
 * - `silent`: accepts the connection and never sends a byte (TLS or HTTP);
 * - `stalled-token`: refuses TLS (the client falls back to plain HTTP, as it does for an insecure
 *   registry), answers every /v2/ request with a Bearer challenge, and the challenge's token
 *   endpoint sends its headers and the first byte of the body, then nothing more.
 */
export async function startHangingRegistry(mode: HangingMode): Promise<HangingRegistry> {
  const sockets = new Set<Socket>();
  const requests: string[] = [];
  let accepted = 0;
  const server = net.createServer((socket) => {
    accepted++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    if (mode === 'silent') return;
    socket.on('data', (chunk: Buffer) => {
      // 0x16: a TLS handshake record. Closing it makes the client try plain HTTP.
      if (chunk[0] === 0x16) return void socket.destroy();
      for (const m of chunk.toString('latin1').matchAll(/^(GET|HEAD|POST|PUT|PATCH|DELETE) (\S+) HTTP\/1\.[01]/gm)) {
        requests.push(m[0]);
        if (m[2]!.startsWith('/token')) {
          socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 4096\r\n\r\n{');
        } else {
          const realm = `http://${host}/token`;
          socket.write(`HTTP/1.1 401 Unauthorized\r\nDocker-Distribution-Api-Version: registry/2.0\r\nWWW-Authenticate: Bearer realm="${realm}",service="hostile"\r\nContent-Length: 0\r\n\r\n`);
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    host,
    connections: () => accepted,
    requests,
    [Symbol.asyncDispose]: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
